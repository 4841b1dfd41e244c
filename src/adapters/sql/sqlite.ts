/**
 * `sqliteAdapter(fileName)`: the SQL adapter on an SQLite file through better-sqlite3, appauth's embedded
 * default. The driver is imported on first use, so importing `appauth/adapters/sql` loads no driver.
 */
import { Kysely, SqliteDialect } from "kysely";
import { SqlAdapter } from "./adapter.js";
import type { AnyKysely } from "./dialect.js";
import { importDriver, type OwnedSqlAdapter } from "./owned.js";
import { storeTimeoutOf, type StoreTimeoutOptions } from "../time-limits.js";

export interface SqliteAdapterOptions extends StoreTimeoutOptions {
  /** A prefix for every table's name (`auth_` makes `auth_users`); default none. */
  tablePrefix?: string;
}

/**
 * Opens (creating it when missing) the SQLite database `fileName` — or `":memory:"` — with foreign keys
 * enforced, write-ahead logging and a busy timeout, so several processes can share the file.
 */
export function sqliteAdapter(fileName: string, options: SqliteAdapterOptions = {}): OwnedSqlAdapter {
  if (typeof fileName !== "string" || fileName === "") {
    throw new TypeError("sqliteAdapter: fileName must be a non-empty path or \":memory:\"");
  }
  const timeout = storeTimeoutOf("sqliteAdapter", options);
  const db: AnyKysely = new Kysely({
    dialect: new SqliteDialect({
      database: async () => {
        const driver = await importDriver("sqliteAdapter", "better-sqlite3", () => import("better-sqlite3"));
        const connection = new driver.default(fileName);
        connection.pragma("journal_mode = WAL");
        connection.pragma("foreign_keys = ON");
        // A file locked by another process is waited for as long as a call may take, then fails.
        connection.pragma(`busy_timeout = ${timeout || 5000}`);
        return reusingStatements(connection);
      },
    }),
  });
  const adapter = SqlAdapter(db, { dialect: "sqlite", tablePrefix: options.tablePrefix, timeout });
  return Object.assign(adapter, { db, destroy: () => db.destroy() });
}

/** How many prepared statements a connection keeps for reuse (the adapter's queries are far fewer). */
const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely's SQLite driver prepares every query it runs; preparing cost more than running the session
 * read. The adapter's queries repeat the same SQL text, so each text's statement is kept and reused
 * (a statement still iterating, which cannot be reused, is prepared anew).
 */
function reusingStatements<C extends { prepare(sql: string): { busy: boolean } }>(connection: C): C {
  const prepare = connection.prepare.bind(connection);
  const statements = new Map<string, ReturnType<C["prepare"]>>();
  connection.prepare = ((sql: string) => {
    const kept = statements.get(sql);
    if (kept && !kept.busy) return kept;
    const statement = prepare(sql) as ReturnType<C["prepare"]>;
    if (!kept) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    return statement;
  }) as C["prepare"];
  return connection;
}
