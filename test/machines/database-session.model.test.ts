import { describe, expect, it } from "vitest";
import { databaseSessionMachine as machine, type DatabaseSessionInput, type RefreshedAccount } from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import type { AdapterAccount, AdapterSession, AdapterUser, Session, SessionError } from "../../src/types.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { facts } from "./fixtures.js";

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
/** Signed in through the OP, whose access tokens are refreshed; and through GitHub, whose are not. */
const viaOidc = { provider: "oidc", providerAccountId: "ada" };
const viaGithub = { provider: "github", providerAccountId: "4711" };
const refresh = { oidc: 60 };
const stored: AdapterAccount = {
  userId: ada.id,
  type: "oidc",
  provider: "oidc",
  providerAccountId: "ada",
  access_token: "at-1",
  refresh_token: "rt-1",
  expires_at: Math.floor(now / 1000) + 30,
  token_type: "bearer",
};
const storeDown = new Error("loadSession: the session store is unreachable");
const refresherCrashed = new Error("refreshAccount: the account store is unreachable");
const extendFailed = new Error("extendSession: the session to extend no longer exists");
const sessionCallbackCrashed = new Error("session callback: undefined is not a function");

const outcomes = {
  loadSession: [
    returns("finds a session extended a minute ago", () => ({ session: lastExtended(60 * second), user: ada })),
    returns("finds a session extended exactly a day ago", () => ({ session: lastExtended(day * second), user: ada })),
    returns("finds a session extended a millisecond less than a day ago", () => ({ session: lastExtended(day * second - 1), user: ada })),
    // Written when maxAge was longer (or by an instance whose clock runs ahead): an extension now would shorten it.
    returns("finds a session that expires later than a fresh one would", () => ({ session: lastExtended(-60 * second), user: ada })),
    returns("finds an OIDC session extended a minute ago", () => ({ session: { ...lastExtended(60 * second), ...viaOidc }, user: ada })),
    returns("finds an OIDC session extended a day ago", () => ({ session: { ...lastExtended(day * second), ...viaOidc }, user: ada })),
    returns("finds a GitHub session", () => ({ session: { ...lastExtended(60 * second), ...viaGithub }, user: ada })),
    // Written before sessions recorded their account: the columns are NULL.
    returns("finds a session whose account is not recorded", () => ({
      session: { ...lastExtended(60 * second), provider: null, providerAccountId: null },
      user: ada,
    })),
    returns("returns null", () => null),
    throws("throws", storeDown),
  ],
  refreshAccount: [
    returns("finds it fresh", (): RefreshedAccount => ({ account: stored })),
    returns("refreshes it", (): RefreshedAccount => ({
      account: { ...stored, access_token: "at-2", refresh_token: "rt-2", expires_at: Math.floor(now / 1000) + 3600 },
    })),
    returns("is refused", (): RefreshedAccount => ({ account: { ...stored, refresh_token: undefined }, error: "RefreshTokenError" })),
    returns("is unavailable", (): RefreshedAccount => ({ account: stored, error: "RefreshTokenUnavailable" })),
    returns("finds it unlinked", (): RefreshedAccount => ({ account: null })),
    throws("throws", refresherCrashed),
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

const read = { now, maxAge, updateAge, refresh, request: facts() };
const requests = {
  "no cookie": read,
  "an empty cookie": { ...read, sessionToken: "" },
  "a cookie": { ...read, sessionToken: "session-token-1" },
  "a cookie, updateAge 0": { ...read, sessionToken: "session-token-1", updateAge: 0 },
  "a cookie and an update": {
    ...read,
    sessionToken: "session-token-1",
    update: { data: { name: "Grace" } },
    request: facts(),
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

/** Written from the rule: a session signed in with an account of a provider whose tokens are refreshed. */
function refreshExpected(path: Path, record: AdapterSession): boolean {
  const { provider, providerAccountId } = record;
  return typeof provider === "string" && typeof providerAccountId === "string" && path.input.refresh?.[provider] !== undefined;
}

/** The account and the error the session is shaped with: what the refresh returned; a refresh that threw is unavailable. */
function refreshedAccount(path: Path): { account?: AdapterAccount; error?: SessionError } {
  const step = path.steps.find((s) => s.effect === "refreshAccount");
  if (!step) return {};
  if ("error" in step.ending) return { error: "RefreshTokenUnavailable" };
  const { account, error } = step.ending.output as RefreshedAccount;
  return { ...(account ? { account } : {}), ...(error ? { error } : {}) };
}

describe("database session: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

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
          request: input.request,
        });
      }

      // The signed-in account is refreshed (when its provider's are) after any extension, before the session is shaped.
      const refreshing = played.invoked.filter((call) => call.effect === "refreshAccount");
      const extensionFailed = path.steps.some((s) => s.effect === "extendSession" && "error" in s.ending);
      expect(refreshing.length).toBe(loaded && !extensionFailed && refreshExpected(path, loaded.session) ? 1 : 0);
      if (refreshing.length) {
        expect(refreshing[0]!.input).toEqual({ provider: loaded!.session.provider, providerAccountId: loaded!.session.providerAccountId, userId: ada.id, now });
        if (extended) expect(ran.indexOf("extendSession")).toBeLessThan(ran.indexOf("refreshAccount"));
      }
      const { account, error } = refreshedAccount(path);

      // A callback the application did not configure is never invoked; one it did gets the expiry the client
      // sees, and the account with what became of its tokens.
      if (!input.callbacks.session) expect(ran).not.toContain("sessionCallback");
      const expires = extended ? new Date(newExpiry).toISOString() : loaded?.session.expires.toISOString();
      const shaped = played.invoked.find((call) => call.effect === "sessionCallback");
      if (shaped) {
        expect(shaped.input).toEqual({
          user: ada,
          sessionToken: loaded!.session.sessionToken,
          expires,
          ...(input.update ? { trigger: "update", newSession: input.update.data } : {}),
          ...(account ? { account } : {}),
          ...(error ? { error } : {}),
        });
      }

      // Cookies only come with an active session, and only when its expiry was pushed forward.
      expect("cookies" in output).toBe(finalState === "active");
      if (output.outcome === "active") {
        expect(output.cookies).toEqual(extended ? extendedCookies : []);
        const expected: Session = input.callbacks.session
          ? (outputOf(path, "sessionCallback") as Session)
          : { user: { name: ada.name!, email: ada.email, image: ada.image! }, expires: expires!, ...(error ? { error } : {}) };
        expect(output.session).toEqual(expected);
        expect(output.session.expires).toBe(expires);
      }

      // Invalid carries the failure when an effect threw, and nothing when the store found no session.
      if (output.outcome === "invalid") {
        // A refresh that throws does not end the session: it only shows as RefreshTokenUnavailable.
        const thrown = path.steps.find((s) => s.effect !== "refreshAccount" && "error" in s.ending);
        expect(output).toEqual(
          thrown && "error" in thrown.ending ? { outcome: "invalid", failure: { error: thrown.ending.error } } : { outcome: "invalid" },
        );
      }

      expect(played.emitted).toEqual(output.outcome === "active" ? [{ type: "session", session: output.session }] : []);
    });
  }
});
