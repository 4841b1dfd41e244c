/**
 * Claiming a user nobody verified, on SQL: one transaction that marks the address verified and
 * detaches what was attached to the user (accounts, authenticators, sessions). The guarded UPDATE
 * goes first: it locks the user's row, so a concurrent claim waits for this one and then finds the
 * address verified (no row matched: nothing to do), and nothing attached meanwhile escapes the detach.
 */
import type { ClaimedUser } from "../extensions.js";
import { decodeUser, encode, USER_COLUMNS, type Row } from "./codec.js";
import type { AnyKysely, SqlDialect } from "./dialect.js";
import type { TableNames } from "./tables.js";

export function sqlClaims(
  db: AnyKysely,
  dialect: SqlDialect,
  t: Pick<TableNames, "users" | "accounts" | "sessions" | "authenticators">,
): (userId: string, verifiedAt: Date) => Promise<ClaimedUser | null> {
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
      const accounts = (await trx
        .selectFrom(t.accounts)
        .select(["provider", "providerAccountId"])
        .where("userId", "=", userId)
        .execute()) as Row[];
      const authenticators = (await trx.selectFrom(t.authenticators).select("credentialID").where("userId", "=", userId).execute()) as Row[];
      await trx.deleteFrom(t.accounts).where("userId", "=", userId).execute();
      await trx.deleteFrom(t.authenticators).where("userId", "=", userId).execute();
      const ended = await trx.deleteFrom(t.sessions).where("userId", "=", userId).executeTakeFirst();
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
