/**
 * Second factors on SQL: TOTP factors in `two_factor`, recovery-code hashes in `recovery_codes`. The
 * single-use rules are single guarded statements the database serialises on the row: a time step is
 * taken by `UPDATE … WHERE lastUsedStep < step` and a recovery code by `DELETE`, each counted by the
 * rows it changed, so of concurrent uses exactly one wins, on every dialect and across processes.
 * Every change of a user's factors raises their version in `two_factor_versions` in the same
 * transaction (one upsert), so a remembered browser is voided by exactly the writes that change them.
 */
import { sql } from "kysely";
import type { TwoFactorAdapter, TwoFactorVersionAdapter } from "../extensions.js";
import type { StoredTotpFactor } from "../../two-factor/types.js";
import { encode, toDate, type Row } from "./codec.js";
import type { AnyKysely, SqlDialect } from "./dialect.js";
import type { TableNames } from "./tables.js";

export const TWO_FACTOR_COLUMNS = ["id", "userId", "type", "label", "secret", "lastUsedStep", "active", "createdAt", "lastUsedAt"] as const;

function decodeFactor(row: Row): StoredTotpFactor {
  const active = row.active;
  return {
    id: String(row.id),
    userId: String(row.userId),
    type: "totp",
    label: (row.label as string | null | undefined) ?? null,
    secret: String(row.secret),
    lastUsedStep: Number(row.lastUsedStep),
    active: active === true || active === 1 || active === "1" || active === 1n,
    createdAt: toDate(row.createdAt) as Date,
    lastUsedAt: toDate(row.lastUsedAt),
  };
}

/** Raises `userId`'s factors version by one (from 0 when they have none yet), in `executor`'s transaction. */
export async function raiseFactorsVersion(executor: AnyKysely, dialect: SqlDialect, table: string, userId: string): Promise<void> {
  const raised = { version: sql`${sql.ref(`${table}.version`)} + 1` };
  const insert = executor.insertInto(table).values({ userId, version: 1 });
  if (dialect === "mysql") await insert.onDuplicateKeyUpdate(raised).execute();
  else await insert.onConflict((conflict) => conflict.column("userId").doUpdateSet(raised)).execute();
}

type Tables = Pick<TableNames, "twoFactor" | "recoveryCodes" | "twoFactorVersions">;

export function sqlTwoFactor(db: AnyKysely, dialect: SqlDialect, t: Tables): TwoFactorAdapter & TwoFactorVersionAdapter {
  const at = (date: Date): unknown => encode({ date }, ["date"], dialect).date;
  /** Runs `write` and raises the user's factors version in one transaction; `write` answers whether it changed anything. */
  const changing = <T>(userId: string, write: (trx: AnyKysely) => Promise<[T, boolean]>): Promise<T> =>
    db.transaction().execute(async (trx) => {
      const [result, changed] = await write(trx);
      if (changed) await raiseFactorsVersion(trx, dialect, t.twoFactorVersions, userId);
      return result;
    });
  const ownFactor = (userId: string, id: string) =>
    db.selectFrom(t.twoFactor).selectAll().where("id", "=", id).where("userId", "=", userId).executeTakeFirst() as Promise<Row | undefined>;

  return {
    async createTwoFactor(factor) {
      const row = encode({ label: null, lastUsedAt: null, ...factor }, TWO_FACTOR_COLUMNS, dialect);
      await changing(factor.userId, async (trx) => [await trx.insertInto(t.twoFactor).values(row).execute(), true]);
      return decodeFactor(row);
    },

    async getTwoFactors(userId) {
      const rows = (await db.selectFrom(t.twoFactor).selectAll().where("userId", "=", userId).orderBy("createdAt").orderBy("id").execute()) as Row[];
      return rows.map(decodeFactor);
    },

    async activateTwoFactor(userId, id) {
      const active = encode({ active: true }, ["active"], dialect);
      await changing(userId, async (trx) => {
        const { numUpdatedRows } = await trx.updateTable(t.twoFactor).set(active).where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
        // MySQL counts changed rows: an already active factor counts 0 there, and is no change.
        return [undefined, Number(numUpdatedRows) === 1];
      });
      const row = await ownFactor(userId, id);
      return row ? decodeFactor(row) : null;
    },

    async deleteTwoFactor(userId, id) {
      return changing(userId, async (trx) => {
        const { numDeletedRows } = await trx.deleteFrom(t.twoFactor).where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
        const deleted = Number(numDeletedRows) === 1;
        return [deleted, deleted];
      });
    },

    async useTotpStep(userId, factorId, step) {
      if (!Number.isSafeInteger(step)) return false;
      const { numUpdatedRows } = await db
        .updateTable(t.twoFactor)
        .set({ lastUsedStep: step, lastUsedAt: at(new Date()) })
        .where("id", "=", factorId)
        .where("userId", "=", userId)
        .where("lastUsedStep", "<", step)
        .executeTakeFirst();
      return Number(numUpdatedRows) === 1;
    },

    async replaceRecoveryCodes(userId, hashes) {
      await changing(userId, async (trx) => {
        await trx.deleteFrom(t.recoveryCodes).where("userId", "=", userId).execute();
        const unique = [...new Set(hashes)];
        if (unique.length) await trx.insertInto(t.recoveryCodes).values(unique.map((hash) => ({ userId, hash }))).execute();
        return [undefined, true];
      });
    },

    async useRecoveryCode(userId, hash) {
      const { numDeletedRows } = await db.deleteFrom(t.recoveryCodes).where("userId", "=", userId).where("hash", "=", hash).executeTakeFirst();
      return Number(numDeletedRows) === 1;
    },

    async countRecoveryCodes(userId) {
      const row = (await db.selectFrom(t.recoveryCodes).select((eb) => eb.fn.countAll().as("count")).where("userId", "=", userId).executeTakeFirst()) as Row | undefined;
      return Number(row?.count ?? 0);
    },

    async getTwoFactorVersion(userId) {
      const row = (await db.selectFrom(t.twoFactorVersions).select("version").where("userId", "=", userId).executeTakeFirst()) as Row | undefined;
      return Number(row?.version ?? 0);
    },
  };
}
