/**
 * The rate limiter's counters on SQL: one row per key with its count and the end of its window (ms
 * since the epoch). A hit is one statement the database serialises on the key's row:
 *
 * - PostgreSQL and SQLite: `INSERT ... ON CONFLICT (key) DO UPDATE SET count = CASE <window closed>
 *   THEN 1 ELSE count + 1 END, resetAt = CASE ... END RETURNING count, resetAt`.
 * - MySQL/MariaDB, which has no `RETURNING` there: the same `INSERT ... ON DUPLICATE KEY UPDATE`
 *   (its assignments run left to right: `count` first, while `resetAt` is still the old one), then
 *   a read of the row, both in one transaction so the row lock keeps other hits out in between.
 *
 * A hit that opens a window also removes the windows that have closed (one indexed DELETE).
 */
import { sql, type RawBuilder } from "kysely";
import type { AnyKysely, SqlDialect } from "./dialect.js";

export interface SqlRateLimits {
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: Date }>;
  reset(key: string): Promise<void>;
}

export function sqlRateLimits(db: AnyKysely, dialect: SqlDialect, table: string): SqlRateLimits {
  const ref = (column: string) => sql.ref(`${table}.${column}`);

  function changes(now: number, resetAt: number): { count: RawBuilder<unknown>; resetAt: RawBuilder<unknown> } {
    const closed = sql`${ref("resetAt")} <= ${now}`;
    return {
      count: sql`case when ${closed} then 1 else ${ref("count")} + 1 end`,
      resetAt: sql`case when ${closed} then ${resetAt} else ${ref("resetAt")} end`,
    };
  }

  async function hitReturning(key: string, now: number, resetAt: number): Promise<Record<string, unknown>> {
    return db
      .insertInto(table)
      .values({ key, count: 1, resetAt })
      .onConflict((conflict) => conflict.column("key").doUpdateSet(changes(now, resetAt)))
      .returning(["count", "resetAt"])
      .executeTakeFirstOrThrow();
  }

  async function hitThenRead(key: string, now: number, resetAt: number): Promise<Record<string, unknown>> {
    return db.transaction().execute(async (trx) => {
      await trx.insertInto(table).values({ key, count: 1, resetAt }).onDuplicateKeyUpdate(changes(now, resetAt)).execute();
      return trx.selectFrom(table).select(["count", "resetAt"]).where("key", "=", key).executeTakeFirstOrThrow();
    });
  }

  return {
    async hit(key, windowMs) {
      const now = Date.now();
      const opened = now + Math.max(1, Math.ceil(windowMs));
      const row = dialect === "mysql" ? await hitThenRead(key, now, opened) : await hitReturning(key, now, opened);
      const count = Number(row.count);
      if (count === 1) await db.deleteFrom(table).where("resetAt", "<=", now).execute();
      return { count, resetAt: new Date(Number(row.resetAt)) };
    },

    async reset(key) {
      await db.deleteFrom(table).where("key", "=", key).execute();
    },
  };
}
