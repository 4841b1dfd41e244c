/**
 * The per-driver entries (`appauth/adapters/sqlite`, `/postgres`, `/mysql`): a new application's
 * adapter works from its first call outside production, because the tables are created first; in
 * production the schema changes only through `migrate()`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { mysqlAdapter } from "../../../src/adapters/mysql/index.js";
import { postgresAdapter } from "../../../src/adapters/postgres/index.js";
import type { OwnedSqlAdapter } from "../../../src/adapters/sql/owned.js";
import { sqliteAdapter } from "../../../src/adapters/sqlite/index.js";
import { mysqlAvailability, postgresAvailability, scratchMysql, scratchPostgres, scratchSqlite, type ScratchDatabase } from "./servers.js";

const ada = { id: "", email: "ada@example.test", emailVerified: null };

let scratch: ScratchDatabase | undefined;
let adapter: OwnedSqlAdapter | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await adapter?.destroy();
  await scratch?.drop();
  adapter = undefined;
  scratch = undefined;
});

describe("appauth/adapters/sqlite", () => {
  it("creates its tables before the first call outside production, so a new file works at once", async () => {
    scratch = await scratchSqlite();
    adapter = sqliteAdapter(scratch.location);
    const created = await adapter.createUser(ada);
    await expect(adapter.getUserByEmail("ada@example.test")).resolves.toMatchObject({ id: created.id });
  });

  it("serves many first calls at once, all after the one migration", async () => {
    scratch = await scratchSqlite();
    adapter = sqliteAdapter(scratch.location);
    const emails = Array.from({ length: 6 }, (_, i) => `user${i}@example.test`);
    const users = await Promise.all(emails.map((email) => adapter!.createUser({ id: "", email, emailVerified: null })));
    expect(users.map((u) => u.email)).toEqual(emails);
  });

  it("leaves the schema alone in production until migrate() is called", async () => {
    vi.stubEnv("NODE_ENV", "production");
    scratch = await scratchSqlite();
    adapter = sqliteAdapter(scratch.location);
    await expect(adapter.getUserByEmail("ada@example.test")).rejects.toThrow(/no such table/);
    await adapter.migrate();
    await expect(adapter.getUserByEmail("ada@example.test")).resolves.toBeNull();
  });

  it("migrates on first use in production when asked to, and not in development when told not to", async () => {
    vi.stubEnv("NODE_ENV", "production");
    scratch = await scratchSqlite();
    adapter = sqliteAdapter(scratch.location, { migrate: true });
    await expect(adapter.getUserByEmail("ada@example.test")).resolves.toBeNull();
    await adapter.destroy();

    vi.stubEnv("NODE_ENV", "development");
    const other = await scratchSqlite();
    adapter = sqliteAdapter(other.location, { migrate: false });
    try {
      await expect(adapter.getUserByEmail("ada@example.test")).rejects.toThrow(/no such table/);
    } finally {
      await other.drop();
    }
  });

  it("refuses a migrate option that is not a boolean, naming it", () => {
    expect(() => sqliteAdapter(":memory:", { migrate: "yes" as unknown as boolean })).toThrow(/options\.migrate/);
  });
});

const servers = [
  { entry: "appauth/adapters/postgres", skip: await postgresAvailability(), scratch: scratchPostgres, open: postgresAdapter },
  { entry: "appauth/adapters/mysql", skip: await mysqlAvailability(), scratch: scratchMysql, open: mysqlAdapter },
];

describe.each(servers)("$entry", ({ skip, scratch: newScratch, open }) => {
  it.skipIf(skip)("creates its tables before the first call outside production", async () => {
    scratch = await newScratch();
    adapter = open(scratch.location);
    const created = await adapter.createUser(ada);
    await expect(adapter.getUser(created.id)).resolves.toMatchObject({ email: "ada@example.test" });
  });
});
