/**
 * An OpenID Provider's logout token (OpenID Connect Back-Channel Logout 1.0 §2.4, §2.6): its signature
 * against the provider's JWKS (or, for HS*, the client secret), then its claims. The keys are the
 * provider's key set that ID tokens are checked with too (`jwks.ts`: fetched again, rate-limited, when
 * a token names a key the set lacks). A token that fails a check is refused with the reason, never
 * thrown; only keys that cannot be fetched throw.
 */
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type * as oauth from "oauth4webapi";
import {
  BACKCHANNEL_LOGOUT_EVENT,
  LOGOUT_TOKEN_CLOCK_SKEW,
  type LogoutTokenVerdict,
} from "../../machines/backchannel-logout.machine.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { isUnknownKey, signingAlgorithms, withProviderKeys, type ProviderKeys } from "./jwks.js";
import { expectedIssuer } from "./servers.js";

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
 * `exp` present and not passed, then `jti`, `events`, `sub`/`sid` and no `nonce`. When `key` holds no
 * key for the token, jose's `JWKSNoMatchingKey` is thrown, so the keys can be fetched again.
 */
export async function checkLogoutToken(
  token: string,
  key: JWTVerifyGetKey | Uint8Array,
  check: LogoutTokenCheck,
): Promise<LogoutTokenVerdict> {
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
    if (isUnknownKey(error)) throw error;
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
  context: { provider: OAuthProviderConfig; as: oauth.AuthorizationServer; keys: ProviderKeys },
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
  const algorithms = signingAlgorithms(provider, as);
  if (typeof alg !== "string" || !algorithms.includes(alg)) {
    return { refused: `The logout token's alg ${JSON.stringify(alg)} is not accepted (${algorithms.join(", ") || "none is"}).` };
  }
  // A multi-tenant provider pins each token's issuer to its tenant, as for ID tokens.
  const issuer = expectedIssuer(provider, as, claims);
  if (!issuer) return { refused: `${provider.id} refused the logout token's tenant.` };
  if (!provider.clientId) throw new Error(`providers (${provider.id}): no clientId to check a logout token's aud against.`);
  const check: LogoutTokenCheck = { issuer, clientId: provider.clientId, algorithms, ...options };

  if (alg.startsWith("HS")) return checkLogoutToken(token, new TextEncoder().encode(provider.clientSecret), check);
  try {
    return await withProviderKeys(keys, { provider, as }, (resolve) => checkLogoutToken(token, resolve, check));
  } catch (error) {
    if (isUnknownKey(error)) return { refused: "No key of the provider matches the logout token." };
    throw error;
  }
}
