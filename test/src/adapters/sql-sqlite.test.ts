import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { SqlAdapter, sqliteAdapter, type AnyKysely, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import { runAdapterConformance } from "../../../src/adapters/test/index.js";
import { scratchSqlite, type ScratchDatabase } from "./servers.js";
import { describeSqlAdapter } from "./sql-behaviour.js";

let scratch: ScratchDatabase;
let adapter: OwnedSqlAdapter;

runAdapterConformance("SqlAdapter on SQLite (a temp file)", {
  async setup() {
    scratch = await scratchSqlite();
  },
  async adapter() {
    adapter = sqliteAdapter(scratch.location);
    await adapter.migrate();
    return adapter;
  },
  async teardown() {
    await adapter?.destroy();
    await scratch?.drop();
  },
});

describeSqlAdapter("SqlAdapter on SQLite", scratchSqlite, undefined);

describe("SqlAdapter options", () => {
  it("works on an in-memory SQLite database", async () => {
    const memory = sqliteAdapter(":memory:");
    await memory.migrate();
    await expect(memory.getUser("nobody")).resolves.toBeNull();
    await memory.destroy();
  });

  it("names the option when it cannot detect the dialect", () => {
    const db = new Kysely({
      dialect: {
        createAdapter: () => ({}) as never,
        createDriver: () => ({}) as never,
        createIntrospector: () => ({}) as never,
        createQueryCompiler: () => ({}) as never,
      },
    });
    expect(() => SqlAdapter(db)).toThrow(/options\.dialect/);
  });

  it("refuses a table prefix that is not a plain identifier", () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: async () => { throw new Error("unused"); } }) });
    expect(() => SqlAdapter(db, { tablePrefix: "x; drop table users;" })).toThrow(TypeError);
  });

  it("refuses an empty SQLite file name", () => {
    expect(() => sqliteAdapter("")).toThrow(/fileName/);
  });
});

describe("the session read's compiled query", () => {
  it("answers each token with its own session and user, many reads at once", async () => {
    const store = sqliteAdapter(":memory:");
    await store.migrate();
    const expires = new Date(Date.now() + 3_600_000);
    for (let i = 0; i < 40; i++) {
      await store.createUser({ id: `u${i}`, email: `u${i}@example.com`, emailVerified: null, name: `User ${i}` });
      await store.createSession({ sessionToken: `t${i}`, userId: `u${i}`, expires });
    }
    const tokens = Array.from({ length: 40 }, (_, i) => `t${(i * 7) % 40}`).concat("no-such-token");
    const read = await Promise.all(tokens.map((token) => store.getSessionAndUser(token)));
    expect(read.map((r) => (r ? `${r.session.sessionToken}:${r.user.id}:${r.user.name}` : null))).toEqual(
      tokens.map((token) => (token === "no-such-token" ? null : `${token}:u${token.slice(1)}:User ${token.slice(1)}`)),
    );
    await store.destroy();
  });

  it("still reads sessions through a Kysely whose plugin renames the columns", async () => {
    // CamelCasePlugin renames every column (userId → user_id): the compiled query must be the renamed one.
    const { CamelCasePlugin } = await import("kysely");
    const Database = (await import("better-sqlite3")).default;
    const connection = new Database(":memory:");
    const db: AnyKysely = new Kysely({ dialect: new SqliteDialect({ database: connection }), plugins: [new CamelCasePlugin()] });
    const store = SqlAdapter(db, { dialect: "sqlite" });
    await store.migrate();
    await store.createUser({ id: "u1", email: "u1@example.com", emailVerified: null });
    await store.createSession({ sessionToken: "t1", userId: "u1", expires: new Date(Date.now() + 60_000) });
    expect(await store.getSessionAndUser("t1")).toMatchObject({ session: { sessionToken: "t1", userId: "u1" }, user: { id: "u1" } });
    expect(connection.prepare("select user_id from sessions").all()).toEqual([{ user_id: "u1" }]);
    await db.destroy();
  });
});
