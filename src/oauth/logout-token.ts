/**
 * An OpenID Provider's logout token (OpenID Connect Back-Channel Logout 1.0 §2.4, §2.6): its signature
 * against the provider's JWKS (or, for HS*, the client secret), then its claims. The JWKS is fetched
 * apart from the check, through the provider's `[customFetch]`, cached per provider, and fetched again
 * once when a token names a key the cached set lacks (the OP rotated its keys). A token that fails a
 * check is refused with the reason, never thrown; only keys that cannot be fetched throw.
 */
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type * as oauth from "oauth4webapi";
import {
  BACKCHANNEL_LOGOUT_EVENT,
  LOGOUT_TOKEN_CLOCK_SKEW,
  type LogoutTokenVerdict,
} from "../../machines/backchannel-logout.machine.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { fetchOf } from "./client.js";
import { expectedIssuer } from "./servers.js";

/** A provider's JWKS is fetched again for an unknown `kid` at most this often (seconds): forged kids cost no fetch storm. */
const JWKS_REFETCH_COOLDOWN_S = 30;
/** Keys older than this (seconds) are fetched again, as oauth4webapi does for ID tokens. */
const JWKS_MAX_AGE_S = 300;
const JWKS_TIMEOUT_MS = 10_000;

/**
 * The algorithms a logout token may be signed with (§2.6 step 3: as for ID tokens): the client's
 * registered `id_token_signed_response_alg`, else the OP's `id_token_signing_alg_values_supported`,
 * else RS256. Never `none`; HS* only with a client secret to verify it.
 */
export function logoutTokenAlgorithms(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): string[] {
  const pinned = provider.client?.id_token_signed_response_alg;
  const listed = pinned ? [pinned] : (as.id_token_signing_alg_values_supported ?? ["RS256"]);
  return listed.filter((alg) => alg !== "none" && (!alg.startsWith("HS") || Boolean(provider.clientSecret)));
}

/** GET the provider's `jwks_uri`, through its `[customFetch]`. */
export async function jwksRequest(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<Response> {
  if (!as.jwks_uri) throw new Error(`providers (${provider.id}): the provider names no jwks_uri to verify logout tokens with.`);
  return fetchOf(provider)(as.jwks_uri, {
    headers: { accept: "application/jwk-set+json, application/json" },
    signal: AbortSignal.timeout(JWKS_TIMEOUT_MS),
  });
}

/** The key set in a `jwks_uri` response; throws when the response is not one. */
export async function processJwksResponse(response: Response): Promise<JSONWebKeySet> {
  const body = (await response.json().catch(() => null)) as { keys?: unknown } | null;
  if (!response.ok || !body || !Array.isArray(body.keys)) {
    throw new Error(`The provider's JWKS could not be read (HTTP ${response.status}).`);
  }
  return { keys: body.keys.filter((key): key is JSONWebKeySet["keys"][number] => Boolean(key) && typeof key === "object") };
}

/** The JWKS of each provider of one configuration, in the cache its ID tokens are checked with. */
export interface LogoutTokenKeys {
  /** The cached keys, fetched when there are none or they are stale (or, with `refresh`, when the cooldown has passed). */
  keysOf(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, options?: { refresh?: boolean }): Promise<JWTVerifyGetKey>;
  /** Whether a fetch for an unknown `kid` is allowed now. */
  mayRefresh(providerId: string): boolean;
}

/**
 * Keys kept in `cacheOf(providerId)`, oauth4webapi's JWKS cache (`{ jwks, uat }`) that the sign-in
 * fills too, so one fetch serves ID tokens and logout tokens alike. Kept at most as long as
 * oauth4webapi keeps them; concurrent requests for one provider share one fetch.
 */
export function logoutTokenKeys(cacheOf: (providerId: string) => oauth.JWKSCacheInput): LogoutTokenKeys {
  const resolvers = new WeakMap<object, JWTVerifyGetKey>();
  const pending = new Map<string, Promise<JSONWebKeySet>>();
  const epoch = () => Math.floor(Date.now() / 1000);

  const cached = (providerId: string): { jwks?: JSONWebKeySet; uat?: number } => cacheOf(providerId) as { jwks?: JSONWebKeySet; uat?: number };
  const fresh = (providerId: string): JSONWebKeySet | undefined => {
    const { jwks, uat } = cached(providerId);
    return jwks && Array.isArray(jwks.keys) && typeof uat === "number" && epoch() - uat < JWKS_MAX_AGE_S ? jwks : undefined;
  };
  const resolverOf = (jwks: JSONWebKeySet): JWTVerifyGetKey => {
    let resolve = resolvers.get(jwks);
    if (!resolve) {
      resolve = createLocalJWKSet(jwks);
      resolvers.set(jwks, resolve);
    }
    return resolve;
  };
  const load = (provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<JSONWebKeySet> => {
    let loading = pending.get(provider.id);
    if (!loading) {
      loading = jwksRequest(provider, as)
        .then(processJwksResponse)
        .then((jwks) => {
          Object.assign(cacheOf(provider.id), { jwks, uat: epoch() });
          return jwks;
        })
        .finally(() => pending.delete(provider.id));
      pending.set(provider.id, loading);
    }
    return loading;
  };
  const mayRefresh = (providerId: string): boolean => {
    const { uat } = cached(providerId);
    return typeof uat !== "number" || epoch() - uat >= JWKS_REFETCH_COOLDOWN_S;
  };

  return {
    async keysOf(provider, as, options = {}) {
      const jwks = fresh(provider.id);
      if (jwks && !(options.refresh && mayRefresh(provider.id))) return resolverOf(jwks);
      return resolverOf(await load(provider, as));
    },
    mayRefresh,
  };
}

export interface LogoutTokenCheck {
  /** The issuer the token must name exactly. */
  issuer: string;
  /** The client id the token's `aud` must contain. */
  clientId: string;
  algorithms: string[];
  /** Seconds since the epoch. */
  now: number;
  /** Seconds the token is accepted after its `iat`. */
  maxAge: number;
}

type CheckResult = LogoutTokenVerdict | { refused: string; unknownKey: true };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `typ` absent, or `logout+jwt` (the `application/` prefix may be left out, RFC 7515 §4.1.9). */
function isLogoutTyp(typ: unknown): boolean {
  if (typ === undefined) return true;
  return typeof typ === "string" && typ.toLowerCase().replace(/^application\//, "") === "logout+jwt";
}

/** The claims a logout token must carry and must not carry (§2.4, §2.6 steps 5–7), once jose has checked the rest. */
function checkClaims(payload: JWTPayload): LogoutTokenVerdict {
  if (typeof payload.jti !== "string" || payload.jti.length === 0) return { refused: "The logout token has no jti." };
  const events = payload.events;
  if (!isObject(events) || !isObject(events[BACKCHANNEL_LOGOUT_EVENT])) {
    return { refused: `The logout token's events claim has no ${BACKCHANNEL_LOGOUT_EVENT} object.` };
  }
  if ("nonce" in payload) return { refused: "A logout token must not contain a nonce." };
  const { sub, sid } = payload as { sub?: unknown; sid?: unknown };
  if (sub !== undefined && (typeof sub !== "string" || sub.length === 0)) return { refused: "The logout token's sub is not a string." };
  if (sid !== undefined && (typeof sid !== "string" || sid.length === 0)) return { refused: "The logout token's sid is not a string." };
  if (sub === undefined && sid === undefined) return { refused: "The logout token names neither sub nor sid." };
  return {
    claims: {
      iss: payload.iss!,
      jti: payload.jti,
      iat: payload.iat!,
      ...(sub !== undefined ? { sub } : {}),
      ...(sid !== undefined ? { sid } : {}),
    },
  };
}

/**
 * Checks a logout token's signature with `key` and its claims against `check` (§2.6): `typ`, `iss`
 * exactly, `aud` containing the client id, `iat` present, no older than `maxAge` and not in the future,
 * `exp` present and not passed, then `jti`, `events`, `sub`/`sid` and no `nonce`.
 */
export async function checkLogoutToken(
  token: string,
  key: JWTVerifyGetKey | Uint8Array,
  check: LogoutTokenCheck,
): Promise<CheckResult> {
  let verified: { payload: JWTPayload; protectedHeader: { typ?: unknown } };
  try {
    const options = {
      issuer: check.issuer,
      audience: check.clientId,
      algorithms: check.algorithms,
      currentDate: new Date(check.now * 1000),
      clockTolerance: LOGOUT_TOKEN_CLOCK_SKEW,
      maxTokenAge: check.maxAge,
      // Back-Channel Logout 1.0 §2.4: iat and exp are REQUIRED.
      requiredClaims: ["iat", "exp"],
    };
    verified = typeof key === "function" ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) return { refused: "No key of the provider matches the logout token.", unknownKey: true };
    if (error instanceof errors.JOSEError || error instanceof TypeError) {
      return { refused: `The logout token is invalid: ${error.message}` };
    }
    throw error;
  }
  if (!isLogoutTyp(verified.protectedHeader.typ)) return { refused: `The logout token's typ is not logout+jwt.` };
  return checkClaims(verified.payload);
}

/**
 * Verifies `token` as a logout token of `provider` at the server `as` (§2.6). Resolves to its claims,
 * or to why it is refused; rejects only when the provider's keys cannot be fetched.
 */
export async function verifyLogoutToken(
  token: string,
  context: { provider: OAuthProviderConfig; as: oauth.AuthorizationServer; keys: LogoutTokenKeys },
  options: { now: number; maxAge: number },
): Promise<LogoutTokenVerdict> {
  const { provider, as, keys } = context;
  let alg: unknown;
  let claims: Record<string, unknown>;
  try {
    alg = decodeProtectedHeader(token).alg;
    claims = decodeJwt(token);
  } catch {
    return { refused: "The logout token is not a signed JWT." };
  }
  const algorithms = logoutTokenAlgorithms(provider, as);
  if (typeof alg !== "string" || !algorithms.includes(alg)) {
    return { refused: `The logout token's alg ${JSON.stringify(alg)} is not accepted (${algorithms.join(", ") || "none is"}).` };
  }
  // A multi-tenant provider pins each token's issuer to its tenant, as for ID tokens.
  const issuer = expectedIssuer(provider, as, claims);
  if (!issuer) return { refused: `${provider.id} refused the logout token's tenant.` };
  if (!provider.clientId) throw new Error(`providers (${provider.id}): no clientId to check a logout token's aud against.`);
  const check: LogoutTokenCheck = { issuer, clientId: provider.clientId, algorithms, ...options };

  if (alg.startsWith("HS")) return strip(await checkLogoutToken(token, new TextEncoder().encode(provider.clientSecret), check));
  const result = await checkLogoutToken(token, await keys.keysOf(provider, as), check);
  if ("unknownKey" in result && keys.mayRefresh(provider.id)) {
    return strip(await checkLogoutToken(token, await keys.keysOf(provider, as, { refresh: true }), check));
  }
  return strip(result);
}

function strip(result: CheckResult): LogoutTokenVerdict {
  return "claims" in result ? result : { refused: result.refused };
}
