/**
 * The real servers the adapter tests run against (DESIGN §8), each in a throwaway namespace: a fresh
 * PostgreSQL database, a fresh MariaDB/MySQL database, a random Redis key prefix, a temp SQLite file.
 * A server that cannot be reached fails the run under CI (`CI=true`) and is skipped, loudly, elsewhere.
 * Addresses can be overridden with APPAUTH_TEST_POSTGRES_URL, APPAUTH_TEST_MYSQL_URL, APPAUTH_TEST_REDIS_URL.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type LogEvent } from "kysely";
import mysql from "mysql2";
import mysqlPromise from "mysql2/promise";
import pg from "pg";
import { describe, it } from "vitest";
import type { AnyKysely } from "../../../src/adapters/sql/index.js";

export const POSTGRES_URL = process.env.APPAUTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const MYSQL_URL = process.env.APPAUTH_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
export const REDIS_URL = process.env.APPAUTH_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A name no other run uses: databases and key prefixes of concurrent runs never meet. */
export function runId(): string {
  return `appauth_test_${Date.now().toString(36)}_${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Probes a server. Reachable: undefined. Unreachable under CI: registers a failing test that names the
 * server and returns a skip reason for the rest. Unreachable elsewhere: warns and returns a skip reason.
 */
export async function availability(server: string, probe: () => Promise<void>): Promise<string | undefined> {
  try {
    await probe();
    return undefined;
  } catch (error) {
    const reason = `${server} is not reachable: ${error instanceof Error ? error.message : String(error)}`;
    if (process.env.CI === "true") {
      describe(`${server} (required under CI)`, () => {
        it("is reachable", () => {
          throw new Error(`${reason}. The adapter tests need a real ${server} (DESIGN §8).`);
        });
      });
    } else {
      console.warn(`\n!!! SKIPPING the ${server} adapter tests: ${reason}\n!!! (under CI=true this fails the run)\n`);
    }
    return reason;
  }
}

/** A throwaway SQL database: Kysely instances on it (optionally logging), and its removal. */
export interface ScratchDatabase {
  /** A connection string or file for the adapter's own constructor. */
  location: string;
  kysely(log?: (event: LogEvent) => void): AnyKysely;
  drop(): Promise<void>;
}

export type SqlTarget = () => Promise<ScratchDatabase>;

async function probePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.end();
}

export async function scratchPostgres(): Promise<ScratchDatabase> {
  const name = runId();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const instances: AnyKysely[] = [];
  return {
    location: url.href,
    kysely(log) {
      const pool = new pg.Pool({ connectionString: url.href, max: 10 });
      // drop() ends the database WITH (FORCE): a connection still closing then hears FATAL 57P01, which
      // unheard would surface as an unhandled error of the run (as postgresAdapter, listen and ignore).
      const ignore = (): void => {};
      pool.on("error", ignore);
      pool.on("connect", (client) => client.on("error", ignore));
      const db: AnyKysely = new Kysely({
        dialect: new PostgresDialect({ pool }),
        ...(log ? { log } : {}),
      });
      instances.push(db);
      return db;
    },
    async drop() {
      await Promise.all(instances.map((db) => db.destroy()));
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

async function probeMysql(): Promise<void> {
  const connection = await mysqlPromise.createConnection({ uri: MYSQL_URL, connectTimeout: 2000 });
  await connection.end();
}

export async function scratchMysql(): Promise<ScratchDatabase> {
  const name = runId();
  const admin = await mysqlPromise.createConnection({ uri: MYSQL_URL });
  await admin.query(`CREATE DATABASE \`${name}\``);
  await admin.end();
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  const instances: AnyKysely[] = [];
  return {
    location: url.href,
    kysely(log) {
      const db: AnyKysely = new Kysely({
        dialect: new MysqlDialect({ pool: mysql.createPool({ uri: url.href, timezone: "Z", connectionLimit: 10 }) }),
        ...(log ? { log } : {}),
      });
      instances.push(db);
      return db;
    },
    async drop() {
      await Promise.all(instances.map((db) => db.destroy()));
      const connection = await mysqlPromise.createConnection({ uri: MYSQL_URL });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

export async function scratchSqlite(): Promise<ScratchDatabase> {
  const dir = await mkdtemp(join(tmpdir(), "appauth-sqlite-"));
  const file = join(dir, "auth.db");
  const instances: AnyKysely[] = [];
  return {
    location: file,
    kysely(log) {
      const database = new Database(file);
      database.pragma("journal_mode = WAL");
      database.pragma("foreign_keys = ON");
      database.pragma("busy_timeout = 5000");
      const db: AnyKysely = new Kysely({ dialect: new SqliteDialect({ database }), ...(log ? { log } : {}) });
      instances.push(db);
      return db;
    },
    async drop() {
      await Promise.all(instances.map((db) => db.destroy()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const postgresAvailability = (): Promise<string | undefined> => availability("PostgreSQL", probePostgres);
export const mysqlAvailability = (): Promise<string | undefined> => availability("MariaDB/MySQL", probeMysql);

export const redisAvailability = (): Promise<string | undefined> =>
  availability("Redis", async () => {
    const client = new Redis(REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    let failure: Error | undefined;
    client.on("error", (error: Error) => (failure ??= error));
    try {
      await client.connect().catch((error: unknown) => {
        throw failure ?? error;
      });
      await client.ping();
    } finally {
      client.disconnect();
    }
  });

/** Deletes every key under `prefix` (SCAN, never KEYS, so a shared server is not blocked). */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (found.length > 0) await client.del(...found);
    cursor = next;
  } while (cursor !== "0");
}
