/**
 * Claiming a user nobody verified, on SQL: one transaction that marks the address verified and
 * detaches what was attached to the user (accounts, authenticators, sessions, second factors). The guarded UPDATE
 * goes first: it locks the user's row, so a concurrent claim waits for this one and then finds the
 * address verified (no row matched: nothing to do). What is detached is what the DELETE removed
 * (RETURNING), or on MySQL/MariaDB what a locking read found (its locks keep new rows out until the
 * commit), so the report names everything that went, an account linked meanwhile included.
 */
import type { ClaimedUser } from "../extensions.js";
import { decodeUser, encode, USER_COLUMNS, type Row } from "./codec.js";
import type { AnyKysely, SqlDialect } from "./dialect.js";
import type { TableNames } from "./tables.js";
import { raiseFactorsVersion } from "./two-factor.js";

type Tables = Pick<TableNames, "users" | "accounts" | "sessions" | "authenticators" | "twoFactor" | "recoveryCodes" | "twoFactorVersions">;

export function sqlClaims(db: AnyKysely, dialect: SqlDialect, t: Tables): (userId: string, verifiedAt: Date) => Promise<ClaimedUser | null> {
  const returning = dialect !== "mysql";

  /** Deletes the user's rows of `table` and answers the `columns` of each. */
  async function detach(trx: AnyKysely, table: string, columns: string[], userId: string): Promise<Row[]> {
    if (returning) return (await trx.deleteFrom(table).where("userId", "=", userId).returning(columns).execute()) as Row[];
    const rows = (await trx.selectFrom(table).select(columns).where("userId", "=", userId).forUpdate().execute()) as Row[];
    await trx.deleteFrom(table).where("userId", "=", userId).execute();
    return rows;
  }

  return async function claimUnverifiedUser(userId, verifiedAt) {
    return db.transaction().execute(async (trx) => {
      const verified = encode({ emailVerified: verifiedAt }, USER_COLUMNS, dialect);
      const claimed = await trx
        .updateTable(t.users)
        .set(verified)
        .where("id", "=", userId)
        .where("emailVerified", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return null;
      const accounts = await detach(trx, t.accounts, ["provider", "providerAccountId"], userId);
      const authenticators = await detach(trx, t.authenticators, ["credentialID"], userId);
      const ended = await trx.deleteFrom(t.sessions).where("userId", "=", userId).executeTakeFirst();
      // A squatter's second factor would lock the prover out: it goes with the rest.
      for (const table of [t.twoFactor, t.recoveryCodes]) await trx.deleteFrom(table).where("userId", "=", userId).execute();
      // ...and a browser the squatter had remembered is void (the version goes on, never back to 0).
      await raiseFactorsVersion(trx, dialect, t.twoFactorVersions, userId);
      const user = (await trx.selectFrom(t.users).selectAll().where("id", "=", userId).executeTakeFirstOrThrow()) as Row;
      return {
        user: decodeUser(user),
        accounts: accounts.map((row) => ({ provider: String(row.provider), providerAccountId: String(row.providerAccountId) })),
        authenticators: authenticators.map((row) => String(row.credentialID)),
        sessions: Number(ended.numDeletedRows),
      };
    });
  };
}
