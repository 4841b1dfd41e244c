/**
 * Second factors on SQL: TOTP factors in `two_factor`, recovery-code hashes in `recovery_codes`. The
 * single-use rules are single guarded statements the database serialises on the row: a time step is
 * taken by `UPDATE … WHERE lastUsedStep < step` and a recovery code by `DELETE`, each counted by the
 * rows it changed, so of concurrent uses exactly one wins, on every dialect and across processes.
 */
import type { TwoFactorAdapter } from "../extensions.js";
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

export function sqlTwoFactor(db: AnyKysely, dialect: SqlDialect, t: Pick<TableNames, "twoFactor" | "recoveryCodes">): TwoFactorAdapter {
  const at = (date: Date): unknown => encode({ date }, ["date"], dialect).date;
  const ownFactor = (userId: string, id: string) =>
    db.selectFrom(t.twoFactor).selectAll().where("id", "=", id).where("userId", "=", userId).executeTakeFirst() as Promise<Row | undefined>;

  return {
    async createTwoFactor(factor) {
      const row = encode({ label: null, lastUsedAt: null, ...factor }, TWO_FACTOR_COLUMNS, dialect);
      await db.insertInto(t.twoFactor).values(row).execute();
      return decodeFactor(row);
    },

    async getTwoFactors(userId) {
      const rows = (await db.selectFrom(t.twoFactor).selectAll().where("userId", "=", userId).orderBy("createdAt").orderBy("id").execute()) as Row[];
      return rows.map(decodeFactor);
    },

    async activateTwoFactor(userId, id) {
      const active = encode({ active: true }, ["active"], dialect);
      await db.updateTable(t.twoFactor).set(active).where("id", "=", id).where("userId", "=", userId).execute();
      const row = await ownFactor(userId, id);
      return row ? decodeFactor(row) : null;
    },

    async deleteTwoFactor(userId, id) {
      const { numDeletedRows } = await db.deleteFrom(t.twoFactor).where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
      return Number(numDeletedRows) === 1;
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
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom(t.recoveryCodes).where("userId", "=", userId).execute();
        const unique = [...new Set(hashes)];
        if (unique.length) await trx.insertInto(t.recoveryCodes).values(unique.map((hash) => ({ userId, hash }))).execute();
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
  };
}
