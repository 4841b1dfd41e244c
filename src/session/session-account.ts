/**
 * The OAuth/OIDC account a session was signed in with, as the session keeps it: in the JWT (claim
 * `account`) only what the library needs later — the tokens to refresh (and a DPoP-bound token's
 * sealed key), the ID token to end the provider's session — and in a database session record a reference to the stored account.
 */
import { decodeBase64url } from "../jwt/base64url.js";
import type { Runtime } from "../config/runtime.js";
import type { Account, SessionAccount } from "../types.js";

/** The token fields a refresh renews (an ID token too, when the provider sends one). */
export const REFRESHED_FIELDS = ["access_token", "refresh_token", "expires_at", "token_type", "scope", "dpop_jwk"] as const;

/** The OpenID Provider's session id: the `sid` claim of the sign-in's (already validated) ID token. */
export function providerSessionId(account: Pick<Account, "id_token">): string | undefined {
  if (typeof account.id_token !== "string") return undefined;
  // A signed JWT's claims, read without a JOSE library on the session path (issue 19).
  const parts = account.id_token.split(".");
  const payload = parts.length === 3 ? decodeBase64url(parts[1]!) : null;
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
    const sid = typeof claims === "object" && claims !== null ? (claims as { sid?: unknown }).sid : undefined;
    return typeof sid === "string" && sid.length > 0 ? sid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an access token can be refreshed at all: it has an expiry and a refresh token to renew it with. */
export function refreshable(tokens: Pick<Account, "refresh_token" | "expires_at">): boolean {
  return typeof tokens.refresh_token === "string" && typeof tokens.expires_at === "number";
}

/**
 * What a JWT session keeps of the account it was signed in with, or undefined when the library
 * will do nothing with it: refresh (the provider's tokens expire and can be renewed) and/or
 * RP-initiated logout (the ID token is the `id_token_hint`).
 */
export function sessionAccountOf(rt: Runtime, account: Account): SessionAccount | undefined {
  if (account.type !== "oauth" && account.type !== "oidc") return undefined;
  const refreshes = account.provider in rt.federation.refresh && refreshable(account);
  const logsOut = rt.federation.rpInitiatedLogout.has(account.provider) && typeof account.id_token === "string";
  // A DPoP-bound token is only usable with its key: both are kept, for resource calls (fetchWithDPoP).
  const bound = typeof account.dpop_jwk === "string";
  if (!refreshes && !logsOut && !bound) return undefined;
  const kept: SessionAccount = { provider: account.provider, providerAccountId: account.providerAccountId, type: account.type };
  const fields = kept as unknown as Record<string, unknown>;
  if (refreshes || bound) for (const field of REFRESHED_FIELDS) if (account[field] !== undefined) fields[field] = account[field];
  if (logsOut) {
    kept.id_token = account.id_token!;
    const sid = providerSessionId(account);
    if (sid) kept.sid = sid;
  }
  return kept;
}
