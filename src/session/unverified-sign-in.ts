/**
 * JWT sessions of users whose address nobody had verified. Whoever proves that address later claims the
 * user, same id (see machines/signin-completion.machine.ts), and a JWT names only the id: a squatter's
 * token would open the owner's account. So such a token carries the time of its sign-in, and a read
 * checks it against the store: once the address was verified at or after that time, it opens no more.
 * Tokens of verified users (nearly all) carry nothing and never touch the store.
 */
import type { Runtime } from "../config/runtime.js";
import type { Account, JWT, User } from "../types.js";

/** The library's claim: seconds since the epoch of a sign-in made while the user's address was unverified. */
export const UNVERIFIED_SIGN_IN_CLAIM = "appauthUnverifiedSignIn";

/**
 * The claim a new session's token gets, if any: for a stored user (an adapter is set; not a credentials
 * sign-in, whose user is the application's own) whose address nobody verified. A user without an
 * address has nothing anyone could prove, so needs no check.
 */
export function unverifiedSignInClaim(rt: Runtime, user: User, account: Account | null): Partial<JWT> {
  if (!rt.adapter || account?.type === "credentials" || !user.id) return {};
  if (typeof user.email !== "string" || user.email === "" || (user as { emailVerified?: unknown }).emailVerified != null) return {};
  return { [UNVERIFIED_SIGN_IN_CLAIM]: Math.floor(Date.now() / 1000) };
}

/**
 * Whether a token that opened may still stand for its user: any token without the claim; one with it
 * only while its user exists and their address was not verified since its sign-in. (Verified at or
 * after the claim's second: the claim is rounded down, so a verification in the sign-in's own second
 * counts as after it. Its own holder's next sign-in issues a fresh token without the claim.)
 */
export async function stillStandsForUser(rt: Runtime, payload: JWT): Promise<boolean> {
  const signedInAt = payload[UNVERIFIED_SIGN_IN_CLAIM];
  if (signedInAt === undefined || !rt.adapter?.getUser) return true;
  if (typeof signedInAt !== "number" || typeof payload.sub !== "string") return false;
  const user = await rt.adapter.getUser(payload.sub);
  if (!user) return false;
  if (user.emailVerified == null) return true;
  return new Date(user.emailVerified).getTime() < signedInAt * 1000;
}

/**
 * An Auth.js session token, opened to be adopted as ours: Auth.js never marked one, so its user is
 * looked up this once (the first read re-issues it as ours). A user nobody verified gets the claim,
 * with the token's `iat` as its sign-in time, so it is checked from now on; a user verified at or after
 * that time (someone proved the address since) makes it no session. A user the store does not have
 * (a credentials sign-in's own id) changes nothing: Auth.js never checked those either.
 */
export async function adoptedLegacyPayload(rt: Runtime, payload: JWT): Promise<JWT | null> {
  if (!rt.adapter?.getUser || typeof payload.sub !== "string" || payload[UNVERIFIED_SIGN_IN_CLAIM] !== undefined) return payload;
  const user = await rt.adapter.getUser(payload.sub);
  if (!user) return payload;
  const issuedAt = typeof payload.iat === "number" ? payload.iat : 0;
  if (user.emailVerified == null) return { ...payload, [UNVERIFIED_SIGN_IN_CLAIM]: issuedAt };
  return new Date(user.emailVerified).getTime() < issuedAt * 1000 ? payload : null;
}

/** The claim's value (read before a `jwt` callback ran) put back on its token: a callback that rebuilt it cannot drop it. */
export function keepUnverifiedSignIn(signedInAt: unknown, after: JWT | null): JWT | null {
  if (signedInAt === undefined || !after || typeof after !== "object") return after;
  return { ...after, [UNVERIFIED_SIGN_IN_CLAIM]: signedInAt };
}
