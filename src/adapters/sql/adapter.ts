/**
 * The SQL adapter: one implementation of the adapter contract on Kysely for PostgreSQL, MySQL/MariaDB
 * and SQLite. The dialects differ in three places only: how values are encoded (codec.ts), whether a
 * statement can return the rows it changed (`RETURNING`: PostgreSQL and SQLite), and so how a
 * verification token is consumed atomically: `DELETE ... RETURNING` where there is one, otherwise a
 * transaction that locks the row (`SELECT ... FOR UPDATE`) before deleting it, so two concurrent uses
 * of one token cannot both see it. Leases take the same care per dialect (leases.ts).
 */
import { Migrator, type CompiledQuery } from "kysely";
import type { AdapterUser } from "../../types.js";
import { accountChanges, sessionMatch } from "../extension-rules.js";
import { newId, type ExtendedAdapter } from "../extensions.js";
import {
  ACCOUNT_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  SESSION_COLUMNS,
  SESSION_LINK_COLUMNS,
  SESSION_PROOF_COLUMNS,
  USER_COLUMNS,
  decodeAccount,
  decodeAuthenticator,
  decodeSession,
  decodeUser,
  decodeVerificationToken,
  encode,
  type Row,
} from "./codec.js";
import { detectDialect, type AnyKysely, type SqlDialect } from "./dialect.js";
import { sqlClaims } from "./claims.js";
import { sqlLeases } from "./leases.js";
import { sqlMigrations } from "./migrations.js";
import { sqlRateLimits } from "./rate-limits.js";
import { revocationChannel, sqlRevocations } from "./revocations.js";
import { sqlTwoFactor } from "./two-factor.js";
import { tableNames } from "./tables.js";
import { boundCalls, storeTimeoutOf } from "../time-limits.js";

export interface SqlAdapterOptions {
  /** The SQL dialect; detected from the Kysely instance when omitted. */
  dialect?: SqlDialect;
  /** Prepended to every table name (and the migrations tables), e.g. `"auth_"`. */
  tablePrefix?: string;
  /**
   * How long one adapter call may take, in milliseconds, before it fails with `StoreUnavailable`
   * (`migrate()` excepted). Default 5000; `0` for none.
   */
  timeout?: number;
}

/** The SQL adapter: the whole contract, every extension, and `migrate()` for its schema. */
export interface SqlAdapterInstance extends Required<ExtendedAdapter> {
  /** Applies the shipped migrations not applied yet. Safe to call on every start, from several processes. */
  migrate(): Promise<void>;
}

type Where = Record<string, unknown>;

/**
 * Creates the adapter on an existing Kysely instance. Call `migrate()` once before first use (or apply
 * the schema yourself: see `sqlMigrations`).
 *
 * @example
 * ```ts
 * const adapter = SqlAdapter(new Kysely({ dialect: new PostgresDialect({ pool }) }));
 * await adapter.migrate();
 * ```
 */
export function SqlAdapter(db: AnyKysely, options: SqlAdapterOptions = {}): SqlAdapterInstance {
  const dialect = options.dialect ?? detectDialect(db);
  if (!["postgres", "mysql", "sqlite"].includes(dialect)) {
    throw new TypeError(`SqlAdapter: options.dialect must be "postgres", "mysql" or "sqlite", not ${String(dialect)}`);
  }
  const prefix = options.tablePrefix ?? "";
  if (!/^[A-Za-z0-9_]*$/.test(prefix)) {
    throw new TypeError("SqlAdapter: options.tablePrefix may contain only letters, digits and underscores");
  }
  const timeout = storeTimeoutOf("SqlAdapter", options);
  const t = tableNames(prefix);
  const returning = dialect !== "mysql";
  const leases = sqlLeases(db, dialect, t.leases);
  const rateLimits = sqlRateLimits(db, dialect, t.rateLimits);
  const revocations = sqlRevocations(db, dialect, t.sessionRevocations, revocationChannel(prefix));
  const twoFactor = sqlTwoFactor(db, dialect, t);

  function select(executor: AnyKysely, table: string, where: Where): Promise<Row | undefined> {
    let query = executor.selectFrom(table).selectAll();
    for (const [column, value] of Object.entries(where)) query = query.where(column, "=", value);
    return query.executeTakeFirst() as Promise<Row | undefined>;
  }

  /** UPDATE then the updated row (one statement with RETURNING, else a read after the write). */
  async function update(table: string, where: Where, values: Row): Promise<Row | undefined> {
    if (Object.keys(values).length === 0) return select(db, table, where);
    let query = db.updateTable(table).set(values);
    for (const [column, value] of Object.entries(where)) query = query.where(column, "=", value);
    if (returning) return (await query.returningAll().executeTakeFirst()) as Row | undefined;
    await query.execute();
    return select(db, table, where);
  }

  /** DELETE and the deleted row, atomically: RETURNING, or a locking read and the delete in one transaction. */
  async function remove(table: string, where: Where): Promise<Row | undefined> {
    if (returning) {
      let query = db.deleteFrom(table);
      for (const [column, value] of Object.entries(where)) query = query.where(column, "=", value);
      return (await query.returningAll().executeTakeFirst()) as Row | undefined;
    }
    return db.transaction().execute(async (trx) => {
      let read = trx.selectFrom(table).selectAll().forUpdate();
      for (const [column, value] of Object.entries(where)) read = read.where(column, "=", value);
      const row = (await read.executeTakeFirst()) as Row | undefined;
      if (!row) return undefined;
      let query = trx.deleteFrom(table);
      for (const [column, value] of Object.entries(where)) query = query.where(column, "=", value);
      await query.execute();
      return row;
    });
  }

  const buildSessionAndUser = (sessionToken: unknown) =>
    db
      .selectFrom(`${t.sessions} as s`)
      .innerJoin(`${t.users} as u`, "u.id", "s.userId")
      .select(["s.sessionToken", "s.userId", "s.expires", ...SESSION_LINK_COLUMNS.map((c) => `s.${c}` as const), ...SESSION_PROOF_COLUMNS.map((c) => `s.${c}` as const)])
      .select(["u.id", "u.name", "u.email", "u.emailVerified", "u.image"])
      .where("s.sessionToken", "=", sessionToken);
  // Stands for the token in the query compiled once; each call puts its token in its place.
  const tokenSlot = {};
  let sessionAndUser: CompiledQuery | null | undefined;
  let queryCount = 0;
  /** The session-and-user query for `sessionToken`: the compiled one with the token as its only parameter. */
  function sessionAndUserQuery(sessionToken: string): CompiledQuery {
    if (sessionAndUser === undefined) {
      const compiled = buildSessionAndUser(tokenSlot).compile();
      // Should a Kysely's plugins have made the token appear other than once, it is built every time.
      sessionAndUser = compiled.parameters.filter((p) => p === tokenSlot).length === 1 ? compiled : null;
    }
    if (!sessionAndUser) return buildSessionAndUser(sessionToken).compile();
    // A query id of its own per call: plugins key what they keep between a query and its result by it.
    const parameters = sessionAndUser.parameters.map((p) => (p === tokenSlot ? sessionToken : p));
    return { ...sessionAndUser, parameters, queryId: { queryId: `appauth-${++queryCount}` } };
  }

  function userRow(user: AdapterUser): Row {
    const complete = { name: null, image: null, ...user, id: user.id || newId(), emailVerified: user.emailVerified ?? null };
    return encode(complete, USER_COLUMNS, dialect);
  }

  const adapter: SqlAdapterInstance = {
    async migrate() {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => sqlMigrations(dialect, prefix) },
        migrationTableName: t.migrations,
        migrationLockTableName: t.migrationLock,
      });
      let { error, results } = await migrator.migrateToLatest();
      // SQLite: another process may have applied the same migration meanwhile; a rerun sees it applied
      // (and may meet the other process again at the next migration: once per migration at most).
      const migrations = Object.keys(sqlMigrations(dialect, prefix)).length;
      for (let retry = 0; error && dialect === "sqlite" && retry < migrations; retry++) {
        ({ error, results } = await migrator.migrateToLatest());
      }
      if (error) {
        const failed = results?.find((r) => r.status === "Error")?.migrationName;
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`SqlAdapter: migration ${failed ?? "setup"} failed: ${reason}`, { cause: error });
      }
    },

    async createUser(user) {
      const row = userRow(user);
      await db.insertInto(t.users).values(row).execute();
      return decodeUser(row);
    },

    async getUser(id) {
      const row = await select(db, t.users, { id });
      return row ? decodeUser(row) : null;
    },

    async getUserByEmail(email) {
      if (!email) return null;
      const row = await select(db, t.users, { email });
      return row ? decodeUser(row) : null;
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = (await db
        .selectFrom(`${t.accounts} as a`)
        .innerJoin(`${t.users} as u`, "u.id", "a.userId")
        .selectAll("u")
        .where("a.provider", "=", provider)
        .where("a.providerAccountId", "=", providerAccountId)
        .executeTakeFirst()) as Row | undefined;
      return row ? decodeUser(row) : null;
    },

    async updateUser(user) {
      const { id, ...changes } = user;
      const row = await update(t.users, { id }, encode(changes, USER_COLUMNS, dialect));
      if (!row) throw new Error(`updateUser: no user with id ${JSON.stringify(id)}`);
      return decodeUser(row);
    },

    async deleteUser(userId) {
      // Dependants go explicitly too: SQLite enforces the cascading foreign keys only when asked to.
      const row = await db.transaction().execute(async (trx) => {
        const user = await select(trx, t.users, { id: userId });
        if (!user) return undefined;
        for (const table of [t.accounts, t.sessions, t.authenticators, t.twoFactor, t.recoveryCodes, t.twoFactorVersions]) {
          await trx.deleteFrom(table).where("userId", "=", userId).execute();
        }
        await trx.deleteFrom(t.users).where("id", "=", userId).execute();
        return user;
      });
      return row ? decodeUser(row) : null;
    },

    async linkAccount(account) {
      const row = encode(account, ACCOUNT_COLUMNS, dialect);
      await db.insertInto(t.accounts).values(row).execute();
      return decodeAccount(row);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await remove(t.accounts, { provider, providerAccountId });
      return row ? decodeAccount(row) : undefined;
    },

    async getAccount(providerAccountId, provider) {
      const row = await select(db, t.accounts, { provider, providerAccountId });
      return row ? decodeAccount(row) : null;
    },

    async updateAccount(account) {
      const { provider, providerAccountId } = account;
      const changes = encode(accountChanges(account), ACCOUNT_COLUMNS, dialect);
      const row = await update(t.accounts, { provider, providerAccountId }, changes);
      return row ? decodeAccount(row) : null;
    },

    async createUserAndLinkAccount(user, account) {
      const row = userRow(user);
      await db.transaction().execute(async (trx) => {
        await trx.insertInto(t.users).values(row).execute();
        await trx
          .insertInto(t.accounts)
          .values(encode({ ...account, userId: row.id }, ACCOUNT_COLUMNS, dialect))
          .execute();
      });
      return decodeUser(row);
    },

    async createSession(session) {
      const row = encode(session, SESSION_COLUMNS, dialect);
      await db.insertInto(t.sessions).values(row).execute();
      return decodeSession(row);
    },

    async getSessionAndUser(sessionToken) {
      // The hot path of database sessions: one query, the session joined with its user, built and
      // compiled once (only the token differs from call to call; building it cost more than the read).
      const { rows } = await db.executeQuery<Row>(sessionAndUserQuery(sessionToken));
      const row = rows[0];
      return row ? { session: decodeSession(row), user: decodeUser(row) } : null;
    },

    async updateSession(session) {
      const { sessionToken, ...changes } = session;
      const row = await update(t.sessions, { sessionToken }, encode(changes, SESSION_COLUMNS, dialect));
      return row ? decodeSession(row) : null;
    },

    async deleteSession(sessionToken) {
      const row = await remove(t.sessions, { sessionToken });
      return row ? decodeSession(row) : null;
    },

    async deleteSessionsByAccount(filter) {
      let query = db.deleteFrom(t.sessions);
      for (const [column, value] of Object.entries(sessionMatch(filter))) query = query.where(column, "=", value);
      const { numDeletedRows } = await query.executeTakeFirst();
      return Number(numDeletedRows);
    },

    async listSessions(userId) {
      const rows = (await db.selectFrom(t.sessions).selectAll().where("userId", "=", userId).execute()) as Row[];
      return rows.map(decodeSession);
    },

    async deleteSessions(userId, options = {}) {
      let query = db.deleteFrom(t.sessions).where("userId", "=", userId);
      if (options.except !== undefined) query = query.where("sessionToken", "<>", options.except);
      const { numDeletedRows } = await query.executeTakeFirst();
      return Number(numDeletedRows);
    },

    claimUnverifiedUser: sqlClaims(db, dialect, t),
    acquireLease: leases.acquire,
    releaseLease: leases.release,
    hitRateLimit: rateLimits.hit,
    resetRateLimit: rateLimits.reset,
    saveSessionRevocation: revocations.save,
    getSessionRevocations: revocations.get,
    // Only postgresAdapter, which owns its connection settings, can hold a listening connection.
    watchSessionRevocations: async () => null,
    ...twoFactor,

    async createVerificationToken(token) {
      const row = encode(token, ["identifier", "token", "expires"], dialect);
      // Expired tokens of the same identifier go first, so a store nobody purges stays bounded
      // (WebAuthn challenges, minted for anyone who asks, share one identifier per provider).
      const now = encode({ expires: new Date() }, ["expires"], dialect).expires;
      await db.deleteFrom(t.verificationTokens).where("identifier", "=", token.identifier).where("expires", "<", now).execute();
      await db.insertInto(t.verificationTokens).values(row).execute();
      return decodeVerificationToken(row);
    },

    async useVerificationToken({ identifier, token }) {
      const row = await remove(t.verificationTokens, { identifier, token });
      return row ? decodeVerificationToken(row) : null;
    },

    async createAuthenticator(authenticator) {
      const row = encode({ transports: null, ...authenticator }, AUTHENTICATOR_COLUMNS, dialect);
      await db.insertInto(t.authenticators).values(row).execute();
      return decodeAuthenticator(row);
    },

    async getAuthenticator(credentialID) {
      const row = await select(db, t.authenticators, { credentialID });
      return row ? decodeAuthenticator(row) : null;
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = (await db.selectFrom(t.authenticators).selectAll().where("userId", "=", userId).execute()) as Row[];
      return rows.map(decodeAuthenticator);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await update(t.authenticators, { credentialID }, { counter: newCounter });
      if (!row) throw new Error(`updateAuthenticatorCounter: no authenticator ${JSON.stringify(credentialID)}`);
      return decodeAuthenticator(row);
    },
  };
  const { migrate, ...calls } = adapter;
  return { ...boundCalls(calls, timeout, `SqlAdapter (${dialect})`), migrate };
}
