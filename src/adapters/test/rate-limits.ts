/**
 * The rate-limit extension: counters with fixed windows, counted atomically across every process
 * sharing the store. The core's limiter keeps its counts there when the adapter has it.
 */
import { describe, expect } from "vitest";
import { extensionTest, type SuiteContext } from "./context.js";
import { unique } from "./fixtures.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function describeRateLimits(suite: SuiteContext): void {
  // Optional at every level: without it the core counts in memory (one process).
  const ctx: SuiteContext = { ...suite, extensions: suite.extensions === "off" ? "off" : "when-present" };
  const { method } = ctx;
  const hit = (key: string, windowMs: number): Promise<{ count: number; resetAt: Date }> => method("hitRateLimit")(key, windowMs);
  const reset = (key: string): Promise<void> => method("resetRateLimit")(key);

  describe("rate limits (extension)", () => {
    extensionTest(ctx, ["hitRateLimit", "resetRateLimit"], "counts hits on a key within its window, which its first hit opened", async () => {
      const key = `rl-${unique()}`;
      const before = Date.now();
      const first = await hit(key, 60_000);
      expect(first.count).toBe(1);
      expect(first.resetAt.getTime()).toBeGreaterThanOrEqual(before + 59_000);
      expect(first.resetAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
      // The window stays the one the first hit opened: a hit a second later does not push it back by
      // a second. (A store reports the end as its remaining time plus the client's clock, so each
      // answer's end moves by that answer's delay: half a second of slack for a loaded machine.)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const second = await hit(key, 60_000);
      expect(second.count).toBe(2);
      expect(Math.abs(second.resetAt.getTime() - first.resetAt.getTime())).toBeLessThan(500);
    });

    extensionTest(ctx, ["hitRateLimit", "resetRateLimit"], "keeps keys apart, and forgets a key that is reset", async () => {
      const [one, two] = [`rl-${unique()}`, `rl-${unique()}`];
      await hit(one, 60_000);
      await hit(one, 60_000);
      expect((await hit(two, 60_000)).count).toBe(1);
      await reset(one);
      expect((await hit(one, 60_000)).count).toBe(1);
    });

    extensionTest(ctx, ["hitRateLimit", "resetRateLimit"], "counts every one of many concurrent hits exactly once", async () => {
      const key = `rl-${unique()}`;
      const counts = await Promise.all(Array.from({ length: 25 }, () => hit(key, 60_000)));
      expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    extensionTest(ctx, ["hitRateLimit", "resetRateLimit"], "opens a new window once the last one has closed", async () => {
      const key = `rl-${unique()}`;
      await hit(key, 300);
      await hit(key, 300);
      await sleep(400);
      expect((await hit(key, 300)).count).toBe(1);
    });
  });
}
