/**
 * What every appauth adapter offers beyond the spec's 19-method contract. The extensions are optional:
 * the core uses one when an adapter has it and falls back to the plain contract otherwise.
 */
import type { StoredTotpFactor } from "../two-factor/types.js";
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, ClaimedUser } from "../types.js";

export type { ClaimedUser } from "../types.js";

/** An account about to be linked to a user that does not exist yet: its `userId` is filled in. */
// (Omit<> would drop the named keys: AdapterAccount has an index signature.)
export type NewUserAccount = Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId" | "type">;

/**
 * An {@link Adapter} with appauth's optional extensions.
 *
 * `createUserAndLinkAccount(user, account)` creates the user and links the account in one atomic step
 * (DESIGN §5: writes that belong together happen together or not at all). The account's `userId` is set
 * to the created user's id. When the link fails (say, the provider account is already linked to someone
 * else) the user is not created and the call rejects. When an adapter lacks it, the core calls
 * `createUser` then `linkAccount`, and deletes the new user if the link fails.
 *
 * The second-factor methods are described on {@link TwoFactorAdapter}.
 */
export interface ExtendedAdapter extends Adapter, Partial<TwoFactorAdapter>, Partial<TwoFactorVersionAdapter> {
  /** Creates a user and links its first account in one atomic step (see above); resolves to the user. */
  createUserAndLinkAccount?(user: AdapterUser, account: NewUserAccount): Promise<AdapterUser>;
  /**
   * Changes the stored fields of one linked account (the tokens of a refresh, or of a new sign-in) and
   * resolves to the account as stored afterwards, or `null` when no such account is linked. A field
   * that is absent or `undefined` is left as it is; `null` clears it. `provider`, `providerAccountId`,
   * `userId` and `type` never change.
   */
  updateAccount?(account: AccountUpdate): Promise<AdapterAccount | null>;
  /**
   * Takes the lease `key` for `holder` until `expires`, atomically across every process sharing the
   * store: resolves `true` when it was free (never taken, released, or expired) and is now `holder`'s,
   * `false` when someone else holds it. Used for one refresh grant at a time per account, and to
   * remember a back-channel logout token's `jti` until it expires (a replay finds the lease taken).
   */
  acquireLease?(key: string, holder: string, expires: Date): Promise<boolean>;
  /** Gives the lease `key` back, only if `holder` still holds it (an expired lease may be someone else's). */
  releaseLease?(key: string, holder: string): Promise<void>;
  /**
   * Deletes the sessions signed in through `provider` that match every filter given: the provider's
   * account (`providerAccountId`) and/or the provider's session (`providerSessionId`). At least one of
   * the two is given. Resolves to how many were deleted.
   */
  deleteSessionsByAccount?(filter: SessionFilter): Promise<number>;
  /**
   * Every session of `userId`, with what was recorded about each (`createdAt`, `lastSeenAt`,
   * `signInMethod`, `device`, `clientAddress`); expired ones may be included (the core drops them).
   * The list of a person's sessions ("Your devices") reads it.
   */
  listSessions?(userId: string): Promise<AdapterSession[]>;
  /**
   * Deletes every session of `userId` but the one whose token is `options.except` ("sign out
   * everywhere else"); sessions of other users are never touched. Resolves to how many were deleted.
   */
  deleteSessions?(userId: string, options?: { except?: string }): Promise<number>;
  /**
   * Counts one hit on the rate-limit counter `key`, atomically across every process sharing the store:
   * a key with no open window gets one of `windowMs` (count 1); an open one counts on. Resolves to
   * the count and when the window closes. The rate limiter keeps its counts here when the adapter has it.
   */
  hitRateLimit?(key: string, windowMs: number): Promise<{ count: number; resetAt: Date }>;
  /** Forgets the rate-limit counter `key`. */
  resetRateLimit?(key: string): Promise<void>;
  /**
   * Hands the user `userId`, whose address nobody has verified, to the person who just proved that
   * address: in one transaction, unlinks every account linked to them, deletes their authenticators
   * and their sessions, and sets `emailVerified` to `verifiedAt`. The user and their id stay (the
   * application keys its own rows by it). Resolves to the user as stored afterwards with what was
   * detached, or `null`, changing nothing, when no such user exists or their address is verified
   * already (someone claimed it first). Without it the core refuses such a proof rather than delete.
   */
  claimUnverifiedUser?(userId: string, verifiedAt: Date): Promise<ClaimedUser | null>;
  /**
   * Stores a revocation of JWT sessions (see session/revocation.ts) and tells every process watching
   * (`watchSessionRevocations`). Without `sessionId`: every session of `userId` signed in before
   * `revokedAt` is revoked, except `exceptSessionId`; this replaces the user's previous such record
   * (a later one covers everything an earlier one did). With `sessionId`: that one session is. The
   * record may be forgotten after `expires` (no token it concerns is open by then).
   */
  saveSessionRevocation?(revocation: SessionRevocation): Promise<void>;
  /** The revocations of `userId` that have not expired: what a JWT read of their sessions checks. */
  getSessionRevocations?(userId: string): Promise<StoredRevocations>;
  /**
   * Calls `onNotice` with the user of each revocation saved by any process sharing the store, and with
   * `{ connected }` when the notifications start, stop (a dropped connection: some may be missed) or
   * resume. Resolves to the function that stops watching, or `null` when this store cannot notify
   * (then readers re-read the store about every second).
   */
  watchSessionRevocations?(onNotice: (notice: RevocationNotice) => void): Promise<(() => Promise<void>) | null>;
}

/** One revocation of JWT sessions: of one session (`sessionId`), or of every session of the user signed in before `revokedAt`. */
export interface SessionRevocation {
  userId: string;
  /** The session revoked (its id, the token's `appauthSid`); absent: every session signed in before `revokedAt`. */
  sessionId?: string;
  /** Without `sessionId`: the one session that stays (the person's own, for "sign out everywhere else"). */
  exceptSessionId?: string;
  revokedAt: Date;
  /** When no token the record concerns can still be open: it may be deleted from then on. */
  expires: Date;
}

/** A user's standing revocations, as stored. */
export interface StoredRevocations {
  /** Sessions signed in before this were revoked (but `keptSessionId`); `null`: no such record. */
  revokedBefore: Date | null;
  keptSessionId: string | null;
  /** The sessions revoked one by one. */
  sessionIds: string[];
}

/** What a watching process hears: a user whose revocations changed, or that notifications started or stopped. */
export type RevocationNotice = { userId: string } | { connected: boolean };
/**
 * The extension methods that keep second factors (`twoFactor` in the config; see
 * docs/concepts/two-factor.md). All of them are needed once two-factor is configured. Every method
 * that names a factor takes its owner's `userId` too and touches nothing of anyone else: a factor id
 * of another user is treated as unknown. Deleting a user deletes their factors and recovery codes;
 * `claimUnverifiedUser` deletes them too (a squatter's factor must not lock the prover out).
 */
export interface TwoFactorAdapter {
  /** Stores a new TOTP factor (normally pending, `active: false`); resolves to it as stored. Rejects when its id exists. */
  createTwoFactor(factor: StoredTotpFactor): Promise<StoredTotpFactor>;
  /** Every factor of the user, active and pending, oldest first; `[]` when none. */
  getTwoFactors(userId: string): Promise<StoredTotpFactor[]>;
  /** Marks the user's factor `id` active; resolves to it as stored afterwards, or `null` when the user has no such factor. */
  activateTwoFactor(userId: string, id: string): Promise<StoredTotpFactor | null>;
  /** Deletes the user's factor `id`; resolves `true` when it was there, `false` (changing nothing) otherwise. */
  deleteTwoFactor(userId: string, id: string): Promise<boolean>;
  /**
   * Records that a code of time step `step` was accepted for the user's factor `factorId`, atomically
   * across every process sharing the store: resolves `true` and stores `step` as `lastUsedStep` (and
   * now as `lastUsedAt`) only when `step` is greater than the stored `lastUsedStep`; `false`, changing
   * nothing, when it is not or there is no such factor. A code is accepted only when this says `true`,
   * so of concurrent uses of one code exactly one wins.
   */
  useTotpStep(userId: string, factorId: string, step: number): Promise<boolean>;
  /** Replaces every recovery code of the user with `hashes` (keyed hashes, never codes), in one step. */
  replaceRecoveryCodes(userId: string, hashes: string[]): Promise<void>;
  /**
   * Uses up the user's recovery code whose keyed hash is `hash`, atomically: resolves `true` and deletes
   * it when the user has it, `false` otherwise. Of concurrent uses of one code exactly one wins.
   */
  useRecoveryCode(userId: string, hash: string): Promise<boolean>;
  /** How many unused recovery codes the user has. */
  countRecoveryCodes(userId: string): Promise<number>;
}

/**
 * The extension method that lets a remembered browser (`twoFactor.rememberBrowser`) be voided when the
 * user's second factors change. The version is a per-user counter, `0` for a user whose factors never
 * changed, that the adapter raises in the same write as `createTwoFactor`, `activateTwoFactor`, a
 * `deleteTwoFactor` that deleted something, and `replaceRecoveryCodes` (using a code or a time step
 * does not raise it). It never goes back: only deleting the user forgets it.
 */
export interface TwoFactorVersionAdapter {
  /** The user's factors version: raised by every change of their factors, `0` before any. */
  getTwoFactorVersion(userId: string): Promise<number>;
}

/** The fields of an account to change; `null` clears a field. */
export type AccountUpdate = Pick<AdapterAccount, "provider" | "providerAccountId"> & {
  [K in Exclude<keyof AdapterAccount, "provider" | "providerAccountId" | "userId" | "type"> as string extends K ? never : K]?:
    | AdapterAccount[K]
    | null;
} & Record<string, unknown>;

/** Which sessions a back-channel logout ends. */
export interface SessionFilter {
  provider: string;
  providerAccountId?: string;
  providerSessionId?: string;
}

/** A fresh id for a user created without one: a random UUID from Web Crypto (Node 20, edge runtimes). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}
