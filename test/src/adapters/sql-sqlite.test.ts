import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { SqlAdapter, sqliteAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
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
