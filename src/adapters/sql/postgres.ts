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
        return new pg.Pool(config);
      },
    }),
  });
  const adapter = SqlAdapter(db, { dialect: "postgres", tablePrefix: options.tablePrefix });
  return Object.assign(adapter, { db, destroy: () => db.destroy() });
}
