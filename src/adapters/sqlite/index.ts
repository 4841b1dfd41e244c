/**
 * `appauth/adapters/sqlite`: the SQL adapter on an SQLite file (better-sqlite3). This entry reaches
 * no other driver, so an SQLite application needs neither `pg` nor `mysql2` installed for its bundler.
 *
 * ```ts
 * import { sqliteAdapter } from "appauth/adapters/sqlite";
 * const adapter = sqliteAdapter("auth.sqlite"); // tables created on first use outside production
 * ```
 */
import { withFirstUseMigration, type FirstUseOptions } from "../sql/first-use.js";
import type { OwnedSqlAdapter } from "../sql/owned.js";
import { sqliteAdapter as openSqlite, type SqliteAdapterOptions as SqliteConnectionOptions } from "../sql/sqlite.js";

export type { OwnedSqlAdapter } from "../sql/owned.js";
export type { FirstUseOptions } from "../sql/first-use.js";

export interface SqliteAdapterOptions extends SqliteConnectionOptions, FirstUseOptions {}

/**
 * Opens (creating it when missing) the SQLite database `fileName`, or `":memory:"`. Outside
 * production the tables are created on first use; in production run `await adapter.migrate()` once
 * per deploy (or pass `migrate: true`).
 */
export function sqliteAdapter(fileName: string, options: SqliteAdapterOptions = {}): OwnedSqlAdapter {
  return withFirstUseMigration(openSqlite(fileName, { tablePrefix: options.tablePrefix, timeout: options.timeout }), options);
}
