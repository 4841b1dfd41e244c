import { describe, expect, it } from "vitest";
import { databaseSessionMachine as machine, type DatabaseSessionInput } from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import type { AdapterSession, AdapterUser, Session } from "../../src/types.js";
import {
  effectNames,
  effectPaths,
  expectPlayedAsPredicted,
  finalStateIds,
  playBack,
  returns,
  stateIds,
  throws,
  transitionKeys,
  type EffectPath,
} from "./effect-paths.js";
import { requestContext } from "./fixtures.js";

const now = Date.UTC(2030, 0, 15, 12, 0, 0, 250);
const second = 1000;
const day = 24 * 60 * 60;
const maxAge = 30 * day;
const updateAge = day;

const ada: AdapterUser = { id: "user-1", name: "Ada", email: "ada@example.com", emailVerified: null, image: "https://img.example/ada.png" };
/** A record whose last extension (or creation) was `ago` milliseconds before the request: it expires maxAge after that. */
const lastExtended = (ago: number): AdapterSession => ({ sessionToken: "session-token-1", userId: ada.id, expires: new Date(now - ago + maxAge * second) });
const extendedCookies: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "session-token-1", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];
const storeDown = new Error("loadSession: the session store is unreachable");
const extendFailed = new Error("extendSession: the session to extend no longer exists");
const sessionCallbackCrashed = new Error("session callback: undefined is not a function");

const outcomes = {
  loadSession: [
    returns("finds a session extended a minute ago", () => ({ session: lastExtended(60 * second), user: ada })),
    returns("finds a session extended exactly a day ago", () => ({ session: lastExtended(day * second), user: ada })),
    returns("finds a session extended a millisecond less than a day ago", () => ({ session: lastExtended(day * second - 1), user: ada })),
    // Written when maxAge was longer (or by an instance whose clock runs ahead): an extension now would shorten it.
    returns("finds a session that expires later than a fresh one would", () => ({ session: lastExtended(-60 * second), user: ada })),
    returns("returns null", () => null),
    throws("throws", storeDown),
  ],
  extendSession: [
    returns("extends it", ({ session, expires }: { session: AdapterSession; expires: number }) => ({
      session: { ...session, expires: new Date(expires) },
      cookies: extendedCookies,
    })),
    throws("throws", extendFailed),
  ],
  sessionCallback: [
    returns("returns a session", ({ user, expires }: { user: AdapterUser; expires: string }): Session => ({
      user: { name: user.name ?? null, email: user.email },
      expires,
    })),
    throws("throws", sessionCallbackCrashed),
  ],
};

const read = { now, maxAge, updateAge, req: requestContext("session", "GET") };
const requests = {
  "no cookie": read,
  "an empty cookie": { ...read, sessionToken: "" },
  "a cookie": { ...read, sessionToken: "session-token-1" },
  "a cookie, updateAge 0": { ...read, sessionToken: "session-token-1", updateAge: 0 },
  "a cookie and an update": {
    ...read,
    sessionToken: "session-token-1",
    update: { data: { name: "Grace" } },
    req: requestContext("session", "POST"),
  },
};
const configurations = {
  "a session callback": { session: true },
  "no session callback": { session: false },
};
const inputs: Record<string, DatabaseSessionInput> = Object.fromEntries(
  Object.entries(requests).flatMap(([request, input]) =>
    Object.entries(configurations).map(([configured, callbacks]) => [`${request}, ${configured}`, { ...input, callbacks }]),
  ),
);

const paths = effectPaths(machine, inputs, outcomes);

const outcomeOfFinalState: Record<string, string> = { active: "active", noSession: "none", invalid: "invalid" };

type Path = EffectPath<typeof machine>;
const outputOf = (path: Path, effect: string) => {
  const step = path.steps.find((s) => s.effect === effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};

/**
 * Written from the rule, not from the machine: extend when the expiry an extension would write now
 * (now + maxAge) is at least updateAge later than the stored one. Exact integer arithmetic.
 */
function extensionExpected(path: Path, record: AdapterSession): boolean {
  const { now, maxAge, updateAge } = path.input;
  return BigInt(now) + BigInt(maxAge) * 1000n - BigInt(record.expires.valueOf()) >= BigInt(updateAge) * 1000n;
}

describe("database session: paths generated from the machine", () => {
  it("lists outcomes for every effect the machine invokes", () => {
    expect(Object.keys(outcomes).sort()).toEqual(effectNames(machine).sort());
  });

  it("reach every state of the machine", () => {
    const reached = new Set(paths.flatMap((path) => [...path.visited]));
    expect([...reached].sort()).toEqual(stateIds(machine).sort());
  });

  it("end in every final state", () => {
    expect([...new Set(paths.map((path) => path.finalState))].sort()).toEqual(finalStateIds(machine).sort());
  });

  it("take every transition when the real actor plays them", async () => {
    const taken = new Set<string>();
    for (const path of paths) for (const key of (await playBack(machine, path)).transitions) taken.add(key);
    expect([...taken].sort()).toEqual(transitionKeys(machine).sort());
  });

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const { output } = played;
      const { input } = path;
      const finalState = String(played.value);
      expect(output.outcome).toBe(outcomeOfFinalState[finalState]);
      const ran = played.invoked.map((call) => call.effect);

      // No cookie: no session, and nothing is asked of the store.
      expect(finalState === "noSession").toBe(!input.sessionToken);
      if (!input.sessionToken) expect(ran).toEqual([]);

      const loaded = outputOf(path, "loadSession") as { session: AdapterSession; user: AdapterUser } | null | undefined;
      const extended = ran.includes("extendSession");
      expect(extended).toBe(loaded ? extensionExpected(path, loaded.session) : false);
      const newExpiry = input.now + input.maxAge * 1000;
      if (extended) {
        expect(played.invoked.find((call) => call.effect === "extendSession")!.input).toEqual({
          session: loaded!.session,
          expires: newExpiry,
          req: input.req,
        });
      }

      // A callback the application did not configure is never invoked; one it did gets the expiry the client sees.
      if (!input.callbacks.session) expect(ran).not.toContain("sessionCallback");
      const expires = extended ? new Date(newExpiry).toISOString() : loaded?.session.expires.toISOString();
      const shaped = played.invoked.find((call) => call.effect === "sessionCallback");
      if (shaped) {
        expect(shaped.input).toEqual(
          input.update
            ? { user: ada, expires, trigger: "update", newSession: input.update.data }
            : { user: ada, expires },
        );
      }

      // Cookies only come with an active session, and only when its expiry was pushed forward.
      expect("cookies" in output).toBe(finalState === "active");
      if (output.outcome === "active") {
        expect(output.cookies).toEqual(extended ? extendedCookies : []);
        const expected: Session = input.callbacks.session
          ? (outputOf(path, "sessionCallback") as Session)
          : { user: { name: ada.name!, email: ada.email, image: ada.image! }, expires: expires! };
        expect(output.session).toEqual(expected);
        expect(output.session.expires).toBe(expires);
      }

      // Invalid carries the failure when an effect threw, and nothing when the store found no session.
      if (output.outcome === "invalid") {
        const thrown = path.steps.find((s) => "error" in s.ending);
        expect(output).toEqual(
          thrown && "error" in thrown.ending ? { outcome: "invalid", failure: { error: thrown.ending.error } } : { outcome: "invalid" },
        );
      }

      expect(played.emitted).toEqual(output.outcome === "active" ? [{ type: "session", session: output.session }] : []);
    });
  }
});
