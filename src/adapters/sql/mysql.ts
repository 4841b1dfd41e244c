/**
 * `mysqlAdapter(poolConfig)`: the SQL adapter on MySQL or MariaDB through a mysql2 pool. The driver is
 * imported on first use, so importing `appauth/adapters/sql` loads no driver.
 */
import { Kysely, MysqlDialect } from "kysely";
import type { PoolOptions } from "mysql2";
import { SqlAdapter } from "./adapter.js";
import type { AnyKysely } from "./dialect.js";
import { importDriver, type OwnedSqlAdapter } from "./owned.js";
import { storeTimeoutOf, type StoreTimeoutOptions } from "../time-limits.js";

export interface MysqlAdapterOptions extends StoreTimeoutOptions {
  /** A prefix for every table's name (`auth_` makes `auth_users`); default none. */
  tablePrefix?: string;
}

/**
 * Connects through a mysql2 pool built from `poolConfig` (or a connection URI). `DATETIME` has no time
 * zone, so the pool reads and writes UTC (`timezone: "Z"`) unless `poolConfig` says otherwise: every
 * process then agrees on what a stored expiry means.
 */
export function mysqlAdapter(poolConfig: PoolOptions | string, options: MysqlAdapterOptions = {}): OwnedSqlAdapter {
  const given: PoolOptions = typeof poolConfig === "string" ? { uri: poolConfig } : poolConfig;
  if (poolConfig === undefined || poolConfig === "") {
    throw new TypeError(
      `mysqlAdapter: the connection string is ${poolConfig === "" ? "empty" : "undefined"}. If it comes from process.env (e.g. process.env.DATABASE_URL), that variable is not set in this process: Next.js reads .env.local, but node and tsx read no .env file unless told (node --env-file=.env.local, tsx --env-file=.env.local).`,
    );
  }
  if (typeof given !== "object" || given === null) {
    throw new TypeError("mysqlAdapter: poolConfig must be a mysql2 pool configuration or a connection URI");
  }
  const timeout = storeTimeoutOf("mysqlAdapter", options);
  // Connecting is bounded by the driver (unless poolConfig sets connectTimeout); each call by the adapter.
  const config: PoolOptions = timeout ? { connectTimeout: timeout, ...given } : given;
  const db: AnyKysely = new Kysely({
    dialect: new MysqlDialect({
      pool: async () => {
        const { default: mysql } = await importDriver("mysqlAdapter", "mysql2", () => import("mysql2"));
        return mysql.createPool({ timezone: "Z", ...config });
      },
    }),
  });
  const adapter = SqlAdapter(db, { dialect: "mysql", tablePrefix: options.tablePrefix, timeout });
  return Object.assign(adapter, { db, destroy: () => db.destroy() });
}
