import { describe, expect, it } from "vitest";
import {
  tokenRefreshMachine as machine,
  type GrantResult,
  type RefreshTokens,
  type TokenRefreshInput,
  type TokenRefreshOutput,
} from "../../machines/index.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  type EffectStep,
  itCoversTheMachine,
} from "./effect-paths.js";

const now = Date.UTC(2030, 0, 15, 12, 0, 0, 250);
const nowSeconds = Math.floor(now / 1000);
const margin = 60;
const leaseMs = 15_000;

const sessionTokens: RefreshTokens = {
  access_token: "at-1",
  refresh_token: "rt-1",
  expires_at: nowSeconds + 30,
  token_type: "bearer",
  scope: "openid profile",
  id_token: "id-1",
};
const rotated: RefreshTokens = { access_token: "at-grant", refresh_token: "rt-grant", expires_at: nowSeconds + 3600, id_token: "id-grant" };
const notRotated: RefreshTokens = { access_token: "at-grant", expires_at: nowSeconds + 3600 };
/** A peer's refresh as the store gives it back: what the account row holds (no ID token or scope here). */
const peerRefreshed: RefreshTokens = { access_token: "at-peer", refresh_token: "rt-peer", expires_at: nowSeconds + 3600, token_type: "bearer" };
/** A rotation the session missed: the store's access token is as due as the session's, its refresh token newer. */
const newerRefreshToken: RefreshTokens = { ...sessionTokens, refresh_token: "rt-stored" };
/** What a peer leaves when the provider refused its refresh token. */
const { refresh_token: _spent, ...refusedRecord } = sessionTokens;
const invalidGrant = Object.assign(new Error("invalid_grant"), { error: "invalid_grant" });
const leaseStoreDown = new Error("acquireLease: the database is unreachable");
const rereadFailed = new Error("readStoredTokens: the database is unreachable");
const providerDown = new TypeError("refreshGrant: fetch failed");
const storeFailed = new Error("storeTokens: the account is no longer linked");
const refusalNotStored = new Error("storeRefusal: the database is unreachable");
const peerWaitFailed = new Error("awaitPeer: the database is unreachable");
const releaseFailed = new Error("releaseLease: the database is unreachable");

const outcomes = {
  acquireLease: [returns("takes the lease", () => true), returns("finds it held", () => false), throws("throws", leaseStoreDown)],
  readStoredTokens: [
    returns("finds a peer's fresh tokens", () => peerRefreshed),
    returns("finds a newer refresh token", () => newerRefreshToken),
    returns("finds the session's tokens", () => sessionTokens),
    returns("finds a recorded refusal", () => refusedRecord),
    returns("finds no account", () => null),
    throws("throws", rereadFailed),
  ],
  refreshGrant: [
    returns("grants rotated tokens", (): GrantResult => ({ granted: true, tokens: rotated })),
    returns("grants without rotating", (): GrantResult => ({ granted: true, tokens: notRotated })),
    returns("is refused (invalid_grant)", (): GrantResult => ({ granted: false, error: invalidGrant })),
    throws("throws", providerDown),
  ],
  storeTokens: [returns("stores them", () => undefined), throws("throws", storeFailed)],
  storeRefusal: [returns("stores it", () => undefined), throws("throws", refusalNotStored)],
  awaitPeer: [
    returns("sees the peer's fresh tokens", () => peerRefreshed),
    returns("sees the peer's refusal", () => refusedRecord),
    returns("times out on the old tokens", () => sessionTokens),
    returns("finds no account", () => null),
    throws("throws", peerWaitFailed),
  ],
  releaseLease: [returns("releases it", () => undefined), throws("throws", releaseFailed)],
};

const base: TokenRefreshInput = {
  provider: "oidc",
  providerAccountId: "ada",
  userId: "user-1",
  tokens: sessionTokens,
  now,
  margin,
  shared: true,
  stores: true,
  holder: "holder-1",
  leaseMs,
};
const { refresh_token: _none, ...withoutRefreshToken } = sessionTokens;
/** The configurations a runtime builds: leases need a store, so shared implies stored. */
const configurations = {
  "shared store": { shared: true, stores: true },
  "own store": { shared: false, stores: true },
  "no store": { shared: false, stores: false },
};
const tokenSets: Record<string, RefreshTokens> = {
  "due in 30 s": sessionTokens,
  "expired an hour ago": { ...sessionTokens, expires_at: nowSeconds - 3600 },
  "due at the margin's second": { ...sessionTokens, expires_at: nowSeconds + margin },
  "due only from the next second": { ...sessionTokens, expires_at: nowSeconds + margin + 1 },
  "with no expiry": { access_token: "at-1", refresh_token: "rt-1" },
  "due, no refresh token": withoutRefreshToken,
};
const inputs: Record<string, TokenRefreshInput> = Object.fromEntries(
  Object.entries(tokenSets).flatMap(([tokensName, tokens]) =>
    Object.entries(configurations).map(([configured, config]) => [`${tokensName}, ${configured}`, { ...base, ...config, tokens }]),
  ),
);

const paths = effectPaths(machine, inputs, outcomes);

type Path = EffectPath<typeof machine>;

/** Due, written from the rule: the whole second of now has reached expires_at - margin. */
function due(tokens: RefreshTokens, at: number, within: number): boolean {
  return typeof tokens.expires_at === "number" && Math.floor(at / 1000) + within >= tokens.expires_at;
}
const hasRefreshToken = (tokens: RefreshTokens) => typeof tokens.refresh_token === "string" && tokens.refresh_token !== "";

interface Prediction {
  effects: string[];
  output: TokenRefreshOutput;
  /** The refresh token the grant spends, when one runs. */
  spends?: string;
}

/** What the refresh must do and end with, from the input and the effects' endings alone. */
function predict(path: Path): Prediction {
  const { input } = path;
  const endingOf = (effect: string): EffectStep["ending"] => path.steps.find((s) => s.effect === effect)!.ending;
  const effects: string[] = [];
  if (!due(input.tokens, input.now, input.margin)) return { effects, output: { outcome: "fresh" } };
  if (!hasRefreshToken(input.tokens)) return { effects, output: { outcome: "refused" } };

  // A peer's tokens are adopted when they are new (another access token) and not due themselves.
  const peerFresh = (stored: RefreshTokens | null): boolean =>
    stored !== null && stored.access_token !== input.tokens.access_token && !due(stored, input.now, input.margin);
  const adopt = (stored: RefreshTokens): TokenRefreshOutput => ({ outcome: "refreshed", tokens: { ...input.tokens, ...stored }, source: "peer" });

  let leased = false;
  let start = input.tokens;
  let output: TokenRefreshOutput | undefined;
  let spends: string | undefined;
  if (input.shared) {
    effects.push("acquireLease");
    const lease = endingOf("acquireLease");
    if ("error" in lease) return { effects, output: { outcome: "unavailable", failure: { error: lease.error } } };
    if (lease.output !== true) {
      // Someone else holds the lease: wait for what they store, never grant.
      effects.push("awaitPeer");
      const waited = endingOf("awaitPeer");
      if ("error" in waited) return { effects, output: { outcome: "unavailable", failure: { error: waited.error } } };
      const stored = waited.output as RefreshTokens | null;
      if (peerFresh(stored)) return { effects, output: adopt(stored!) };
      if (stored !== null && !hasRefreshToken(stored)) return { effects, output: { outcome: "refused" } };
      return { effects, output: { outcome: "unavailable" } };
    }
    leased = true;
    effects.push("readStoredTokens");
    const reread = endingOf("readStoredTokens");
    if ("error" in reread) output = { outcome: "unavailable", failure: { error: reread.error } };
    else {
      const stored = reread.output as RefreshTokens | null;
      if (peerFresh(stored)) output = adopt(stored!);
      else if (stored && typeof stored.refresh_token === "string" && stored.refresh_token !== input.tokens.refresh_token) {
        start = { ...input.tokens, ...stored };
      }
    }
  }
  if (!output) {
    effects.push("refreshGrant");
    spends = start.refresh_token;
    const grant = endingOf("refreshGrant");
    if ("error" in grant) output = { outcome: "unavailable", failure: { error: grant.error } };
    else {
      const result = grant.output as GrantResult;
      if (result.granted) {
        const tokens = { ...start, ...result.tokens };
        let failure: { error: unknown } | undefined;
        if (input.stores) {
          effects.push("storeTokens");
          const stored = endingOf("storeTokens");
          if ("error" in stored) failure = { error: stored.error };
        }
        output = { outcome: "refreshed", tokens, source: "grant", ...(failure ? { failure } : {}) };
      } else {
        if (input.stores) effects.push("storeRefusal");
        output = { outcome: "refused", failure: { error: result.error, as: "SessionTokenError" } };
      }
    }
  }
  // A lease taken is given back whatever happened; giving it back changes nothing of the outcome.
  if (leased) effects.push("releaseLease");
  return { effects, output, ...(spends !== undefined ? { spends } : {}) };
}

describe("token refresh: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const predicted = predict(path);
      const ran = played.invoked.map((call) => call.effect);
      expect(ran).toEqual(predicted.effects);
      expect(played.output).toEqual(predicted.output);
      expect(played.value).toBe(predicted.output.outcome);

      const { input } = path;
      const key = `refresh:${input.provider}:${input.providerAccountId}`;
      const ref = { provider: "oidc", providerAccountId: "ada", userId: "user-1" };
      const output = played.output;
      for (const call of played.invoked) {
        if (call.effect === "acquireLease") expect(call.input).toEqual({ key, holder: "holder-1", expires: now + leaseMs });
        if (call.effect === "releaseLease") expect(call.input).toEqual({ key, holder: "holder-1" });
        if (call.effect === "readStoredTokens" || call.effect === "storeRefusal") expect(call.input).toEqual(ref);
        if (call.effect === "awaitPeer") expect(call.input).toEqual({ ...ref, previous: input.tokens, until: now + leaseMs });
        if (call.effect === "refreshGrant") expect(call.input).toEqual({ provider: "oidc", refreshToken: predicted.spends });
        // What is stored is exactly what the session is handed.
        if (call.effect === "storeTokens") expect(call.input).toEqual({ ...ref, tokens: output.outcome === "refreshed" ? output.tokens : undefined });
      }

      // A grant runs iff the token is due, has a refresh token, and no peer is (or just was) on it.
      const granted = ran.includes("refreshGrant");
      expect(ran.filter((effect) => effect === "refreshGrant").length).toBeLessThanOrEqual(1);
      const lease = path.steps.find((s) => s.effect === "acquireLease")?.ending;
      const leaseTaken = lease !== undefined && "output" in lease && lease.output === true;
      // releaseLease runs iff acquireLease returned true.
      expect(ran.includes("releaseLease")).toBe(leaseTaken);
      if (input.shared && !leaseTaken) expect(granted).toBe(false);
      if (!input.shared) expect(granted).toBe(due(input.tokens, now, margin) && hasRefreshToken(input.tokens));
      // Nothing is asked of anyone for a token that is not due, or that has nothing to refresh it with.
      if (!due(input.tokens, now, margin) || !hasRefreshToken(input.tokens)) expect(ran).toEqual([]);
      // Without a store nothing is written; a refusal is written only after the provider said invalid_grant.
      if (!input.stores) expect(ran.some((effect) => effect.startsWith("store"))).toBe(false);
      if (ran.includes("storeRefusal")) expect(output).toMatchObject({ outcome: "refused", failure: { error: invalidGrant } });

      // Refreshed ⇒ the access token comes from our grant or from a peer, never the old one.
      if (output.outcome === "refreshed") {
        const grant = path.steps.find((s) => s.effect === "refreshGrant")?.ending;
        const fromGrant = grant && "output" in grant && (grant.output as GrantResult).granted;
        expect(output.source).toBe(fromGrant ? "grant" : "peer");
        expect(output.tokens.access_token).toBe(fromGrant ? "at-grant" : "at-peer");
        expect(output.tokens.access_token).not.toBe(input.tokens.access_token);
        // A provider that does not rotate leaves the refresh token that was spent.
        const grantedTokens = fromGrant ? (grant.output as { tokens: RefreshTokens }).tokens : undefined;
        expect(output.tokens.refresh_token).toBe(grantedTokens ? (grantedTokens.refresh_token ?? predicted.spends) : "rt-peer");
        expect(due(output.tokens, now, margin)).toBe(false);
      }
      // Unavailable ⇒ nothing was persisted, and the next read tries again.
      if (output.outcome === "unavailable") expect(ran.filter((effect) => effect.startsWith("store"))).toEqual([]);
      // Only the provider's refusal and effects' errors are failures; a release that failed is none.
      if ("failure" in output && output.failure) expect(output.failure.error).not.toBe(releaseFailed);
      if (output.outcome === "refused" && !ran.includes("refreshGrant")) expect(output).toEqual({ outcome: "refused" });
    });
  }
});
