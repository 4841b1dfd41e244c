/**
 * The schema, as Kysely migrations that `SqlAdapter#migrate()` applies through Kysely's `Migrator`
 * (a migrations table records what ran, a lock keeps two processes from running them at once, so
 * `migrate()` is idempotent). SQLite has no such lock, so there every statement is `IF NOT EXISTS` (a
 * column is added only when missing) and `migrate()` retries (once per migration at most) when another process won the race. Columns are camelCase, OAuth values snake_case, as the adapter contract
 * says. Foreign keys cascade; `deleteUser` also deletes the dependants itself, for SQLite connections
 * opened without `PRAGMA foreign_keys = ON`. Never edit a shipped migration: add the next one.
 */
import { sql, type Migration } from "kysely";
import { columnTypes, type AnyKysely, type SqlDialect } from "./dialect.js";
import { tableNames } from "./tables.js";

/** The migrations for one dialect and table prefix, keyed by name (applied in name order). */
export function sqlMigrations(dialect: SqlDialect, tablePrefix = ""): Record<string, Migration> {
  const t = tableNames(tablePrefix);
  const type = columnTypes(dialect);
  const p = tablePrefix;
  // MySQL has no CREATE INDEX IF NOT EXISTS; PostgreSQL and MySQL run migrations under Kysely's lock.
  const guard = dialect === "sqlite";

  /** A migration that adds nullable columns to the sessions table (SQLite: each only when missing). */
  const sessionColumns = (columns: readonly (readonly [string, keyof typeof type])[]): Migration => ({
    async up(db: AnyKysely): Promise<void> {
      for (const [column, kind] of columns) {
        if (guard && (await hasColumn(db, t.sessions, column))) continue;
        await db.schema.alterTable(t.sessions).addColumn(column, type[kind]).execute();
      }
    },

    async down(db: AnyKysely): Promise<void> {
      for (const [column] of columns) {
        await db.schema.alterTable(t.sessions).dropColumn(column).execute();
      }
    },
  });

  return {
    "0001_initial": {
      async up(db: AnyKysely): Promise<void> {
        await db.schema
          .createTable(t.users)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("id", type.key, (c) => c.primaryKey())
          .addColumn("name", type.text)
          // Nullable: a user from a provider that gave no email has none (NULLs never collide).
          .addColumn("email", type.key)
          .addColumn("emailVerified", type.timestamp)
          .addColumn("image", type.text)
          .addUniqueConstraint(`${p}users_email_key`, ["email"])
          .execute();

        await db.schema
          .createTable(t.accounts)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("type", type.key, (c) => c.notNull())
          .addColumn("provider", type.key, (c) => c.notNull())
          .addColumn("providerAccountId", type.key, (c) => c.notNull())
          .addColumn("refresh_token", type.text)
          .addColumn("access_token", type.text)
          .addColumn("expires_at", type.bigint)
          .addColumn("token_type", type.key)
          .addColumn("scope", type.text)
          .addColumn("id_token", type.text)
          .addColumn("session_state", type.text)
          .addPrimaryKeyConstraint(`${p}accounts_pkey`, ["provider", "providerAccountId"])
          .addForeignKeyConstraint(`${p}accounts_userId_fkey`, ["userId"], t.users, ["id"], (fk) =>
            fk.onDelete("cascade"),
          )
          .execute();
        await db.schema
          .createIndex(`${p}accounts_userId_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.accounts).column("userId").execute();

        await db.schema
          .createTable(t.sessions)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("sessionToken", type.key, (c) => c.primaryKey())
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("expires", type.timestamp, (c) => c.notNull())
          .addForeignKeyConstraint(`${p}sessions_userId_fkey`, ["userId"], t.users, ["id"], (fk) =>
            fk.onDelete("cascade"),
          )
          .execute();
        await db.schema
          .createIndex(`${p}sessions_userId_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.sessions).column("userId").execute();

        await db.schema
          .createTable(t.verificationTokens)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("identifier", type.key, (c) => c.notNull())
          .addColumn("token", type.key, (c) => c.notNull())
          .addColumn("expires", type.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${p}verification_tokens_pkey`, ["identifier", "token"])
          .execute();

        await db.schema
          .createTable(t.authenticators)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("credentialID", type.key, (c) => c.primaryKey())
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("providerAccountId", type.key, (c) => c.notNull())
          .addColumn("credentialPublicKey", type.text, (c) => c.notNull())
          .addColumn("counter", type.bigint, (c) => c.notNull())
          .addColumn("credentialDeviceType", type.key, (c) => c.notNull())
          .addColumn("credentialBackedUp", type.boolean, (c) => c.notNull())
          .addColumn("transports", type.key)
          .addForeignKeyConstraint(`${p}authenticators_userId_fkey`, ["userId"], t.users, ["id"], (fk) =>
            fk.onDelete("cascade"),
          )
          .execute();
        await db.schema
          .createIndex(`${p}authenticators_userId_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.authenticators).column("userId").execute();
      },

      async down(db: AnyKysely): Promise<void> {
        for (const table of [t.authenticators, t.verificationTokens, t.sessions, t.accounts, t.users]) {
          await db.schema.dropTable(table).execute();
        }
      },
    },

    // Sessions remember the provider account (and the provider's session) they were signed in with, so
    // a back-channel logout finds them; leases let one process at a time refresh an account's tokens.
    "0002_session_links_and_leases": {
      async up(db: AnyKysely): Promise<void> {
        for (const column of SESSION_LINK_COLUMNS) {
          if (guard && (await hasColumn(db, t.sessions, column))) continue;
          await db.schema.alterTable(t.sessions).addColumn(column, type.key).execute();
        }
        for (const [name, column] of SESSION_LINK_INDEXES) {
          await db.schema
            .createIndex(`${p}sessions_${name}_idx`)
            .$call((b) => (guard ? b.ifNotExists() : b))
            .on(t.sessions)
            .columns(["provider", column])
            .execute();
        }

        await db.schema
          .createTable(t.leases)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("key", type.longKey, (c) => c.primaryKey())
          .addColumn("holder", type.key, (c) => c.notNull())
          .addColumn("expires", type.timestamp, (c) => c.notNull())
          .execute();
        // Expired leases are purged by expiry.
        await db.schema
          .createIndex(`${p}leases_expires_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.leases)
          .column("expires")
          .execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.dropTable(t.leases).execute();
        for (const [name] of SESSION_LINK_INDEXES) {
          await db.schema
            .dropIndex(`${p}sessions_${name}_idx`)
            .$call((b) => (dialect === "mysql" ? b.on(t.sessions) : b))
            .execute();
        }
        // One column per statement: SQLite alters one at a time.
        for (const column of SESSION_LINK_COLUMNS) {
          await db.schema.alterTable(t.sessions).dropColumn(column).execute();
        }
      },
    },

    // The rate limiter's counters (issue 18): one row per key (a hash), its count and when its window closes (ms).
    "0003_rate_limits": {
      async up(db: AnyKysely): Promise<void> {
        await db.schema
          .createTable(t.rateLimits)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("key", type.key, (c) => c.primaryKey())
          .addColumn("count", type.bigint, (c) => c.notNull())
          .addColumn("resetAt", type.bigint, (c) => c.notNull())
          .execute();
        // Closed windows are purged by expiry.
        await db.schema
          .createIndex(`${p}rate_limits_resetAt_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.rateLimits)
          .column("resetAt")
          .execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.dropTable(t.rateLimits).execute();
      },
    },

    // Revocations of JWT sessions (issue 32): one row per user ("signed in before revokedAt", sessionId
    // ''), one per session revoked by id; times in ms; a row may go once `expires` has passed.
    "0004_session_revocations": {
      async up(db: AnyKysely): Promise<void> {
        await db.schema
          .createTable(t.sessionRevocations)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("sessionId", type.key, (c) => c.notNull())
          .addColumn("revokedAt", type.bigint, (c) => c.notNull())
          .addColumn("keptSessionId", type.key)
          .addColumn("expires", type.bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${p}session_revocations_pkey`, ["userId", "sessionId"])
          .execute();
        await db.schema
          .createIndex(`${p}session_revocations_expires_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.sessionRevocations)
          .column("expires")
          .execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.dropTable(t.sessionRevocations).execute();
      },
    },

    // What a person sees of each of their sessions (issue 32): when it began and was last seen, how
    // they signed in, from which device and address. Nullable: sessions from before know none of it.
    "0005_session_info": sessionColumns(SESSION_INFO_COLUMNS),

    // DPoP (RFC 9449): the key pair an account's tokens are bound to, sealed with the secret.
    "0006_account_dpop_key": {
      async up(db: AnyKysely): Promise<void> {
        if (guard && (await hasColumn(db, t.accounts, "dpop_jwk"))) return;
        await db.schema.alterTable(t.accounts).addColumn("dpop_jwk", type.text).execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.alterTable(t.accounts).dropColumn("dpop_jwk").execute();
      },
    },

    // Second factors (issue 28): TOTP factors with their sealed secrets and last used time step, and
    // recovery codes as keyed hashes, one row each (a use deletes it).
    "0007_two_factor": {
      async up(db: AnyKysely): Promise<void> {
        await db.schema
          .createTable(t.twoFactor)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("id", type.key, (c) => c.primaryKey())
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("type", type.key, (c) => c.notNull())
          .addColumn("label", type.text)
          .addColumn("secret", type.text, (c) => c.notNull())
          .addColumn("lastUsedStep", type.bigint, (c) => c.notNull())
          .addColumn("active", type.boolean, (c) => c.notNull())
          .addColumn("createdAt", type.timestamp, (c) => c.notNull())
          .addColumn("lastUsedAt", type.timestamp)
          .addForeignKeyConstraint(`${p}two_factor_userId_fkey`, ["userId"], t.users, ["id"], (fk) => fk.onDelete("cascade"))
          .execute();
        await db.schema
          .createIndex(`${p}two_factor_userId_idx`)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .on(t.twoFactor)
          .column("userId")
          .execute();

        await db.schema
          .createTable(t.recoveryCodes)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("userId", type.key, (c) => c.notNull())
          .addColumn("hash", type.key, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${p}recovery_codes_pkey`, ["userId", "hash"])
          .addForeignKeyConstraint(`${p}recovery_codes_userId_fkey`, ["userId"], t.users, ["id"], (fk) => fk.onDelete("cascade"))
          .execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.dropTable(t.recoveryCodes).execute();
        await db.schema.dropTable(t.twoFactor).execute();
      },
    },

    // What a database session's sign-in proved (issue 28): RFC 8176 `amr` values (space-separated) and
    // when. Nullable: older sessions, and sign-ins without a twoFactor configuration, record none.
    "0008_session_amr": sessionColumns(SESSION_PROOF_COLUMNS),

    // Each user's factors version (issue 28, remembered browsers): a counter raised in the same
    // transaction as every change of the user's factors; a remembered browser names the version it saw.
    "0009_two_factor_versions": {
      async up(db: AnyKysely): Promise<void> {
        await db.schema
          .createTable(t.twoFactorVersions)
          .$call((b) => (guard ? b.ifNotExists() : b))
          .addColumn("userId", type.key, (c) => c.primaryKey())
          .addColumn("version", type.bigint, (c) => c.notNull())
          .addForeignKeyConstraint(`${p}two_factor_versions_userId_fkey`, ["userId"], t.users, ["id"], (fk) => fk.onDelete("cascade"))
          .execute();
      },

      async down(db: AnyKysely): Promise<void> {
        await db.schema.dropTable(t.twoFactorVersions).execute();
      },
    },
  };
}

const SESSION_LINK_COLUMNS = ["provider", "providerAccountId", "providerSessionId"] as const;
const SESSION_INFO_COLUMNS = [
  ["createdAt", "timestamp"],
  ["lastSeenAt", "timestamp"],
  ["signInMethod", "key"],
  ["device", "key"],
  ["clientAddress", "key"],
] as const;
const SESSION_PROOF_COLUMNS = [
  ["amr", "key"],
  ["authTime", "timestamp"],
] as const;
/** The lookups of `deleteSessionsByAccount`: by provider account, and by the provider's session. */
const SESSION_LINK_INDEXES = [
  ["provider_account", "providerAccountId"],
  ["provider_session", "providerSessionId"],
] as const;

/** SQLite: whether `table` has `column` (ALTER TABLE ADD COLUMN has no IF NOT EXISTS there). */
async function hasColumn(db: AnyKysely, table: string, column: string): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.some((row) => row.name === column);
}
