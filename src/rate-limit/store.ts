/**
 * Where the rate limiter counts: fixed windows, each opened by its key's first hit and closed
 * `windowMs` later, so a refusal never outlasts the window that caused it. One process keeps them
 * in memory (bounded); several share them through the adapter's store (SQL or Redis), whose
 * `hitRateLimit` counts atomically (one statement, or one script).
 */
import type { ExtendedAdapter } from "../adapters/extensions.js";

/** A key's count in its current window, and how long until that window closes (ms). */
export interface RateLimitHit {
  count: number;
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

/**
 * Counters in this process's memory. Bounded: when `maxKeys` are held, closed windows are swept,
 * and if that frees nothing the oldest window is dropped (a flood of distinct keys cannot grow it).
 */
export function memoryRateLimitStore(options: { maxKeys?: number; now?: () => number } = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();

  function makeRoom(at: number): void {
    if (windows.size < maxKeys) return;
    for (const [key, entry] of windows) if (entry.resetAt <= at) windows.delete(key);
    while (windows.size >= maxKeys) {
      const oldest = windows.keys().next();
      if (oldest.done) break;
      windows.delete(oldest.value);
    }
  }

  return {
    async hit(key, windowMs) {
      const at = now();
      const open = windows.get(key);
      if (open && open.resetAt > at) {
        open.count += 1;
        return { count: open.count, resetIn: open.resetAt - at };
      }
      if (open) windows.delete(key);
      makeRoom(at);
      const fresh = { count: 1, resetAt: at + windowMs };
      windows.set(key, fresh);
      return { count: 1, resetIn: windowMs };
    },
    async reset(key) {
      windows.delete(key);
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
