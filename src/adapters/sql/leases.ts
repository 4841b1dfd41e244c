/**
 * Leases on SQL: one row per key (holder, expires). Taking a lease is atomic across every process on the
 * database, because each step is one statement the database serialises on the key's row:
 *
 * - PostgreSQL and SQLite: `INSERT ... ON CONFLICT (key) DO UPDATE ... WHERE <the stored lease expired>
 *   RETURNING key`. A row comes back when the lease was inserted or taken over; none when it is held.
 * - MySQL/MariaDB, whose `ON DUPLICATE KEY UPDATE` reports "inserted" and "left as it was" alike (both 1
 *   under mysql2's default FOUND_ROWS): `UPDATE ... WHERE key = ? AND expires <= now` takes an expired
 *   lease (the row lock makes a second updater see the new expiry and match nothing); when nothing
 *   matched, `INSERT` takes a free one, and the primary key refuses all but one inserter (ER_DUP_ENTRY:
 *   held).
 *
 * Expired rows are removed by the next lease taken (one indexed DELETE): a logout token's `jti`
 * lease is never taken again, so without it the table would only grow.
 */
import { leaseExpiry } from "../extension-rules.js";
import { encode, LEASE_COLUMNS } from "./codec.js";
import type { AnyKysely, SqlDialect } from "./dialect.js";

export interface SqlLeases {
  acquire(key: string, holder: string, expires: Date): Promise<boolean>;
  release(key: string, holder: string): Promise<void>;
}

const MYSQL_DUPLICATE_ENTRY = 1062;

export function sqlLeases(db: AnyKysely, dialect: SqlDialect, table: string): SqlLeases {
  const now = (): unknown => encode({ expires: new Date() }, ["expires"], dialect).expires;

  async function upsert(row: Record<string, unknown>): Promise<boolean> {
    const taken = await db
      .insertInto(table)
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column("key")
          .doUpdateSet({ holder: row.holder, expires: row.expires })
          .where(`${table}.expires`, "<=", now()),
      )
      .returning("key")
      .executeTakeFirst();
    return taken !== undefined;
  }

  async function updateThenInsert(row: Record<string, unknown>): Promise<boolean> {
    const { numUpdatedRows } = await db
      .updateTable(table)
      .set({ holder: row.holder, expires: row.expires })
      .where("key", "=", row.key)
      .where("expires", "<=", now())
      .executeTakeFirst();
    if (numUpdatedRows > 0n) return true;
    try {
      await db.insertInto(table).values(row).execute();
      return true;
    } catch (error) {
      if ((error as { errno?: unknown }).errno === MYSQL_DUPLICATE_ENTRY) return false;
      throw error;
    }
  }

  return {
    async acquire(key, holder, expires) {
      leaseExpiry(expires);
      const row = encode({ key, holder, expires }, LEASE_COLUMNS, dialect);
      const taken = dialect === "mysql" ? await updateThenInsert(row) : await upsert(row);
      if (taken) await db.deleteFrom(table).where("expires", "<=", now()).where("key", "<>", key).execute();
      return taken;
    },

    async release(key, holder) {
      // One statement: a lease that expired and was taken by someone else is theirs, and stays.
      await db.deleteFrom(table).where("key", "=", key).where("holder", "=", holder).execute();
    },
  };
}
