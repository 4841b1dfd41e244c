/**
 * Which SQL dialect a Kysely instance speaks, and the column types each one stores our values in.
 * Dates are `timestamptz` on PostgreSQL, `DATETIME(3)` (UTC through the driver) on MySQL/MariaDB and
 * integer milliseconds on SQLite, which has no date type; booleans are 0/1 where there is no boolean.
 */
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Kysely, type RawBuilder } from "kysely";

export type SqlDialect = "postgres" | "mysql" | "sqlite";

/** A Kysely instance over any schema: the adapter names its own tables (behind a configurable prefix). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely<any> is how Kysely spells "any schema"
export type AnyKysely = Kysely<any>;

/**
 * Detects the dialect from the Kysely adapter. Third-party dialects reuse Kysely's adapters
 * (`kysely-postgres-js`, libSQL, PlanetScale...), so `instanceof` covers them too.
 */
export function detectDialect(db: AnyKysely): SqlDialect {
  // getExecutor() is marked internal in Kysely's typings but is the one place the adapter is reachable.
  const adapter = (db as unknown as { getExecutor?(): { adapter?: unknown } }).getExecutor?.().adapter;
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  if (adapter instanceof SqliteAdapter) return "sqlite";
  throw new TypeError(
    'SqlAdapter: cannot tell the SQL dialect of this Kysely instance; pass options.dialect ("postgres", "mysql" or "sqlite")',
  );
}

export interface ColumnTypes {
  /** Keys and short strings compared exactly (binary collation on MySQL, where the default ignores case). */
  key: RawBuilder<unknown>;
  /** A key the caller composes from several parts (a lease's): as long as a primary key may be. */
  longKey: RawBuilder<unknown>;
  text: RawBuilder<unknown>;
  timestamp: RawBuilder<unknown>;
  boolean: RawBuilder<unknown>;
  bigint: RawBuilder<unknown>;
}

export function columnTypes(dialect: SqlDialect): ColumnTypes {
  switch (dialect) {
    case "postgres":
      return {
        key: sql`varchar(255)`,
        longKey: sql`text`,
        text: sql`text`,
        timestamp: sql`timestamptz`,
        boolean: sql`boolean`,
        bigint: sql`bigint`,
      };
    case "mysql":
      return {
        key: sql`varchar(255) character set utf8mb4 collate utf8mb4_bin`,
        // InnoDB keys hold at most 3072 bytes: 768 four-byte characters.
        longKey: sql`varchar(768) character set utf8mb4 collate utf8mb4_bin`,
        text: sql`text`,
        timestamp: sql`datetime(3)`,
        boolean: sql`boolean`,
        bigint: sql`bigint`,
      };
    case "sqlite":
      return { key: sql`text`, longKey: sql`text`, text: sql`text`, timestamp: sql`integer`, boolean: sql`integer`, bigint: sql`integer` };
  }
}
