/**
 * `postgresAdapter(poolConfig)`: the SQL adapter on PostgreSQL through a node-postgres pool. The driver
 * is imported on first use, so importing `appauth/adapters/sql` loads no driver.
 */
import { Kysely, PostgresDialect } from "kysely";
import type { PoolConfig } from "pg";
import { SqlAdapter } from "./adapter.js";
import type { AnyKysely } from "./dialect.js";
import { importDriver, type OwnedSqlAdapter } from "./owned.js";
import { storeTimeoutOf, withinTime, type StoreTimeoutOptions } from "../time-limits.js";
import type { RevocationNotice } from "../extensions.js";
import { listenForRevocations } from "./postgres-listen.js";
import { revocationChannel } from "./revocations.js";

export interface PostgresAdapterOptions extends StoreTimeoutOptions {
  /** A prefix for every table's name (`auth_` makes `auth_users`); default none. */
  tablePrefix?: string;
}

/**
 * Connects through a `pg.Pool` built from `poolConfig` (or a connection string). Each adapter call,
 * connecting included, is bounded by `options.timeout` (default 5000 ms; `poolConfig`'s own
 * `connectionTimeoutMillis` wins for connecting).
 */
export function postgresAdapter(poolConfig: PoolConfig | string, options: PostgresAdapterOptions = {}): OwnedSqlAdapter {
  const given = typeof poolConfig === "string" ? { connectionString: poolConfig } : poolConfig;
  if (poolConfig === undefined || poolConfig === "") {
    throw new TypeError(
      `postgresAdapter: the connection string is ${poolConfig === "" ? "empty" : "undefined"}. If it comes from process.env (e.g. process.env.DATABASE_URL), that variable is not set in this process: Next.js reads .env.local, but node and tsx read no .env file unless told (node --env-file=.env.local, tsx --env-file=.env.local).`,
    );
  }
  if (typeof given !== "object" || given === null) {
    throw new TypeError("postgresAdapter: poolConfig must be a pg pool configuration or a connection string");
  }
  const timeout = storeTimeoutOf("postgresAdapter", options);
  // pg waits forever by default for a connection (new, or free in the pool): bounded unless the pool
  // configuration says otherwise. An answer is bounded by the adapter's own limit on each call: a
  // stalled connection then stays checked out until it answers or dies, never handed to another query.
  const config: PoolConfig = timeout ? { connectionTimeoutMillis: timeout, ...given } : given;
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
  const adapter = SqlAdapter(db, { dialect: "postgres", tablePrefix: options.tablePrefix, timeout });
  // Revocations are told to every instance through LISTEN/NOTIFY (revocations.ts sends them).
  const listening = new Set<() => Promise<void>>();
  const channel = revocationChannel(options.tablePrefix);
  async function watchSessionRevocations(onNotice: (notice: RevocationNotice) => void): Promise<() => Promise<void>> {
    const stop = await withinTime(listenForRevocations(config, channel, onNotice), timeout, "postgresAdapter: watchSessionRevocations");
    const stopOnce = async () => {
      if (listening.delete(stopOnce)) await stop();
    };
    listening.add(stopOnce);
    return stopOnce;
  }
  async function destroy(): Promise<void> {
    await Promise.all([...listening].map((stop) => stop()));
    await db.destroy();
  }
  return Object.assign(adapter, { db, destroy, watchSessionRevocations });
}
