/**
 * The in-memory adapter: the reference implementation of the adapter contract, for tests, demos and
 * single-process development. Everything lives in Maps owned by one adapter instance (no module state),
 * and every value crosses the boundary as a deep copy, so callers can never mutate what is stored.
 * Constraints a database would enforce (unique email, unique provider account, foreign keys) are
 * enforced here too. A user without an email (`null`, as the core creates one from a provider that gave
 * none; `""` counts as none too) is not indexed by email, so any number of them can exist, as with a nullable unique column, so code that works against memory behaves the same against SQL or Redis.
 */
import { memoryRevocations } from "../../session/memory-revocations.js";
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../types.js";
import type { StoredTotpFactor } from "../../two-factor/types.js";
import { applyAccountUpdate, leaseExpiry, sessionMatch, sessionMatches } from "../extension-rules.js";
import { newId, type ExtendedAdapter, type NewUserAccount } from "../extensions.js";

export type { ExtendedAdapter, NewUserAccount, TwoFactorAdapter } from "../extensions.js";

/** The memory adapter: all 19 contract methods plus every extension (see `ExtendedAdapter`). */
export type MemoryAdapterInstance = Required<ExtendedAdapter>;

// structuredClone keeps Dates as Dates and copies extra fields of any depth.
const copy = <T>(value: T): T => structuredClone(value);

// Keys of the unique indexes; NUL cannot appear in the identifiers that make them up.
const accountKey = (provider: string, providerAccountId: string): string => `${provider}\u0000${providerAccountId}`;
const tokenKey = (identifier: string, token: string): string => `${identifier}\u0000${token}`;

/** Removes keys whose value is `undefined`, so a partial update never blanks a field. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Creates an empty in-memory store.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "appauth/adapters/memory";
 * const config = { adapter: MemoryAdapter(), providers: [...] };
 * ```
 */
export function MemoryAdapter(): MemoryAdapterInstance {
  const users = new Map<string, AdapterUser>();
  const userIdByEmail = new Map<string, string>();
  const accounts = new Map<string, AdapterAccount>();
  const sessions = new Map<string, AdapterSession>();
  const tokens = new Map<string, VerificationToken>();
  const authenticators = new Map<string, AdapterAuthenticator>();
  const leases = new Map<string, { holder: string; expires: number }>();
  const counters = new Map<string, { count: number; resetAt: number }>();
  const factors = new Map<string, StoredTotpFactor>();
  const recoveryCodes = new Map<string, Set<string>>();
  /** Per-user factors versions (`getTwoFactorVersion`): raised by every change of the user's factors. */
  const factorVersions = new Map<string, number>();
  const factorsChanged = (userId: string): void => void factorVersions.set(userId, (factorVersions.get(userId) ?? 0) + 1);

  /** The user's own factor `id`, or undefined: another user's factor is as good as unknown. */
  function ownFactor(userId: string, id: string): StoredTotpFactor | undefined {
    const factor = factors.get(id);
    return factor?.userId === userId ? factor : undefined;
  }

  function forgetSecondFactors(userId: string): void {
    for (const [id, factor] of factors) if (factor.userId === userId) factors.delete(id);
    recoveryCodes.delete(userId);
  }

  function requireUser(userId: string, what: string): void {
    if (!users.has(userId)) throw new Error(`${what}: no user with id ${JSON.stringify(userId)}`);
  }

  function insertUser(user: AdapterUser): AdapterUser {
    const stored = copy({ ...user, id: user.id || newId() });
    if (users.has(stored.id)) throw new Error(`createUser: a user with id ${JSON.stringify(stored.id)} exists`);
    if (stored.email && userIdByEmail.has(stored.email)) throw new Error("createUser: a user with this email exists");
    users.set(stored.id, stored);
    if (stored.email) userIdByEmail.set(stored.email, stored.id);
    return stored;
  }

  function checkAccount(account: AdapterAccount): string {
    requireUser(account.userId, "linkAccount");
    const key = accountKey(account.provider, account.providerAccountId);
    if (accounts.has(key)) throw new Error("linkAccount: this provider account is already linked");
    return key;
  }

  const revocations = memoryRevocations();

  return {
    ...revocations,

    async createUser(user) {
      return copy(insertUser(user));
    },

    async getUser(id) {
      const user = users.get(id);
      return user ? copy(user) : null;
    },

    async getUserByEmail(email) {
      const id = email ? userIdByEmail.get(email) : undefined;
      const user = id === undefined ? undefined : users.get(id);
      return user ? copy(user) : null;
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId));
      const user = account ? users.get(account.userId) : undefined;
      return user ? copy(user) : null;
    },

    async updateUser(patch) {
      const current = users.get(patch.id);
      if (!current) throw new Error(`updateUser: no user with id ${JSON.stringify(patch.id)}`);
      const next = copy({ ...current, ...defined(patch), id: current.id });
      if (next.email !== current.email) {
        if (next.email && userIdByEmail.has(next.email)) throw new Error("updateUser: a user with this email exists");
        if (current.email) userIdByEmail.delete(current.email);
        if (next.email) userIdByEmail.set(next.email, next.id);
      }
      users.set(next.id, next);
      return copy(next);
    },

    async deleteUser(userId) {
      const user = users.get(userId);
      if (!user) return null;
      users.delete(userId);
      if (user.email) userIdByEmail.delete(user.email);
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key);
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key);
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId === userId) authenticators.delete(key);
      }
      forgetSecondFactors(userId);
      factorVersions.delete(userId);
      return user;
    },

    async claimUnverifiedUser(userId, verifiedAt) {
      // Synchronous from the first read to the last write: no other call interleaves.
      const user = users.get(userId);
      if (!user || user.emailVerified != null) return null;
      const detached = { accounts: [] as { provider: string; providerAccountId: string }[], authenticators: [] as string[], sessions: 0 };
      for (const [key, account] of accounts) {
        if (account.userId !== userId) continue;
        accounts.delete(key);
        detached.accounts.push({ provider: account.provider, providerAccountId: account.providerAccountId });
      }
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId !== userId) continue;
        authenticators.delete(key);
        detached.authenticators.push(authenticator.credentialID);
      }
      for (const [key, session] of sessions) if (session.userId === userId && sessions.delete(key)) detached.sessions++;
      forgetSecondFactors(userId);
      factorsChanged(userId);
      const claimed = copy({ ...user, emailVerified: verifiedAt });
      users.set(userId, claimed);
      return { user: copy(claimed), ...detached };
    },

    async linkAccount(account) {
      const key = checkAccount(account);
      accounts.set(key, copy(account));
      return copy(account);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId);
      const account = accounts.get(key);
      accounts.delete(key);
      return account;
    },

    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId));
      return account ? copy(account) : null;
    },

    async createUserAndLinkAccount(user, account: NewUserAccount) {
      // Check everything before the first write: nothing is stored unless both writes can happen.
      const id = user.id || newId();
      if (users.has(id)) throw new Error(`createUser: a user with id ${JSON.stringify(id)} exists`);
      if (user.email && userIdByEmail.has(user.email)) throw new Error("createUser: a user with this email exists");
      if (accounts.has(accountKey(account.provider, account.providerAccountId))) {
        throw new Error("linkAccount: this provider account is already linked");
      }
      const created = insertUser({ ...user, id });
      const linked = { ...account, userId: id } as AdapterAccount;
      accounts.set(checkAccount(linked), copy(linked));
      return copy(created);
    },

    async updateAccount(update) {
      const key = accountKey(update.provider, update.providerAccountId);
      const current = accounts.get(key);
      if (!current) return null;
      const next = copy(applyAccountUpdate(current, update));
      accounts.set(key, next);
      return copy(next);
    },

    async createSession(session) {
      requireUser(session.userId, "createSession");
      if (sessions.has(session.sessionToken)) throw new Error("createSession: the session token exists");
      sessions.set(session.sessionToken, copy(session));
      return copy(session);
    },

    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken);
      const user = session ? users.get(session.userId) : undefined;
      if (!session || !user) return null;
      return { session: copy(session), user: copy(user) };
    },

    async updateSession(patch) {
      const current = sessions.get(patch.sessionToken);
      if (!current) return null;
      const next = copy({ ...current, ...defined(patch) });
      sessions.set(next.sessionToken, next);
      return copy(next);
    },

    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken);
      sessions.delete(sessionToken);
      return session ?? null;
    },

    async deleteSessionsByAccount(filter) {
      const match = sessionMatch(filter);
      let deleted = 0;
      for (const [key, session] of sessions) {
        if (sessionMatches(session, match) && sessions.delete(key)) deleted++;
      }
      return deleted;
    },

    async listSessions(userId) {
      return [...sessions.values()].filter((session) => session.userId === userId).map(copy);
    },

    async deleteSessions(userId, options = {}) {
      let deleted = 0;
      for (const [key, session] of sessions) {
        if (session.userId === userId && key !== options.except && sessions.delete(key)) deleted++;
      }
      return deleted;
    },

    async acquireLease(key, holder, expires) {
      const until = leaseExpiry(expires);
      // Check and take in one synchronous step: concurrent callers cannot both find the lease free.
      const now = Date.now();
      const current = leases.get(key);
      if (current && current.expires > now) return false;
      // Expired leases go too, so remembered logout-token ids do not pile up.
      for (const [other, lease] of leases) if (lease.expires <= now) leases.delete(other);
      leases.set(key, { holder, expires: until });
      return true;
    },

    async hitRateLimit(key, windowMs) {
      const now = Date.now();
      let counter = counters.get(key);
      if (!counter || counter.resetAt <= now) {
        // Closed windows are swept when many are held, so the map does not grow with every key ever seen.
        if (counters.size >= 10_000) for (const [other, open] of counters) if (open.resetAt <= now) counters.delete(other);
        // Still full of open windows (a flood of distinct keys): the oldest go, so memory stays bounded.
        for (const oldest of counters.keys()) {
          if (counters.size < 100_000) break;
          counters.delete(oldest);
        }
        counter = { count: 0, resetAt: now + windowMs };
        counters.set(key, counter);
      }
      counter.count += 1;
      return { count: counter.count, resetAt: new Date(counter.resetAt) };
    },

    async resetRateLimit(key) {
      counters.delete(key);
    },

    async releaseLease(key, holder) {
      if (leases.get(key)?.holder === holder) leases.delete(key);
    },

    async createTwoFactor(factor) {
      requireUser(factor.userId, "createTwoFactor");
      if (factors.has(factor.id)) throw new Error("createTwoFactor: a factor with this id exists");
      factors.set(factor.id, copy(factor));
      factorsChanged(factor.userId);
      return copy(factor);
    },

    async getTwoFactors(userId) {
      return [...factors.values()]
        .filter((factor) => factor.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(copy);
    },

    async activateTwoFactor(userId, id) {
      const factor = ownFactor(userId, id);
      if (!factor) return null;
      factor.active = true;
      factorsChanged(userId);
      return copy(factor);
    },

    async deleteTwoFactor(userId, id) {
      if (ownFactor(userId, id) === undefined) return false;
      factors.delete(id);
      factorsChanged(userId);
      return true;
    },

    async useTotpStep(userId, factorId, step) {
      // Compare and store in one synchronous step: of concurrent uses of one code, one wins.
      const factor = ownFactor(userId, factorId);
      if (!factor || !(step > factor.lastUsedStep)) return false;
      factor.lastUsedStep = step;
      factor.lastUsedAt = new Date();
      return true;
    },

    async replaceRecoveryCodes(userId, hashes) {
      requireUser(userId, "replaceRecoveryCodes");
      recoveryCodes.set(userId, new Set(hashes));
      factorsChanged(userId);
    },

    async getTwoFactorVersion(userId) {
      return factorVersions.get(userId) ?? 0;
    },

    async useRecoveryCode(userId, hash) {
      return recoveryCodes.get(userId)?.delete(hash) ?? false;
    },

    async countRecoveryCodes(userId) {
      return recoveryCodes.get(userId)?.size ?? 0;
    },

    async createVerificationToken(token) {
      // Expired tokens of the same identifier go first, so the store stays bounded without a purge job.
      const now = Date.now();
      for (const [key, stored] of tokens) {
        if (stored.identifier === token.identifier && stored.expires.valueOf() < now) tokens.delete(key);
      }
      const key = tokenKey(token.identifier, token.token);
      if (tokens.has(key)) throw new Error("createVerificationToken: this token exists");
      tokens.set(key, copy(token));
      return copy(token);
    },

    async useVerificationToken({ identifier, token }) {
      // Get and delete happen in one synchronous step, so concurrent callers cannot both win.
      const key = tokenKey(identifier, token);
      const stored = tokens.get(key);
      tokens.delete(key);
      return stored ?? null;
    },

    async createAuthenticator(authenticator) {
      requireUser(authenticator.userId, "createAuthenticator");
      if (authenticators.has(authenticator.credentialID)) {
        throw new Error("createAuthenticator: this credential ID exists");
      }
      authenticators.set(authenticator.credentialID, copy(authenticator));
      return copy(authenticator);
    },

    async getAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID);
      return authenticator ? copy(authenticator) : null;
    },

    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const authenticator = authenticators.get(credentialID);
      if (!authenticator) {
        throw new Error(`updateAuthenticatorCounter: no authenticator ${JSON.stringify(credentialID)}`);
      }
      authenticator.counter = newCounter;
      return copy(authenticator);
    },
  };
}
