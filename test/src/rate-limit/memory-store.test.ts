/**
 * The in-memory store when it is full: an open window is never dropped to make room (a flood of new
 * keys cannot reset a victim's count), a new key is refused instead (password attempts fail
 * closed), closed windows make room, and each hit does a constant amount of work on the map.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryRateLimitStore } from "../../../src/rate-limit/store.js";

/** Counts the steps of every iteration over any Map, and its deletes. */
function countMapWork(): { work: () => number } {
  let steps = 0;
  for (const method of ["entries", "keys", "values", Symbol.iterator] as const) {
    const original = Map.prototype[method] as (this: Map<unknown, unknown>) => Iterator<unknown>;
    vi.spyOn(Map.prototype, method as "entries").mockImplementation(function (this: Map<unknown, unknown>) {
      const iterator = original.call(this);
      return Object.assign(Object.create(Object.getPrototypeOf(iterator) as object) as object, {
        next: () => {
          steps += 1;
          return iterator.next();
        },
        [Symbol.iterator]() {
          return this;
        },
      }) as MapIterator<[unknown, unknown]>;
    });
  }
  const originalDelete = Map.prototype.delete;
  vi.spyOn(Map.prototype, "delete").mockImplementation(function (this: Map<unknown, unknown>, key: unknown) {
    steps += 1;
    return originalDelete.call(this, key);
  });
  return { work: () => steps };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the memory store when full", () => {
  it("keeps counting a live key instead of dropping its window to make room, and refuses the new key", async () => {
    const store = memoryRateLimitStore({ maxKeys: 3, now: () => 1_000 });
    for (let i = 0; i < 3; i++) await store.hit("victim", 60_000);
    await store.hit("a", 60_000);
    await store.hit("b", 60_000);
    await expect(store.hit("c", 60_000)).rejects.toThrow(/full/);
    expect((await store.hit("victim", 60_000)).count).toBe(4);
  });

  it("makes room from windows that have closed", async () => {
    let now = 0;
    const store = memoryRateLimitStore({ maxKeys: 2, now: () => now });
    await store.hit("short", 1_000);
    await store.hit("long", 60_000);
    now = 2_000;
    expect((await store.hit("new", 1_000)).count).toBe(1);
    expect((await store.hit("long", 60_000)).count).toBe(2);
  });

  it("does the same small work for a new key whether it holds a thousand keys or a hundred thousand", async () => {
    const workFor = async (size: number) => {
      let now = 0;
      const store = memoryRateLimitStore({ maxKeys: size, now: () => now });
      for (let i = 0; i < size; i++) await store.hit(`k${i}`, 10_000);
      now = 20_000; // every window has closed: the old store swept them all on the next new key
      const counter = countMapWork();
      await store.hit("fresh", 10_000);
      const work = counter.work();
      vi.restoreAllMocks();
      return work;
    };
    const small = await workFor(1_000);
    const large = await workFor(100_000);
    expect(large).toBe(small);
    expect(large).toBeLessThan(20);
  });
});
