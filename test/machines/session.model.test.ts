import { describe, expect, it } from "vitest";
import { sessionMachine as machine, type SessionInput } from "../../machines/index.js";
import type { ConfiguredCallbacks } from "../../machines/shared.js";
import type { SetCookie } from "../../src/cookies.js";
import type { JWT, Session } from "../../src/types.js";
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
const nowSeconds = Math.floor(now / 1000);
const day = 24 * 60 * 60;
const updateAge = day;

const fresh: JWT = {
  sub: "user-1",
  name: "Ada",
  email: "ada@example.com",
  picture: "https://img.example/ada.png",
  iat: nowSeconds - 60,
  exp: nowSeconds + 30 * day - 60,
};
const stale: JWT = { ...fresh, iat: nowSeconds - updateAge - 1, exp: nowSeconds + 29 * day - 1 };
const reissued: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "resealed", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];
const reissuedExpires = new Date(now + 30 * day * 1000).toISOString();
const decoderCrashed = new Error("decodeSessionToken: no secret configured");
const jwtCallbackCrashed = new Error("jwt callback: the user store is unreachable");
const encoderCrashed = new Error("encodeSessionToken: the token is too large");
const sessionCallbackCrashed = new Error("session callback: undefined is not a function");

const outcomes = {
  decodeSessionToken: [
    returns("opens it with the current secret", () => ({ payload: fresh, secretIndex: 0 })),
    returns("opens it with an older secret", () => ({ payload: fresh, secretIndex: 1 })),
    returns("opens a token older than updateAge", () => ({ payload: stale, secretIndex: 0 })),
    returns("cannot open it", () => null),
    throws("throws", decoderCrashed),
  ],
  jwtCallback: [
    returns("keeps the token unchanged", ({ token }: { token: JWT }) => ({ token, changed: false })),
    returns("changes the token", ({ token }: { token: JWT }) => ({ token: { ...token, role: "admin" }, changed: true })),
    returns("returns null", () => ({ token: null, changed: false })),
    throws("throws", jwtCallbackCrashed),
  ],
  encodeSessionToken: [returns("encodes it", () => ({ cookies: reissued, expires: reissuedExpires })), throws("throws", encoderCrashed)],
  sessionCallback: [
    returns("returns a session", ({ token, expires }: { token: JWT; expires: string }): Session => ({
      user: { name: token.name ?? null, email: token.email ?? null },
      expires,
    })),
    throws("throws", sessionCallbackCrashed),
  ],
};

const read = { now, updateAge, req: requestContext("session", "GET") };
const requests = {
  "no cookie": read,
  "an empty cookie": { ...read, token: "" },
  "a cookie": { ...read, token: "sealed" },
  "a cookie and an update": { ...read, token: "sealed", update: { data: { name: "Grace" } }, req: requestContext("session", "POST") },
};
/** Which of its callbacks the application configured: without one, the machine runs the default itself. */
const configurations: Record<string, ConfiguredCallbacks> = {
  "jwt and session callbacks": { jwt: true, session: true },
  "a jwt callback only": { jwt: true, session: false },
  "a session callback only": { jwt: false, session: true },
  "no callbacks": { jwt: false, session: false },
};
const inputs: Record<string, SessionInput> = Object.fromEntries(
  Object.entries(requests).flatMap(([request, input]) =>
    Object.entries(configurations).map(([configured, callbacks]) => [`${request}, ${configured}`, { ...input, callbacks }]),
  ),
);

const paths = effectPaths(machine, inputs, outcomes);

const outcomeOfFinalState: Record<string, string> = { active: "active", noSession: "none", invalid: "invalid" };

type Step = EffectPath<typeof machine>["steps"][number];
const outputOf = (steps: Step[], effect: string) => {
  const step = steps.find((s) => s.effect === effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};

/** The token the session is read from: the jwt callback's, or without one the decoded token as is, unchanged. */
function keptToken(path: EffectPath<typeof machine>): { token: JWT | null; changed: boolean } | undefined {
  const decoded = outputOf(path.steps, "decodeSessionToken") as { payload: JWT } | null | undefined;
  if (!decoded) return undefined;
  if (!path.input.callbacks.jwt) return { token: decoded.payload, changed: false };
  return outputOf(path.steps, "jwtCallback") as { token: JWT | null; changed: boolean } | undefined;
}

/** Written from the rule, not from the machine: re-issue when changed, older secret, update, or old enough. */
function reissueExpected(path: EffectPath<typeof machine>): boolean {
  const decoded = outputOf(path.steps, "decodeSessionToken") as { secretIndex: number } | undefined;
  const kept = keptToken(path);
  if (!decoded || !kept?.token) return false;
  const ageMs = BigInt(path.input.now) - BigInt(kept.token.iat ?? 0) * 1000n;
  return Boolean(path.input.update) || kept.changed || decoded.secretIndex > 0 || ageMs >= BigInt(path.input.updateAge) * 1000n;
}

describe("session: paths generated from the machine", () => {
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
      const finalState = String(played.value);
      expect(output.outcome).toBe(outcomeOfFinalState[finalState]);
      const reissuedHere = played.invoked.some((call) => call.effect === "encodeSessionToken");
      expect(reissuedHere).toBe(reissueExpected(path));
      // Cookies only come with an active session, and only the ones a re-issue wrote.
      expect("cookies" in output).toBe(finalState === "active");
      if (output.outcome === "active") expect(output.cookies).toEqual(reissuedHere ? reissued : []);
      if (output.outcome === "invalid") {
        const thrown = path.steps.find((s) => "error" in s.ending);
        expect(output.failure?.error).toBe(thrown && "error" in thrown.ending ? thrown.ending.error : undefined);
        expect(output.failure?.as).toBe(thrown?.effect === "decodeSessionToken" ? "SessionTokenError" : undefined);
      }

      // A callback the application did not configure is never invoked.
      const { callbacks } = path.input;
      if (!callbacks.jwt) expect(played.invoked.map((call) => call.effect)).not.toContain("jwtCallback");
      if (!callbacks.session) expect(played.invoked.map((call) => call.effect)).not.toContain("sessionCallback");

      const kept = keptToken(path);
      const shaped = played.invoked.find((call) => call.effect === "sessionCallback");
      if (shaped) expect((shaped.input as { token: JWT }).token).toEqual(kept!.token);
      if (output.outcome === "active") {
        const token = kept!.token!;
        const expires = reissuedHere ? reissuedExpires : new Date(token.exp! * 1000).toISOString();
        // Without a session callback the client sees the default: name, email and picture of the token, nothing else.
        const expected: Session = callbacks.session
          ? (outputOf(path.steps, "sessionCallback") as Session)
          : { user: { name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null }, expires };
        expect(output.session).toEqual(expected);
        expect(output.session.expires).toBe(expires);
      }

      const sessions = played.emitted.filter((event) => event.type === "session");
      expect(sessions).toEqual(output.outcome === "active" ? [{ type: "session", session: output.session, token: kept!.token }] : []);
    });
  }
});
