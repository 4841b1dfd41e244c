/**
 * The published Auth.js adapters (`@auth/*-adapter`), each over the schema its documentation gives for
 * PostgreSQL (written here as DDL, from authjs.dev), in a fresh database of its own. unstorage keeps
 * its records in memory (its documented drivers are key-value stores; no schema).
 *
 * One deviation from the documents, said where it is: the Kysely page declares `email` NOT NULL, which
 * no Auth.js app with GitHub users who hide their address can keep (Auth.js stores `null` for them too);
 * the column here is nullable and unique, as the Drizzle and TypeORM schemas have it.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { KyselyAdapter, type Database } from "@auth/kysely-adapter";
import PostgresAdapter from "@auth/pg-adapter";
import { entities as typeormEntities, getManager, TypeORMAdapter } from "@auth/typeorm-adapter";
import { UnstorageAdapter } from "@auth/unstorage-adapter";
import { drizzle } from "drizzle-orm/node-postgres";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { createStorage } from "unstorage";
import type { Adapter } from "../../../src/types.js";
import { scratchPostgres } from "./servers.js";

/** An adapter on its own store, and how to close it and remove the store. */
export interface PublishedAdapterInstance {
  adapter: Adapter;
  close(): Promise<void>;
}

export interface PublishedAdapter {
  /** The package, as users install it. */
  name: string;
  /** Whether it needs PostgreSQL (unstorage does not). */
  postgres: boolean;
  /**
   * Where the published version breaks the Auth.js contract itself, so the suite's Auth.js-contract part
   * is not run on it (appauth copes; published-adapters.test.ts shows it under the handler).
   */
  contractDeviation?: string;
  start(): Promise<PublishedAdapterInstance>;
}

/** https://authjs.dev/getting-started/adapters/pg */
const PG_SCHEMA = `
CREATE TABLE verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE accounts (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  PRIMARY KEY (id)
);
CREATE TABLE sessions (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
);
CREATE TABLE users (
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);`;

/** https://authjs.dev/getting-started/adapters/kysely (its migration, for PostgreSQL), email nullable (see above). */
const KYSELY_SCHEMA = `
CREATE TABLE "User" (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  name TEXT,
  email TEXT UNIQUE,
  "emailVerified" TIMESTAMPTZ,
  image TEXT
);
CREATE TABLE "Account" (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  "userId" UUID NOT NULL REFERENCES "User"(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  provider TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  token_type TEXT,
  scope TEXT,
  id_token TEXT,
  session_state TEXT
);
CREATE INDEX "Account_userId_index" ON "Account" ("userId");
CREATE TABLE "Session" (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  "userId" UUID NOT NULL REFERENCES "User"(id) ON DELETE CASCADE,
  "sessionToken" TEXT NOT NULL UNIQUE,
  expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX "Session_userId_index" ON "Session" ("userId");
CREATE TABLE "VerificationToken" (
  identifier TEXT NOT NULL,
  token TEXT NOT NULL UNIQUE,
  expires TIMESTAMPTZ NOT NULL
);`;

/** https://authjs.dev/getting-started/adapters/drizzle (the default PostgreSQL tables, as drizzle-kit creates them). */
const DRIZZLE_SCHEMA = `
CREATE TABLE "user" (
  id TEXT PRIMARY KEY,
  name TEXT,
  email TEXT UNIQUE,
  "emailVerified" TIMESTAMP,
  image TEXT
);
CREATE TABLE account (
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  provider TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at INTEGER,
  token_type TEXT,
  scope TEXT,
  id_token TEXT,
  session_state TEXT,
  PRIMARY KEY (provider, "providerAccountId")
);
CREATE TABLE session (
  "sessionToken" TEXT PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  expires TIMESTAMP NOT NULL
);
CREATE TABLE "verificationToken" (
  identifier TEXT NOT NULL,
  token TEXT NOT NULL,
  expires TIMESTAMP NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE authenticator (
  "credentialID" TEXT NOT NULL UNIQUE,
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  counter INTEGER NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" BOOLEAN NOT NULL,
  transports TEXT,
  PRIMARY KEY ("userId", "credentialID")
);`;

/** https://authjs.dev/getting-started/adapters/typeorm (the entities' tables; dates are stored as text, as its entities do). */
const TYPEORM_SCHEMA = `
CREATE TABLE users (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  name VARCHAR,
  email VARCHAR UNIQUE,
  "emailVerified" VARCHAR,
  image VARCHAR
);
CREATE TABLE accounts (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  "userId" UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type VARCHAR NOT NULL,
  provider VARCHAR NOT NULL,
  "providerAccountId" VARCHAR NOT NULL,
  refresh_token VARCHAR,
  access_token VARCHAR,
  expires_at BIGINT,
  token_type VARCHAR,
  scope VARCHAR,
  id_token VARCHAR,
  session_state VARCHAR
);
CREATE TABLE sessions (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  "sessionToken" VARCHAR NOT NULL UNIQUE,
  "userId" UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires VARCHAR NOT NULL
);
CREATE TABLE verification_tokens (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  token VARCHAR NOT NULL,
  identifier VARCHAR NOT NULL,
  expires VARCHAR NOT NULL
);`;

/** A fresh database with `ddl` applied; its connection string and removal. */
async function databaseWith(ddl: string): Promise<{ url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const scratch = await scratchPostgres();
  const pool = new pg.Pool({ connectionString: scratch.location, max: 5 });
  // The database is dropped WITH (FORCE): a connection still closing hears FATAL 57P01 (see servers.ts).
  pool.on("error", () => {});
  await pool.query(ddl);
  return {
    url: scratch.location,
    pool,
    async drop() {
      await pool.end();
      await scratch.drop();
    },
  };
}

export const PUBLISHED_ADAPTERS: PublishedAdapter[] = [
  {
    name: "@auth/pg-adapter",
    postgres: true,
    async start() {
      const db = await databaseWith(PG_SCHEMA);
      return { adapter: PostgresAdapter(db.pool) as Adapter, close: db.drop };
    },
  },
  {
    name: "@auth/kysely-adapter",
    postgres: true,
    async start() {
      const db = await databaseWith(KYSELY_SCHEMA);
      const pool = new pg.Pool({ connectionString: db.url, max: 5 });
      pool.on("error", () => {});
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      return {
        adapter: KyselyAdapter(kysely) as Adapter,
        async close() {
          await kysely.destroy();
          await db.drop();
        },
      };
    },
  },
  {
    name: "@auth/drizzle-adapter",
    postgres: true,
    async start() {
      const db = await databaseWith(DRIZZLE_SCHEMA);
      return { adapter: DrizzleAdapter(drizzle(db.pool)) as Adapter, close: db.drop };
    },
  },
  {
    name: "@auth/typeorm-adapter",
    postgres: true,
    contractDeviation: "updateUser answers the fields it was given and null for the others, not the updated user",
    async start() {
      const db = await databaseWith(TYPEORM_SCHEMA);
      // The schema is ours: TypeORM is told not to synchronize it (the adapter would, outside production).
      const dataSource = `${db.url}?synchronize=false`;
      return {
        adapter: TypeORMAdapter(dataSource) as Adapter,
        async close() {
          // The adapter keeps one DataSource per process; it is the one getManager hands out.
          const manager = await getManager({ dataSource, entities: typeormEntities });
          await manager.connection.destroy();
          await db.drop();
        },
      };
    },
  },
  {
    name: "@auth/unstorage-adapter",
    postgres: false,
    contractDeviation:
      "deleteUser throws for a user without an account or session (unstorage: Invalid key: null), and keeps one account and one session per user in its indexes",
    async start() {
      const storage = createStorage();
      return { adapter: UnstorageAdapter(storage) as Adapter, close: () => storage.dispose() };
    },
  },
];
