/**
 * Revocations of JWT sessions on SQL (see session/revocation.ts): one row per user (`sessionId` '',
 * "every session signed in before `revokedAt`, but `keptSessionId`") and one per session revoked by
 * id, each upserted in one statement. Times are milliseconds since the epoch. Writing one also
 * removes the rows whose `expires` has passed (one indexed DELETE).
 *
 * PostgreSQL tells every listener: `pg_notify` in the writing transaction, so the notice is sent
 * when, and only if, the row is committed (`postgresAdapter` listens: see postgres.ts). MySQL/MariaDB
 * and SQLite cannot notify: readers re-read about every second.
 */
import { sql } from "kysely";
import type { AnyKysely, SqlDialect } from "./dialect.js";
import type { SessionRevocation, StoredRevocations } from "../extensions.js";

/** The PostgreSQL channel of a table prefix's revocation notices (its payload: the user's id). */
export function revocationChannel(tablePrefix = ""): string {
  return `${tablePrefix}appauth_session_revocations`;
}

export interface SqlRevocations {
  save(revocation: SessionRevocation): Promise<void>;
  get(userId: string): Promise<StoredRevocations>;
}

export function sqlRevocations(db: AnyKysely, dialect: SqlDialect, table: string, channel: string): SqlRevocations {
  return {
    async save({ userId, sessionId, exceptSessionId, revokedAt, expires }) {
      const now = Date.now();
      const values = {
        userId,
        sessionId: sessionId ?? "",
        revokedAt: revokedAt.getTime(),
        keptSessionId: sessionId === undefined ? (exceptSessionId ?? null) : null,
        expires: expires.getTime(),
      };
      const changes = { revokedAt: values.revokedAt, keptSessionId: values.keptSessionId, expires: values.expires };
      await db.transaction().execute(async (trx) => {
        const insert = trx.insertInto(table).values(values);
        await (dialect === "mysql"
          ? insert.onDuplicateKeyUpdate(changes)
          : insert.onConflict((conflict) => conflict.columns(["userId", "sessionId"]).doUpdateSet(changes))
        ).execute();
        await trx.deleteFrom(table).where("expires", "<=", now).execute();
        if (dialect === "postgres") await sql`select pg_notify(${channel}, ${userId})`.execute(trx);
      });
    },

    async get(userId) {
      const rows = (await db
        .selectFrom(table)
        .select(["sessionId", "revokedAt", "keptSessionId"])
        .where("userId", "=", userId)
        .where("expires", ">", Date.now())
        .execute()) as { sessionId: string; revokedAt: unknown; keptSessionId: string | null }[];
      const user = rows.find((row) => row.sessionId === "");
      return {
        revokedBefore: user ? new Date(Number(user.revokedAt)) : null,
        keptSessionId: user?.keptSessionId ?? null,
        sessionIds: rows.filter((row) => row.sessionId !== "").map((row) => row.sessionId),
      };
    },
  };
}
