/**
 * `appauth/adapters/redis`: the adapter contract on Redis through ioredis, for deployments with many
 * app instances. Records are JSON (Dates tagged and revived, see codec.ts) under readable keys:
 *
 *   user:<id>, user:email:<email> → id, user:<id>:accounts | :sessions | :authenticators (sets),
 *   account:<provider>:<providerAccountId>, session:<token>, verification:<identifier>:<token>,
 *   authenticator:<credentialID>, lease:<key>, user:<id>:two-factor (hash of factors by id),
 *   user:<id>:recovery-codes (set of code hashes), user:<id>:two-factor-version (a counter),
 *   sessions:account:<provider>:<providerAccountId> | sessions:sid:<provider>:<providerSessionId> (sets),
 *   revocations:<userId> (a hash; see revocations.ts), published on the channel `session-revocations`
 *
 * Sessions, verification tokens and leases expire with their records (PX, PXAT); the sets that index
 * sessions by provider account and provider session expire with their longest-lived session, and an
 * entry whose session is gone is dropped when found (it never matches anything). Writes with
 * preconditions run as Lua scripts, so they are atomic; a verification token is consumed with GETDEL
 * (Redis >= 6.2), so two concurrent uses cannot both succeed; a session is read with its user in one round trip. The scripts
 * compute the user key of a session on the server, so they expect one Redis, not a Redis Cluster.
 * ioredis is this module's optional peer dependency; only its types are imported.
 */
import type { Redis } from "ioredis";
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../types.js";
import type { StoredTotpFactor } from "../../two-factor/types.js";
import { applyAccountUpdate, leaseExpiry, sessionMatch } from "../extension-rules.js";
import { newId, type ExtendedAdapter, type NewUserAccount } from "../extensions.js";
import { deserialize, keys, serialize } from "./codec.js";
import { runScript, scripts } from "./scripts.js";
import { redisRevocations } from "./revocations.js";
import { boundCalls, storeTimeoutOf, type StoreTimeoutOptions } from "../time-limits.js";

export interface RedisAdapterOptions extends StoreTimeoutOptions {
  /**
   * Prepended to every key, e.g. `"appauth:"`. Default: none. A client's own `keyPrefix` works too
   * (and goes before this one): the scripts that build keys on the server are given both.
   */
  prefix?: string;
}

/** The Redis adapter: the whole contract and every extension. */
export type RedisAdapterInstance = Required<ExtendedAdapter>;

interface Write {
  absent?: string[];
  present?: string[];
  set?: [key: string, value: string, ttlMs?: number][];
  /** Members to add; a TTL (ms) makes the set live at least that long (see GUARDED_WRITE). */
  sadd?: [key: string, member: string, ttlMs?: number][];
}

/** How often updateAccount reads again when the account changed between its read and its write. */
const UPDATE_ATTEMPTS = 10;

/** Milliseconds until `expires`, or null when it has passed (nothing to store then). */
function ttl(expires: Date): number | null {
  const ms = expires.getTime() - Date.now();
  return ms > 0 ? Math.ceil(ms) : null;
}

/** Maps a script's `EXISTS`/`MISSING` reply to an error that says which record was in the way. */
function explain(what: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith("EXISTS ")) return new Error(`${what}: ${message.slice(7)} already exists`, { cause: error });
  if (message.startsWith("MISSING ")) return new Error(`${what}: ${message.slice(8)} does not exist`, { cause: error });
  return error instanceof Error ? error : new Error(message);
}

/** A copy without `undefined` values (what JSON would store), sharing nothing with the caller's object. */
function strip<T extends object>(value: T): T {
  return structuredClone(Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))) as T;
}

/**
 * Creates the adapter on an ioredis client (which it does not close).
 *
 * @example
 * ```ts
 * import Redis from "ioredis";
 * // Bounded on both sides: the client gives up on a connection or command after 5 s, the adapter
 * // on any call after `timeout` (default 5000 ms).
 * const client = new Redis(process.env.REDIS_URL, { connectTimeout: 5000, commandTimeout: 5000, maxRetriesPerRequest: 1 });
 * const adapter = RedisAdapter(client, { prefix: "appauth:", timeout: 5000 });
 * ```
 */
export function RedisAdapter(client: Redis, options: RedisAdapterOptions = {}): RedisAdapterInstance {
  if (!client || typeof client.getdel !== "function") {
    throw new TypeError("RedisAdapter: client must be an ioredis client");
  }
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string") throw new TypeError("RedisAdapter: options.prefix must be a string");
  const timeout = storeTimeoutOf("RedisAdapter", options);
  const k = keys(prefix);
  // ioredis prefixes the keys it is given (KEYS included), never a key a script builds from an
  // argument: those are built from the whole prefix as the server sees it.
  const clientPrefix = (client.options as { keyPrefix?: unknown } | undefined)?.keyPrefix;
  const serverPrefix = typeof clientPrefix === "string" ? clientPrefix : "";
  const onServer = keys(`${serverPrefix}${prefix}`);

  function guardedWrite({ absent = [], present = [], set = [], sadd = [] }: Write): Promise<unknown> {
    const args: (string | number)[] = [absent.length, present.length, set.length, sadd.length];
    for (const [, value, ms] of set) args.push(value, ms ?? "");
    for (const [, member, ms] of sadd) args.push(member, ms ?? "");
    const keyList = [...absent, ...present, ...set.map(([key]) => key), ...sadd.map(([key]) => key)];
    return runScript(client, scripts.guardedWrite, keyList, args);
  }

  async function write(what: string, plan: Write): Promise<void> {
    try {
      await guardedWrite(plan);
    } catch (error) {
      throw explain(what, error);
    }
  }

  async function read<T>(key: string): Promise<T | null> {
    const text = await client.get(key);
    return text === null ? null : deserialize<T>(text);
  }

  /** The user's record and every key that lives and dies with it, in the order the scripts expect. */
  function userKeys(userId: string): string[] {
    return [
      k.user(userId),
      k.userAccounts(userId),
      k.userSessions(userId),
      k.userAuthenticators(userId),
      k.userTwoFactors(userId),
      k.userRecoveryCodes(userId),
      k.userTwoFactorVersion(userId),
    ];
  }

  function userWrite(user: AdapterUser): { user: AdapterUser; write: Write } {
    const stored = strip({ ...user, id: user.id || newId() });
    return {
      user: stored,
      write: {
        // A user without an email (null, or "") has no email index: any number of them can exist.
        absent: [k.user(stored.id), ...(stored.email ? [k.userByEmail(stored.email)] : [])],
        set: [
          [k.user(stored.id), serialize(stored)],
          ...(stored.email ? [[k.userByEmail(stored.email), stored.id] as [string, string]] : []),
        ],
      },
    };
  }

  /** The index sets a session belongs in: by its provider account, by its provider session. */
  function sessionIndexes({ provider, providerAccountId, providerSessionId }: AdapterSession): string[] {
    if (typeof provider !== "string") return [];
    return [
      ...(typeof providerAccountId === "string" ? [k.sessionsByAccount(provider, providerAccountId)] : []),
      ...(typeof providerSessionId === "string" ? [k.sessionsByProviderSession(provider, providerSessionId)] : []),
    ];
  }

  /** The write of a session that expires in `ms`, with its entries in its user's set and its indexes. */
  function sessionWrite(session: AdapterSession, ms: number): Write {
    const key = k.session(session.sessionToken);
    return {
      present: [k.user(session.userId)],
      set: [[key, serialize(session), ms]],
      sadd: [
        [k.userSessions(session.userId), session.sessionToken],
        ...sessionIndexes(session).map((index): [string, string, number] => [index, session.sessionToken, ms]),
      ],
    };
  }

  /** Drops a deleted session's entries (best effort: an entry left behind is harmless). */
  async function unindexSession(session: AdapterSession): Promise<void> {
    const sets = [k.userSessions(session.userId), ...sessionIndexes(session)];
    await Promise.all(sets.map((set) => client.srem(set, session.sessionToken)));
  }

  function accountWrite(account: AdapterAccount): Write {
    const key = k.account(account.provider, account.providerAccountId);
    return {
      absent: [key],
      present: [k.user(account.userId)],
      set: [[key, serialize(strip(account))]],
      sadd: [[k.userAccounts(account.userId), key]],
    };
  }

  const revocations = redisRevocations(client, k, `${serverPrefix}${prefix}session-revocations`);

  const adapter: RedisAdapterInstance = {
    ...revocations,
    async createUser(input) {
      const { user, write: plan } = userWrite(input);
      await write("createUser", plan);
      return user;
    },

    async getUser(id) {
      return read<AdapterUser>(k.user(id));
    },

    async getUserByEmail(email) {
      if (!email) return null;
      const id = await client.get(k.userByEmail(email));
      return id === null ? null : read<AdapterUser>(k.user(id));
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = await read<AdapterAccount>(k.account(provider, providerAccountId));
      return account ? read<AdapterUser>(k.user(account.userId)) : null;
    },

    async updateUser(patch) {
      const current = await read<AdapterUser>(k.user(patch.id));
      if (!current) throw new Error(`updateUser: no user with id ${JSON.stringify(patch.id)}`);
      const next = { ...current, ...strip(patch), id: current.id };
      try {
        await runScript(
          client,
          scripts.updateUser,
          [k.user(next.id), ...[current.email, next.email].filter((email): email is string => Boolean(email)).map((email) => k.userByEmail(email))],
          [serialize(next), next.id, current.email ? "1" : "0", next.email ? "1" : "0"],
        );
      } catch (error) {
        throw explain("updateUser", error);
      }
      return next;
    },

    async deleteUser(userId) {
      // One script: a session or authenticator created while the user is being deleted cannot survive them.
      const user = await runScript(
        client,
        scripts.deleteUser,
        [...userKeys(userId)],
        [onServer.session(""), onServer.authenticator(""), onServer.userByEmail(""), userId, serverPrefix],
      );
      return typeof user === "string" ? deserialize<AdapterUser>(user) : null;
    },

    async claimUnverifiedUser(userId, verifiedAt) {
      const keysOfUser = userKeys(userId);
      // Read, check, write only over what was read: an update meanwhile makes this one read again.
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
        const text = await client.get(k.user(userId));
        if (text === null) return null;
        const user = deserialize<AdapterUser>(text);
        if (user.emailVerified != null) return null;
        const claimed = { ...user, emailVerified: verifiedAt };
        const reply = await runScript(client, scripts.claimUser, keysOfUser, [
          text,
          serialize(claimed),
          onServer.session(""),
          onServer.authenticator(""),
          serverPrefix,
        ]);
        if (reply === 0) return null;
        if (!Array.isArray(reply)) continue;
        const [accounts, authenticators, sessions] = reply as [string[], string[], number];
        return {
          user: claimed,
          accounts: accounts.map((stored) => {
            const { provider, providerAccountId } = deserialize<AdapterAccount>(stored);
            return { provider, providerAccountId };
          }),
          authenticators,
          sessions: Number(sessions),
        };
      }
      throw new Error(`claimUnverifiedUser: the user changed under ${UPDATE_ATTEMPTS} attempts in a row; not claimed`);
    },

    async linkAccount(account) {
      const stored = strip(account);
      await write("linkAccount", accountWrite(stored));
      return stored;
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const key = k.account(provider, providerAccountId);
      const text = await client.getdel(key);
      if (text === null) return undefined;
      const account = deserialize<AdapterAccount>(text);
      await client.srem(k.userAccounts(account.userId), key);
      return account;
    },

    async getAccount(providerAccountId, provider) {
      return read<AdapterAccount>(k.account(provider, providerAccountId));
    },

    async updateAccount(update) {
      const key = k.account(update.provider, update.providerAccountId);
      // Read, change, write only over what was read: a concurrent update makes this one read again.
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
        const text = await client.get(key);
        if (text === null) return null;
        const next = strip(applyAccountUpdate(deserialize<AdapterAccount>(text), update));
        const written = await runScript(client, scripts.compareAndSet, [key], [text, serialize(next)]);
        if (written === 1) return next;
        if (written === 0) return null;
      }
      throw new Error(`updateAccount: the account changed under ${UPDATE_ATTEMPTS} attempts in a row; not updated`);
    },

    async createUserAndLinkAccount(input, account: NewUserAccount) {
      const { user, write: plan } = userWrite(input);
      const linked = accountWrite({ ...account, userId: user.id } as AdapterAccount);
      // One script checks both and writes both: the user exists only if the account could be linked.
      await write("createUserAndLinkAccount", {
        absent: [...(plan.absent ?? []), ...(linked.absent ?? [])],
        set: [...(plan.set ?? []), ...(linked.set ?? [])],
        sadd: linked.sadd,
      });
      return user;
    },

    async createSession(session) {
      const ms = ttl(session.expires);
      if (ms === null) return strip(session); // already expired: a session nobody can read
      await write("createSession", { absent: [k.session(session.sessionToken)], ...sessionWrite(session, ms) });
      return strip(session);
    },

    async getSessionAndUser(sessionToken) {
      const reply = await runScript(client, scripts.sessionAndUser, [k.session(sessionToken)], [onServer.userPrefix]);
      if (!Array.isArray(reply)) return null;
      const [session, user] = reply as [string, string];
      return { session: deserialize<AdapterSession>(session), user: deserialize<AdapterUser>(user) };
    },

    async updateSession(patch) {
      const key = k.session(patch.sessionToken);
      const current = await read<AdapterSession>(key);
      if (!current) return null;
      const next = { ...current, ...strip(patch) };
      const ms = ttl(next.expires);
      if (ms === null) {
        await client.del(key);
        return next;
      }
      // The write requires the session: one deleted meanwhile stays deleted. Its indexes live as long.
      const plan = sessionWrite(next, ms);
      try {
        await guardedWrite({ ...plan, present: [key, ...(plan.present ?? [])] });
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("MISSING ")) return null;
        throw error;
      }
      return next;
    },

    async deleteSession(sessionToken) {
      const text = await client.getdel(k.session(sessionToken));
      if (text === null) return null;
      const session = deserialize<AdapterSession>(text);
      await unindexSession(session);
      return session;
    },

    async listSessions(userId) {
      const set = k.userSessions(userId);
      const tokens = await client.smembers(set);
      if (tokens.length === 0) return [];
      const texts = await client.mget(tokens.map((token) => k.session(token)));
      const found: AdapterSession[] = [];
      const gone: string[] = [];
      texts.forEach((text, i) => {
        if (text === null) gone.push(tokens[i]!);
        else found.push(deserialize<AdapterSession>(text));
      });
      // Entries of expired sessions go when found, so the set does not grow with every sign-in.
      if (gone.length) await client.srem(set, ...gone);
      return found.filter((session) => session.userId === userId);
    },

    async deleteSessions(userId, options = {}) {
      const tokens = await client.smembers(k.userSessions(userId));
      let deleted = 0;
      for (const token of tokens) {
        if (token === options.except) continue;
        const text = await client.getdel(k.session(token));
        if (text === null) {
          await client.srem(k.userSessions(userId), token);
          continue;
        }
        await unindexSession(deserialize<AdapterSession>(text));
        deleted++;
      }
      return deleted;
    },

    async deleteSessionsByAccount(filter) {
      const match = sessionMatch(filter);
      // Either index finds every candidate; the script checks each against the whole filter.
      const index =
        match.providerSessionId === undefined
          ? k.sessionsByAccount(match.provider, match.providerAccountId as string)
          : k.sessionsByProviderSession(match.provider, match.providerSessionId);
      const deleted = await runScript(client, scripts.deleteIndexedSessions, [index], [
        onServer.sessionPrefix,
        onServer.userPrefix,
        JSON.stringify(match),
      ]);
      return Number(deleted);
    },

    async acquireLease(key, holder, expires) {
      // PXAT takes no time before 1 ms; a lease that expired at birth is free again at once either way.
      const until = Math.max(1, leaseExpiry(expires));
      return (await client.set(k.lease(key), holder, "PXAT", until, "NX")) === "OK";
    },

    async releaseLease(key, holder) {
      await runScript(client, scripts.releaseLease, [k.lease(key)], [holder]);
    },

    async hitRateLimit(key, windowMs) {
      const [count, left] = (await runScript(client, scripts.hitRateLimit, [k.rateLimit(key)], [Math.max(1, Math.ceil(windowMs))])) as [number, number];
      return { count: Number(count), resetAt: new Date(Date.now() + Number(left)) };
    },

    async resetRateLimit(key) {
      await client.del(k.rateLimit(key));
    },

    async createTwoFactor(factor) {
      const stored = strip(factor);
      try {
        await runScript(client, scripts.createTwoFactor, [k.user(stored.userId), k.userTwoFactors(stored.userId), k.userTwoFactorVersion(stored.userId)], [stored.id, serialize(stored)]);
      } catch (error) {
        throw explain("createTwoFactor", error);
      }
      return stored;
    },

    async getTwoFactors(userId) {
      const factors = (await client.hvals(k.userTwoFactors(userId))).map((text) => deserialize<StoredTotpFactor>(text));
      return factors.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
    },

    async activateTwoFactor(userId, id) {
      const text = await runScript(client, scripts.updateTwoFactor, [k.userTwoFactors(userId), k.userTwoFactorVersion(userId)], [id, "activate"]);
      return typeof text === "string" ? deserialize<StoredTotpFactor>(text) : null;
    },

    async deleteTwoFactor(userId, id) {
      return (await runScript(client, scripts.deleteTwoFactor, [k.userTwoFactors(userId), k.userTwoFactorVersion(userId)], [id])) === 1;
    },

    async useTotpStep(userId, factorId, step) {
      if (!Number.isSafeInteger(step)) return false;
      const args = [factorId, "step", step, new Date().toISOString()];
      return typeof (await runScript(client, scripts.updateTwoFactor, [k.userTwoFactors(userId), k.userTwoFactorVersion(userId)], args)) === "string";
    },

    async replaceRecoveryCodes(userId, hashes) {
      const key = k.userRecoveryCodes(userId);
      const transaction = client.multi().del(key);
      if (hashes.length) transaction.sadd(key, ...hashes);
      transaction.incr(k.userTwoFactorVersion(userId));
      const results = await transaction.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error("replaceRecoveryCodes: the transaction was aborted");
    },

    async useRecoveryCode(userId, hash) {
      return (await client.srem(k.userRecoveryCodes(userId), hash)) === 1;
    },

    async countRecoveryCodes(userId) {
      return client.scard(k.userRecoveryCodes(userId));
    },

    async getTwoFactorVersion(userId) {
      return Number((await client.get(k.userTwoFactorVersion(userId))) ?? 0);
    },

    async createVerificationToken(token) {
      const ms = ttl(token.expires);
      if (ms === null) return strip(token);
      const written = await client.set(k.verification(token.identifier, token.token), serialize(token), "PX", ms, "NX");
      if (written === null) throw new Error("createVerificationToken: this token exists");
      return strip(token);
    },

    async useVerificationToken({ identifier, token }) {
      const text = await client.getdel(k.verification(identifier, token));
      return text === null ? null : deserialize<VerificationToken>(text);
    },

    async createAuthenticator(authenticator) {
      const stored: AdapterAuthenticator = strip({ ...authenticator, transports: authenticator.transports ?? null });
      const key = k.authenticator(stored.credentialID);
      await write("createAuthenticator", {
        absent: [key],
        present: [k.user(stored.userId)],
        set: [[key, serialize(stored)]],
        sadd: [[k.userAuthenticators(stored.userId), stored.credentialID]],
      });
      return stored;
    },

    async getAuthenticator(credentialID) {
      return read<AdapterAuthenticator>(k.authenticator(credentialID));
    },

    async listAuthenticatorsByUserId(userId) {
      const ids = await client.smembers(k.userAuthenticators(userId));
      if (ids.length === 0) return [];
      const texts = await client.mget(ids.map((id) => k.authenticator(id)));
      return texts.filter((text): text is string => text !== null).map((text) => deserialize(text));
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const key = k.authenticator(credentialID);
      const current = await read<AdapterAuthenticator>(key);
      if (!current) throw new Error(`updateAuthenticatorCounter: no authenticator ${JSON.stringify(credentialID)}`);
      const next = { ...current, counter: newCounter };
      const written = await client.set(key, serialize(next), "XX");
      if (written === null) throw new Error(`updateAuthenticatorCounter: authenticator ${JSON.stringify(credentialID)} was deleted`);
      return next;
    },
  };
  return boundCalls(adapter, timeout, "RedisAdapter");
}
