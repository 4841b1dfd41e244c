/**
 * `appauth/adapters/sql`: one adapter for PostgreSQL, MySQL/MariaDB and SQLite on Kysely, its schema as
 * migrations, and a constructor per driver. Kysely is this module's optional peer dependency; each
 * driver (pg, mysql2, better-sqlite3) is imported only by its constructor, when first used.
 */
export { SqlAdapter, type SqlAdapterInstance, type SqlAdapterOptions } from "./adapter.js";
export type { AnyKysely, SqlDialect } from "./dialect.js";
export { sqlMigrations } from "./migrations.js";
export { tableNames, type TableNames } from "./tables.js";
export type { OwnedSqlAdapter } from "./owned.js";
export { sqliteAdapter, type SqliteAdapterOptions } from "./sqlite.js";
export { postgresAdapter, type PostgresAdapterOptions } from "./postgres.js";
export { mysqlAdapter, type MysqlAdapterOptions } from "./mysql.js";
