/**
 * `postgresAdapter(poolConfig)`: the SQL adapter on PostgreSQL through a node-postgres pool. The driver
 * is imported on first use, so importing `appauth/adapters/sql` loads no driver.
 */
import { Kysely, PostgresDialect } from "kysely";
import type { PoolConfig } from "pg";
import { SqlAdapter } from "./adapter.js";
import type { AnyKysely } from "./dialect.js";
import { importDriver, type OwnedSqlAdapter } from "./owned.js";

export interface PostgresAdapterOptions {
  tablePrefix?: string;
}

/** Connects through a `pg.Pool` built from `poolConfig` (or a connection string). */
export function postgresAdapter(poolConfig: PoolConfig | string, options: PostgresAdapterOptions = {}): OwnedSqlAdapter {
  const config = typeof poolConfig === "string" ? { connectionString: poolConfig } : poolConfig;
  if (typeof config !== "object" || config === null) {
    throw new TypeError("postgresAdapter: poolConfig must be a pg pool configuration or a connection string");
  }
  const db: AnyKysely = new Kysely({
    dialect: new PostgresDialect({
      pool: async () => {
        const { default: pg } = await importDriver("postgresAdapter", "pg", () => import("pg"));
        const pool = new pg.Pool(config);
        // A connection that drops (database restart, network) emits "error" on the pool when idle and on
        // the client when checked out (Kysely listens on neither); unheard, either event crashes the
        // process. The queries in flight still reject with the error; the pool reconnects on next use.
        const ignore = () => {};
        pool.on("error", ignore);
        pool.on("connect", (client) => client.on("error", ignore));
        return pool;
      },
    }),
  });
  const adapter = SqlAdapter(db, { dialect: "postgres", tablePrefix: options.tablePrefix });
  return Object.assign(adapter, { db, destroy: () => db.destroy() });
}
