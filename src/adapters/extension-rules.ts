/**
 * The parts of the extension methods that do not depend on the store: what an account update changes,
 * and which sessions a back-channel logout's filter matches. Every shipped adapter applies them, so the
 * three agree on the edge cases (an identity field in an update, a filter naming nothing).
 */
import type { AdapterAccount, AdapterSession } from "../types.js";
import type { AccountUpdate, SessionFilter } from "./extensions.js";

/** The fields that name an account and whom it belongs to: an update never changes them. */
export const ACCOUNT_IDENTITY = ["provider", "providerAccountId", "userId", "type"] as const;

/** The changes an update makes: identity fields and `undefined` values dropped, `null` kept (it clears). */
export function accountChanges(update: AccountUpdate): Record<string, unknown> {
  const identity: readonly string[] = ACCOUNT_IDENTITY;
  return Object.fromEntries(
    Object.entries(update).filter(([field, value]) => value !== undefined && !identity.includes(field)),
  );
}

/** `current` with `update` applied: a field set to `null` is removed, as a store returns a cleared one. */
export function applyAccountUpdate(current: AdapterAccount, update: AccountUpdate): AdapterAccount {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(accountChanges(update))) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next as AdapterAccount;
}

/** The session fields a filter matches on, only those given; a TypeError when it names no account or session. */
export function sessionMatch(filter: SessionFilter): SessionFilter {
  if (typeof filter?.provider !== "string") {
    throw new TypeError("deleteSessionsByAccount: filter.provider must be a string");
  }
  const { provider, providerAccountId, providerSessionId } = filter;
  // Deleting every session of a provider is never what a logout means: refuse rather than guess.
  if (providerAccountId == null && providerSessionId == null) {
    throw new TypeError("deleteSessionsByAccount: filter needs providerAccountId or providerSessionId");
  }
  return {
    provider,
    ...(providerAccountId == null ? {} : { providerAccountId }),
    ...(providerSessionId == null ? {} : { providerSessionId }),
  };
}

/** Whether a stored session has every field of `match` (from {@link sessionMatch}). */
export function sessionMatches(session: AdapterSession, match: SessionFilter): boolean {
  return Object.entries(match).every(([field, value]) => session[field as keyof SessionFilter] === value);
}

/** The lease's expiry in epoch milliseconds; a TypeError when `expires` is not a valid Date. */
export function leaseExpiry(expires: Date): number {
  const time = expires instanceof Date ? expires.getTime() : Number.NaN;
  if (Number.isNaN(time)) throw new TypeError("acquireLease: expires must be a valid Date");
  return time;
}
