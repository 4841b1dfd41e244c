/**
 * Where the rate limiter counts: fixed windows, each opened by its key's first hit and closed
 * `windowMs` later, so a refusal never outlasts the window that caused it. One process keeps them
 * in memory (bounded, never dropping an open window); several share them through the adapter's store (SQL or Redis), whose
 * `hitRateLimit` counts atomically (one statement, or one script).
 */
import type { ExtendedAdapter } from "../adapters/extensions.js";

/** A key's count in its current window, and how long until that window closes (ms). */
export interface RateLimitHit {
  /** The hits on the key in its current window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetIn: number;
}

/** A counter store for the rate limiter. Each `hit` must be atomic across everyone sharing the store. */
export interface RateLimitStore {
  /** Counts one hit on `key`; opens a window of `windowMs` when none is open. */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Forgets `key`'s count (a successful sign-in clears its failures). */
  reset(key: string): Promise<void>;
}

/** Default bound of the memory store: about 100k keys (a few MB). */
export const DEFAULT_MAX_KEYS = 100_000;

/** Thrown by the memory store when every key it holds is in an open window: nothing may be forgotten. */
export class RateLimitStoreFull extends Error {
  constructor() {
    super("The in-memory rate-limit store is full of open windows; no new key is counted until one closes.");
    this.name = "RateLimitStoreFull";
  }
}

type Window = { count: number; resetAt: number };

/**
 * Counters in this process's memory, bounded by `maxKeys`. Windows are kept in one map per window
 * length, in the order they opened: with one length and a clock that only moves forward, that is
 * also the order they close, so the closed ones are always at the front of their map. Each hit
 * drops at most a few closed windows from the fronts (O(1) work, never a sweep of the whole map),
 * and an open window is never dropped to make room: a key's count lives until its window closes.
 * When every held key is in an open window a new key is refused (`RateLimitStoreFull`): password
 * attempts and mails fail closed, the request ceiling fails open (src/rate-limit/limiter.ts).
 */
export function memoryRateLimitStore(options: { maxKeys?: number; now?: () => number } = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const now = options.now ?? Date.now;
  // Window length (ms) -> key -> its window, oldest first. A handful of lengths: one per rule.
  const byLength = new Map<number, Map<string, Window>>();
  // Key -> the length its open window was counted under (a key could be asked with two lengths).
  const lengthOf = new Map<string, number>();

  /** Drops up to `budget` closed windows from the front of each length's map. */
  function dropClosed(at: number, budget: number): void {
    for (const windows of byLength.values()) {
      for (let i = 0; i < budget; i++) {
        const oldest = windows.entries().next();
        if (oldest.done || oldest.value[1].resetAt > at) break;
        windows.delete(oldest.value[0]);
        lengthOf.delete(oldest.value[0]);
      }
    }
  }

  function forget(key: string): void {
    const length = lengthOf.get(key);
    if (length === undefined) return;
    byLength.get(length)?.delete(key);
    lengthOf.delete(key);
  }

  return {
    async hit(key, windowMs) {
      const at = now();
      // Two closed windows per hit: more than one key opens per hit, so the maps cannot outgrow it.
      dropClosed(at, 2);
      const length = lengthOf.get(key);
      const open = length === undefined ? undefined : byLength.get(length)?.get(key);
      if (open && open.resetAt > at) {
        open.count += 1;
        return { count: open.count, resetIn: open.resetAt - at };
      }
      forget(key);
      if (lengthOf.size >= maxKeys) throw new RateLimitStoreFull();
      let windows = byLength.get(windowMs);
      if (!windows) byLength.set(windowMs, (windows = new Map()));
      windows.set(key, { count: 1, resetAt: at + windowMs });
      lengthOf.set(key, windowMs);
      return { count: 1, resetIn: windowMs };
    },
    async reset(key) {
      forget(key);
    },
  };
}

/** Whether the adapter counts for the limiter itself (the SQL and Redis adapters do). */
export function adapterCounts(adapter: unknown): adapter is Required<Pick<ExtendedAdapter, "hitRateLimit" | "resetRateLimit">> {
  const a = adapter as ExtendedAdapter | undefined;
  return typeof a?.hitRateLimit === "function" && typeof a.resetRateLimit === "function";
}

/**
 * A store over the adapter's counters. Keys are hashed first (SHA-256, hex): what a person typed
 * (an address, a user name) is not written to the database in clear, and every key has one length.
 */
export function adapterRateLimitStore(adapter: Required<Pick<ExtendedAdapter, "hitRateLimit" | "resetRateLimit">>): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const hit = await adapter.hitRateLimit(await hashKey(key), windowMs);
      return { count: hit.count, resetIn: Math.max(0, hit.resetAt.getTime() - Date.now()) };
    },
    async reset(key) {
      await adapter.resetRateLimit(await hashKey(key));
    },
  };
}

async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return `rl:${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
