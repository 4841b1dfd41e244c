/**
 * `appauth/adapters/mysql`: the SQL adapter on MySQL or MariaDB (mysql2). This entry reaches no other
 * driver, so a MySQL application needs neither `better-sqlite3` nor `pg` installed.
 *
 * ```ts
 * import { mysqlAdapter } from "appauth/adapters/mysql";
 * const adapter = mysqlAdapter(process.env.DATABASE_URL!);
 * ```
 */
import { withFirstUseMigration, type FirstUseOptions } from "../sql/first-use.js";
import { mysqlAdapter as connectMysql, type MysqlAdapterOptions as MysqlConnectionOptions } from "../sql/mysql.js";
import type { OwnedSqlAdapter } from "../sql/owned.js";

export type { OwnedSqlAdapter } from "../sql/owned.js";
export type { FirstUseOptions } from "../sql/first-use.js";

export interface MysqlAdapterOptions extends MysqlConnectionOptions, FirstUseOptions {}

/**
 * Connects through a mysql2 pool built from `poolConfig` (or a connection URI), reading and writing
 * UTC. Outside production the tables are created on first use; in production run
 * `await adapter.migrate()` once per deploy.
 */
export function mysqlAdapter(poolConfig: Parameters<typeof connectMysql>[0], options: MysqlAdapterOptions = {}): OwnedSqlAdapter {
  return withFirstUseMigration(connectMysql(poolConfig, { tablePrefix: options.tablePrefix, timeout: options.timeout }), options);
}
