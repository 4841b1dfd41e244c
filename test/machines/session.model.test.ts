import { describe, expect, it } from "vitest";
import { sessionMachine as machine, type SessionInput, type TokenRefreshOutput } from "../../machines/index.js";
import type { ConfiguredCallbacks } from "../../machines/shared.js";
import type { SetCookie } from "../../src/cookies.js";
import type { JWT, Session, SessionAccount } from "../../src/types.js";
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
/** The providers whose access tokens are refreshed, with their margins (seconds). */
const refresh = { oidc: 60 };
/** Signed in through the OP a while ago: the access token expires in 30 seconds, inside the margin. */
const dueAccount: SessionAccount = {
  provider: "oidc",
  providerAccountId: "ada",
  type: "oidc",
  access_token: "at-1",
  refresh_token: "rt-1",
  expires_at: nowSeconds + 30,
  token_type: "bearer",
  id_token: "id-1",
  sid: "op-session-1",
};
const { refresh_token: _spent, ...spentAccount } = dueAccount;
/** An earlier read's refresh was refused: the account keeps no refresh token and says so. */
const refusedAccount: SessionAccount = { ...spentAccount, expires_at: nowSeconds - 3600, error: "RefreshTokenError" };
/** Signed in through a provider whose tokens are not refreshed: however expired, nothing is asked. */
const unrefreshedAccount: SessionAccount = { ...dueAccount, provider: "github", type: "oauth", expires_at: nowSeconds - 3600 };
const renewed = { access_token: "at-2", refresh_token: "rt-2", expires_at: nowSeconds + 3600, id_token: "id-2" };
const invalidGrant = new Error("invalid_grant");
const providerDown = new TypeError("refreshGrant: fetch failed");
const refresherCrashed = new Error("refreshAccount: the refresher crashed");
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
    returns("opens a token whose account's access token is due", () => ({ payload: { ...fresh, account: dueAccount }, secretIndex: 0 })),
    returns("opens a token whose account was refused", () => ({ payload: { ...fresh, account: refusedAccount }, secretIndex: 0 })),
    returns("opens a token whose provider is not refreshed", () => ({ payload: { ...fresh, account: unrefreshedAccount }, secretIndex: 0 })),
    returns("cannot open it", () => null),
    throws("throws", decoderCrashed),
  ],
  jwtCallback: [
    returns("keeps the token unchanged", ({ token }: { token: JWT }) => ({ token, changed: false })),
    returns("changes the token", ({ token }: { token: JWT }) => ({ token: { ...token, role: "admin" }, changed: true })),
    returns("returns null", () => ({ token: null, changed: false })),
    throws("throws", jwtCallbackCrashed),
  ],
  refreshAccount: [
    returns("refreshes it", (): TokenRefreshOutput => ({ outcome: "refreshed", tokens: renewed, source: "grant" })),
    returns("is refused", (): TokenRefreshOutput => ({ outcome: "refused", failure: { error: invalidGrant, as: "SessionTokenError" } })),
    returns("is unavailable", (): TokenRefreshOutput => ({ outcome: "unavailable", failure: { error: providerDown } })),
    returns("finds it fresh", (): TokenRefreshOutput => ({ outcome: "fresh" })),
    throws("throws", refresherCrashed),
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

const read = { now, updateAge, refresh, request: facts() };
const requests = {
  "no cookie": read,
  "an empty cookie": { ...read, token: "" },
  "a cookie": { ...read, token: "sealed" },
  "a cookie and an update": { ...read, token: "sealed", update: { data: { name: "Grace" } }, request: facts() },
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

/**
 * Written from the rule: the signed-in account is refreshed when its provider's tokens are refreshed,
 * nobody refused its refresh token yet, and the whole second of now has reached expires_at - margin.
 */
function refreshExpected(path: EffectPath<typeof machine>): boolean {
  const decoded = outputOf(path.steps, "decodeSessionToken") as { payload: JWT } | null | undefined;
  const account = decoded?.payload.account;
  const margin = account ? path.input.refresh?.[account.provider] : undefined;
  if (!account || margin === undefined || account.error !== undefined || typeof account.expires_at !== "number") return false;
  return Math.floor(path.input.now / 1000) + margin >= account.expires_at;
}

type Refreshed = { token: JWT; changed: boolean; unavailable: boolean };

/**
 * The decoded token as the refresh leaves it: new tokens (a new ID token only where one was kept), or
 * the refresh token dropped and the refusal noted; a refresh that could not be done changes nothing.
 */
function afterRefresh(path: EffectPath<typeof machine>): Refreshed | undefined {
  const decoded = outputOf(path.steps, "decodeSessionToken") as { payload: JWT } | null | undefined;
  if (!decoded) return undefined;
  const token = decoded.payload;
  const step = path.steps.find((s) => s.effect === "refreshAccount");
  if (!step) return { token, changed: false, unavailable: false };
  if ("error" in step.ending) return { token, changed: false, unavailable: true };
  const refreshed = step.ending.output as TokenRefreshOutput;
  const account = token.account!;
  if (refreshed.outcome === "refreshed") {
    const { id_token, ...tokens } = refreshed.tokens;
    const renewed = { ...account, ...tokens, ...(account.id_token ? { id_token } : {}) } as SessionAccount;
    return { token: { ...token, account: renewed }, changed: true, unavailable: false };
  }
  if (refreshed.outcome === "refused") {
    const { refresh_token: _dropped, ...rest } = account;
    return { token: { ...token, account: { ...rest, error: "RefreshTokenError" } }, changed: true, unavailable: false };
  }
  return { token, changed: false, unavailable: refreshed.outcome === "unavailable" };
}

/** The token the session is read from: the jwt callback's, or without one the refreshed token as is. */
function keptToken(path: EffectPath<typeof machine>): { token: JWT | null; changed: boolean } | undefined {
  const refreshed = afterRefresh(path);
  if (!refreshed) return undefined;
  if (!path.input.callbacks.jwt) return { token: refreshed.token, changed: refreshed.changed };
  const kept = outputOf(path.steps, "jwtCallback") as { token: JWT | null; changed: boolean } | undefined;
  // A token the refresh changed is changed, whatever the callback did.
  return kept && { token: kept.token, changed: kept.changed || refreshed.changed };
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
  itCoversTheMachine(machine, outcomes, paths);

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
        // A refresh that throws does not end the session: it only shows as RefreshTokenUnavailable.
        const thrown = path.steps.find((s) => s.effect !== "refreshAccount" && "error" in s.ending);
        expect(output.failure?.error).toBe(thrown && "error" in thrown.ending ? thrown.ending.error : undefined);
        expect(output.failure?.as).toBe(thrown?.effect === "decodeSessionToken" ? "SessionTokenError" : undefined);
      }

      // A callback the application did not configure is never invoked.
      const { callbacks } = path.input;
      if (!callbacks.jwt) expect(played.invoked.map((call) => call.effect)).not.toContain("jwtCallback");
      if (!callbacks.session) expect(played.invoked.map((call) => call.effect)).not.toContain("sessionCallback");

      // The account is refreshed when due, once, before the jwt callback sees the token.
      const refreshing = played.invoked.filter((call) => call.effect === "refreshAccount");
      expect(refreshing.length).toBe(refreshExpected(path) ? 1 : 0);
      const decoded = outputOf(path.steps, "decodeSessionToken") as { payload: JWT } | undefined;
      if (refreshing.length) expect(refreshing[0]!.input).toEqual({ account: decoded!.payload.account, userId: decoded!.payload.sub, now });
      const refreshed = afterRefresh(path);
      const judged = played.invoked.find((call) => call.effect === "jwtCallback");
      if (judged) expect((judged.input as { token: JWT }).token).toEqual(refreshed!.token);
      const refreshOutcome = (outputOf(path.steps, "refreshAccount") as TokenRefreshOutput | undefined)?.outcome;
      // Refreshed or refused: the cookie is re-issued with the account as it is now.
      if (refreshOutcome === "refreshed" || refreshOutcome === "refused") {
        expect(reissuedHere || output.outcome === "invalid").toBe(true);
      }
      const encoded = played.invoked.find((call) => call.effect === "encodeSessionToken");
      if (encoded && refreshOutcome === "refreshed") expect((encoded.input as { token: JWT }).token.account?.access_token).toBe("at-2");
      if (encoded && refreshOutcome === "refused") {
        expect((encoded.input as { token: JWT }).token.account).toMatchObject({ error: "RefreshTokenError" });
        expect((encoded.input as { token: JWT }).token.account).not.toHaveProperty("refresh_token");
      }

      const kept = keptToken(path);
      // The cookie holds the token as it was kept: a refresh that could not be done leaves its account as it was.
      if (encoded) expect((encoded.input as { token: JWT }).token).toEqual(kept!.token);
      if (refreshed?.unavailable && encoded) expect((encoded.input as { token: JWT }).token.account).toEqual(decoded!.payload.account);
      // What the client is told about the account: refused (kept in the token), or not renewable right now.
      const shownError = kept?.token?.account?.error ?? (refreshed?.unavailable ? "RefreshTokenUnavailable" : undefined);
      const shaped = played.invoked.find((call) => call.effect === "sessionCallback");
      if (shaped) {
        const { token, expires } = shaped.input as { token: JWT; expires: string };
        expect(token).toEqual(kept!.token);
        expect(shaped.input).toEqual({
          token,
          expires,
          ...(path.input.update ? { trigger: "update", newSession: path.input.update.data } : {}),
          ...(refreshed?.unavailable ? { error: "RefreshTokenUnavailable" } : {}),
        });
      }
      if (output.outcome === "active") {
        const token = kept!.token!;
        const expires = reissuedHere ? reissuedExpires : new Date(token.exp! * 1000).toISOString();
        // Without a session callback the client sees the default: name, email and picture of the token, and the account's error.
        const expected: Session = callbacks.session
          ? (outputOf(path.steps, "sessionCallback") as Session)
          : {
              user: { name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null },
              expires,
              ...(shownError ? { error: shownError } : {}),
            };
        expect(output.session).toEqual(expected);
        expect(output.session.expires).toBe(expires);
      }

      const sessions = played.emitted.filter((event) => event.type === "session");
      expect(sessions).toEqual(output.outcome === "active" ? [{ type: "session", session: output.session, token: kept!.token }] : []);
    });
  }
});
