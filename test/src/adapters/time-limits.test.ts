/**
 * The time limit every shipped adapter puts on its calls: validated when the adapter is built, and a
 * call that outlives it fails as a store fault (StoreUnavailable), whatever the call was waiting for.
 * The limits against real stores that hang are in test/src/data/store-outage.test.ts.
 */
import { describe, expect, it } from "vitest";
import { boundCalls, storeTimeoutOf, withinTime } from "../../../src/adapters/time-limits.js";
import { mysqlAdapter, postgresAdapter, sqliteAdapter } from "../../../src/adapters/sql/index.js";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { StoreUnavailable } from "../../../src/errors.js";
import type { Redis } from "ioredis";

describe("adapter time limits", () => {
  it("defaults to 5000 ms and takes 0 for none", () => {
    expect(storeTimeoutOf("test", undefined)).toBe(5000);
    expect(storeTimeoutOf("test", { timeout: 0 })).toBe(0);
    expect(storeTimeoutOf("test", { timeout: 250 })).toBe(250);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, "5000"])("refuses a timeout of %s, naming the option, in every shipped adapter", (timeout) => {
    const options = { timeout } as unknown as { timeout: number };
    expect(() => postgresAdapter("postgres://127.0.0.1/none", options)).toThrow(/options\.timeout/);
    expect(() => mysqlAdapter("mysql://127.0.0.1/none", options)).toThrow(/options\.timeout/);
    expect(() => sqliteAdapter(":memory:", options)).toThrow(/options\.timeout/);
    const client = { getdel: () => {}, options: {} } as unknown as Redis;
    expect(() => RedisAdapter(client, options)).toThrow(TypeError);
  });

  it("fails a call that never settles with StoreUnavailable naming the adapter and the call", async () => {
    const hung = boundCalls({ getUser: () => new Promise<never>(() => {}) }, 20, "TestAdapter");
    const failure = await hung.getUser().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailable);
    expect((failure as Error).message).toMatch(/TestAdapter: getUser did not answer within 20 ms/);
  });

  it("passes a call's answer and its own error through untouched", async () => {
    const adapter = boundCalls({ ok: async () => 42, broken: async () => Promise.reject(new Error("constraint")) }, 1000, "TestAdapter");
    expect(await adapter.ok()).toBe(42);
    await expect(adapter.broken()).rejects.toThrow("constraint");
    expect(await withinTime(Promise.resolve("done"), 0, "unbounded")).toBe("done");
  });
});
