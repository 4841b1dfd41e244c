/**
 * `appauth/adapters/postgres`: the SQL adapter on PostgreSQL (node-postgres). This entry reaches no
 * other driver, so a PostgreSQL application needs neither `better-sqlite3` nor `mysql2` installed.
 *
 * ```ts
 * import { postgresAdapter } from "appauth/adapters/postgres";
 * const adapter = postgresAdapter(process.env.DATABASE_URL!);
 * ```
 */
import { withFirstUseMigration, type FirstUseOptions } from "../sql/first-use.js";
import type { OwnedSqlAdapter } from "../sql/owned.js";
import { postgresAdapter as connectPostgres, type PostgresAdapterOptions as PostgresConnectionOptions } from "../sql/postgres.js";

export type { OwnedSqlAdapter } from "../sql/owned.js";
export type { FirstUseOptions } from "../sql/first-use.js";

export interface PostgresAdapterOptions extends PostgresConnectionOptions, FirstUseOptions {}

/**
 * Connects through a `pg.Pool` built from `poolConfig` (or a connection string). Outside production
 * the tables are created on first use; in production run `await adapter.migrate()` once per deploy.
 */
export function postgresAdapter(
  poolConfig: Parameters<typeof connectPostgres>[0],
  options: PostgresAdapterOptions = {},
): OwnedSqlAdapter {
  return withFirstUseMigration(connectPostgres(poolConfig, { tablePrefix: options.tablePrefix, timeout: options.timeout }), options);
}
