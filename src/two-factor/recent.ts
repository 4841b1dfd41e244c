/**
 * Whether a session proved a second factor recently enough for a sensitive action (enrollment, removal,
 * a step-up). What a session proved is recorded as RFC 8176 `amr` values with the time of the last
 * proof: `amr` and `auth_time` (seconds since the epoch) in a JWT, `amr` and `authTime` on a database
 * session. A second factor shows as `"otp"` (an authenticator code or a recovery code) or `"mfa"`
 * (several factors, e.g. a passkey with user verification, or a passed passkey challenge).
 */

/** The `amr` values that mean a second factor was proved (RFC 8176 §2). */
export const SECOND_FACTOR_AMR: readonly string[] = ["otp", "mfa"];

/** What a session says it proved: a JWT's claims, or a database session record. */
export interface ProvedFactors {
  /** RFC 8176 authentication method references, e.g. `["pwd", "otp"]`. */
  amr?: unknown;
  /** Database sessions: when the last factor was proved. */
  authTime?: Date | number | string | null;
  /** JWT: when the last factor was proved, in seconds since the epoch. */
  auth_time?: unknown;
}

/** When the session last proved a factor, in epoch milliseconds, or null when it does not say. */
export function authenticatedAt(session: ProvedFactors): number | null {
  if (typeof session.auth_time === "number" && Number.isFinite(session.auth_time)) return session.auth_time * 1000;
  const at = session.authTime;
  if (at === undefined || at === null) return null;
  const time = at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at);
  return Number.isFinite(time) ? time : null;
}

/**
 * Whether `session` proved a second factor at most `maxAge` seconds ago (at `now`, default the clock).
 * A session that does not say, says something unreadable, or dates its proof in the future does not count.
 */
export function recentSecondFactor(session: ProvedFactors | null | undefined, maxAge: number, options: { now?: number } = {}): boolean {
  if (!session || !Array.isArray(session.amr)) return false;
  if (!session.amr.some((value) => typeof value === "string" && SECOND_FACTOR_AMR.includes(value))) return false;
  const at = authenticatedAt(session);
  if (at === null) return false;
  const age = (options.now ?? Date.now()) - at;
  // A little clock skew between instances is tolerated; a proof from the future is not.
  return age >= -5_000 && age <= maxAge * 1000;
}
