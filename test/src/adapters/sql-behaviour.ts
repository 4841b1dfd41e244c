/**
 * What the SQL adapter promises beyond the contract, checked on each dialect: idempotent migrations
 * that upgrade a database of an earlier release, one query per session read, an atomic verification-token
 * use and lease under real concurrency, cascading foreign keys, millisecond dates and table prefixes.
 */
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqlAdapter, sqlMigrations, tableNames, type AnyKysely } from "../../../src/adapters/sql/index.js";
import {
  sampleAccount,
  sampleSession,
  sampleToken,
  sampleUser,
} from "../../../src/adapters/test/index.js";
import { detectDialect } from "../../../src/adapters/sql/dialect.js";
import type { ScratchDatabase, SqlTarget } from "./servers.js";

const MIGRATIONS = ["0001_initial", "0002_session_links_and_leases", "0003_rate_limits", "0004_session_revocations", "0005_session_info", "0006_account_dpop_key", "0007_two_factor", "0008_session_amr", "0009_two_factor_versions"];

/** A migrator over the adapter's migrations, for moving a schema to a given one. */
function migrator(db: AnyKysely, tablePrefix: string): Migrator {
  const names = tableNames(tablePrefix);
  return new Migrator({
    db,
    provider: { getMigrations: async () => sqlMigrations(detectDialect(db), tablePrefix) },
    migrationTableName: names.migrations,
    migrationLockTableName: names.migrationLock,
  });
}

export function describeSqlAdapter(name: string, target: SqlTarget, skip: string | undefined): void {
  (skip === undefined ? describe : describe.skip)(`${name}: SQL specifics`, () => {
    let scratch: ScratchDatabase;
    let db: AnyKysely;

    beforeAll(async () => {
      scratch = await target();
      db = scratch.kysely();
      await SqlAdapter(db).migrate();
    });
    afterAll(async () => {
      await scratch?.drop();
    });

    it("applies its migrations once, however often migrate() runs", async () => {
      const adapter = SqlAdapter(db);
      await adapter.migrate();
      await adapter.migrate();
      const applied = await db.selectFrom(tableNames().migrations).select("name").execute();
      expect(applied.map((row) => row.name)).toEqual(MIGRATIONS);
      await expect(adapter.createUser(sampleUser())).resolves.toBeTruthy();
    });

    it("survives two processes migrating the same fresh schema at once", async () => {
      const [a, b] = [scratch.kysely(), scratch.kysely()];
      await Promise.all([
        SqlAdapter(a, { tablePrefix: "race_" }).migrate(),
        SqlAdapter(b, { tablePrefix: "race_" }).migrate(),
      ]);
      const applied = await db.selectFrom(tableNames("race_").migrations).select("name").execute();
      expect(applied).toHaveLength(MIGRATIONS.length);
    });

    it("upgrades a database migrated by an earlier release, keeping its sessions", async () => {
      const old = migrator(db, "upgrade_");
      expect((await old.migrateTo("0001_initial")).error).toBeUndefined();
      const adapter = SqlAdapter(db, { tablePrefix: "upgrade_" });
      const user = await adapter.createUser(sampleUser());
      // A session without provider fields writes only the columns the first schema has.
      const before = await adapter.createSession(sampleSession(user.id));

      await adapter.migrate();
      const found = await adapter.getSessionAndUser(before.sessionToken);
      expect(found?.user.id).toBe(user.id);
      expect(found?.session.provider ?? null).toBeNull();
      const link = { provider: "idp", providerAccountId: user.id, providerSessionId: "sid" };
      const after = await adapter.createSession(sampleSession(user.id, link));
      expect((await adapter.getSessionAndUser(after.sessionToken))?.session).toMatchObject(link);
      expect(await adapter.acquireLease(`lease-${user.id}`, "holder", new Date(Date.now() + 60_000))).toBe(true);
    });

    it("migrates back down to the first schema and up again", async () => {
      const prefix = "down_";
      await SqlAdapter(db, { tablePrefix: prefix }).migrate();
      expect((await migrator(db, prefix).migrateTo("0001_initial")).error).toBeUndefined();
      await SqlAdapter(db, { tablePrefix: prefix }).migrate();
      const applied = await db.selectFrom(tableNames(prefix).migrations).select("name").execute();
      expect(applied.map((row) => row.name)).toEqual(MIGRATIONS);
    });

    it("reads a session together with its user in exactly one query", async () => {
      const queries: string[] = [];
      const counted = scratch.kysely((event) => queries.push(event.query.sql));
      const adapter = SqlAdapter(counted);
      const user = await adapter.createUser(sampleUser());
      const session = await adapter.createSession(sampleSession(user.id));

      queries.length = 0;
      const found = await adapter.getSessionAndUser(session.sessionToken);
      expect(found?.user.id).toBe(user.id);
      expect(queries).toHaveLength(1);

      queries.length = 0;
      expect(await adapter.getSessionAndUser("st-unknown")).toBeNull();
      expect(queries).toHaveLength(1);
    });

    it("lets exactly one of 20 concurrent uses of a verification token win, across connections", async () => {
      const adapters = [SqlAdapter(scratch.kysely()), SqlAdapter(scratch.kysely())];
      for (let round = 0; round < 5; round++) {
        const token = sampleToken();
        await adapters[0]!.createVerificationToken(token);
        const attempts = Array.from({ length: 20 }, (_, i) =>
          adapters[i % 2]!.useVerificationToken({ identifier: token.identifier, token: token.token }),
        );
        const winners = (await Promise.all(attempts)).filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toMatchObject({ identifier: token.identifier, token: token.token });
      }
    });

    it("gives a lease to exactly one of 20 concurrent callers across connections, new or expired", async () => {
      const adapters = [SqlAdapter(scratch.kysely()), SqlAdapter(scratch.kysely())];
      for (let round = 0; round < 6; round++) {
        const key = `lease-${sampleToken().token}`;
        // Odd rounds race for a lease that expired, so its row exists and is taken over, not inserted.
        if (round % 2 === 1) await adapters[0]!.acquireLease(key, "old", new Date(Date.now() - 1000));
        const attempts = Array.from({ length: 20 }, (_, i) =>
          adapters[i % 2]!.acquireLease(key, `holder-${i}`, new Date(Date.now() + 60_000)),
        );
        expect((await Promise.all(attempts)).filter(Boolean)).toHaveLength(1);
      }
    });

    it("removes expired leases when the next one is taken, and keeps the live ones", async () => {
      const adapter = SqlAdapter(db);
      const id = crypto.randomUUID();
      const [spent, live, next] = [`spent-${id}`, `live-${id}`, `next-${id}`];
      expect(await adapter.acquireLease(spent, "a", new Date(Date.now() - 1000))).toBe(true);
      expect(await adapter.acquireLease(live, "a", new Date(Date.now() + 60_000))).toBe(true);
      expect(await adapter.acquireLease(next, "b", new Date(Date.now() + 60_000))).toBe(true);
      const keys = (await db.selectFrom(tableNames().leases).select("key").execute()).map((row) => row.key);
      expect(keys).not.toContain(spent);
      expect(keys).toEqual(expect.arrayContaining([live, next]));
    });

    it("counts a rate-limit hit in one statement (PostgreSQL, SQLite) and removes closed windows when one opens", async () => {
      const queries: string[] = [];
      const adapter = SqlAdapter(scratch.kysely((event) => queries.push(event.query.sql)));
      const id = crypto.randomUUID();
      expect((await adapter.hitRateLimit(`closed-${id}`, 1)).count).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      queries.length = 0;
      expect((await adapter.hitRateLimit(`open-${id}`, 60_000)).count).toBe(1);
      const counted = queries.filter((q) => !/^delete/i.test(q.trim()));
      // MySQL has no RETURNING here: its upsert and read run in one transaction instead.
      expect(counted.filter((q) => /^(insert|select)/i.test(q.trim()))).toHaveLength(queries.some((q) => /on duplicate key/i.test(q)) ? 2 : 1);
      expect((await adapter.hitRateLimit(`open-${id}`, 60_000)).count).toBe(2);
      const keys = (await db.selectFrom(tableNames().rateLimits).select("key").execute()).map((row) => row.key);
      expect(keys).not.toContain(`closed-${id}`);
      expect(keys).toContain(`open-${id}`);
    });

    it("deletes the sessions of a provider account in one statement", async () => {
      const queries: string[] = [];
      const adapter = SqlAdapter(scratch.kysely((event) => queries.push(event.query.sql)));
      const user = await adapter.createUser(sampleUser());
      const link = { provider: "idp", providerAccountId: user.id };
      await adapter.createSession(sampleSession(user.id, link));
      await adapter.createSession(sampleSession(user.id, link));
      queries.length = 0;
      expect(await adapter.deleteSessionsByAccount(link)).toBe(2);
      expect(queries).toHaveLength(1);
    });

    it("keeps dates to the millisecond", async () => {
      const adapter = SqlAdapter(db);
      const expires = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 678));
      const user = await adapter.createUser(sampleUser({ emailVerified: expires }));
      const session = await adapter.createSession(sampleSession(user.id, { expires }));
      const found = await adapter.getSessionAndUser(session.sessionToken);
      expect(found?.session.expires.toISOString()).toBe("2031-01-02T03:04:05.678Z");
      expect(found?.user.emailVerified?.toISOString()).toBe("2031-01-02T03:04:05.678Z");
    });

    it("stores expires_at past 2038 as a number", async () => {
      const adapter = SqlAdapter(db);
      const user = await adapter.createUser(sampleUser());
      const account = sampleAccount(user.id, { expires_at: 4_102_444_800 });
      await adapter.linkAccount(account);
      expect((await adapter.getAccount(account.providerAccountId, account.provider))?.expires_at).toBe(4_102_444_800);
    });

    it("cascades a deleted user row to accounts and sessions through the foreign keys", async () => {
      const adapter = SqlAdapter(db);
      const user = await adapter.createUser(sampleUser());
      const account = sampleAccount(user.id);
      await adapter.linkAccount(account);
      const session = await adapter.createSession(sampleSession(user.id));
      await db.deleteFrom(tableNames().users).where("id", "=", user.id).execute();
      expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull();
      expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
    });

    it("refuses an account for a user that does not exist", async () => {
      const adapter = SqlAdapter(db);
      await expect(adapter.linkAccount(sampleAccount(globalThis.crypto.randomUUID()))).rejects.toThrow();
    });

    it("keeps tables behind different prefixes apart", async () => {
      const plain = SqlAdapter(db);
      const prefixed = SqlAdapter(db, { tablePrefix: "tenant_" });
      await prefixed.migrate();
      const user = sampleUser();
      await plain.createUser(user);
      expect(await prefixed.getUser(user.id)).toBeNull();
      await expect(prefixed.createUser(user)).resolves.toMatchObject({ id: user.id });
    });
  });
}
