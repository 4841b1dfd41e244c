/**
 * The lease extension: a key held by one holder at a time until it expires or its holder gives it back.
 * The core takes one per account for a token refresh, and one per logout token `jti` against replays.
 */
import { describe, expect } from "vitest";
import { attempt, extensionTest, type SuiteContext } from "./context.js";
import { unique } from "./fixtures.js";

const inOneMinute = (): Date => new Date(Date.now() + 60_000);
const aSecondAgo = (): Date => new Date(Date.now() - 1000);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function describeLeases(ctx: SuiteContext): void {
  const { method } = ctx;
  const acquire = (key: string, holder: string, expires: Date): Promise<boolean> =>
    method("acquireLease")(key, holder, expires);
  const release = (key: string, holder: string): Promise<void> => method("releaseLease")(key, holder);

  describe("leases (extension)", () => {
    extensionTest(ctx, ["acquireLease", "releaseLease"], "gives a free lease to the first holder and refuses it to another while it is held", async () => {
      const key = `lease-${unique()}`;
      expect(await acquire(key, "first", inOneMinute())).toBe(true);
      expect(await acquire(key, "second", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "refuses a held lease to its own holder too, as a replayed logout token must be", async () => {
      const key = `lease-${unique()}`;
      expect(await acquire(key, "holder", inOneMinute())).toBe(true);
      expect(await acquire(key, "holder", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "keeps leases of different keys apart", async () => {
      const [one, two] = [`lease-${unique()}`, `lease-${unique()}`];
      expect(await acquire(one, "first", inOneMinute())).toBe(true);
      expect(await acquire(two, "second", inOneMinute())).toBe(true);
      expect(await acquire(one, "second", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "frees a lease its holder releases", async () => {
      const key = `lease-${unique()}`;
      await acquire(key, "first", inOneMinute());
      await release(key, "first");
      expect(await acquire(key, "second", inOneMinute())).toBe(true);
      expect(await acquire(key, "third", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "ignores a release by someone who does not hold the lease", async () => {
      const key = `lease-${unique()}`;
      await acquire(key, "holder", inOneMinute());
      await release(key, "someone else");
      expect(await acquire(key, "someone else", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "releases a lease that was never taken without failing", async () => {
      await expect(attempt(() => release(`lease-${unique()}`, "nobody"))).resolves.not.toThrow();
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "lets anyone take a lease that expired", async () => {
      const key = `lease-${unique()}`;
      expect(await acquire(key, "first", aSecondAgo())).toBe(true);
      expect(await acquire(key, "second", inOneMinute())).toBe(true);
      expect(await acquire(key, "first", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "holds a lease until its expiry, and not after", async () => {
      const key = `lease-${unique()}`;
      expect(await acquire(key, "first", new Date(Date.now() + 1200))).toBe(true);
      expect(await acquire(key, "second", inOneMinute())).toBe(false);
      await sleep(1400);
      expect(await acquire(key, "second", inOneMinute())).toBe(true);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "leaves an expired lease that someone else took with them when its old holder releases it", async () => {
      const key = `lease-${unique()}`;
      await acquire(key, "old", aSecondAgo());
      expect(await acquire(key, "new", inOneMinute())).toBe(true);
      await release(key, "old");
      expect(await acquire(key, "third", inOneMinute())).toBe(false);
    });

    extensionTest(ctx, ["acquireLease", "releaseLease"], "gives a lease to exactly one of 20 concurrent callers, whether it was new or expired", async () => {
      const race = (key: string): Promise<boolean[]> =>
        Promise.all(Array.from({ length: 20 }, (_, i) => acquire(key, `holder-${i}`, inOneMinute())));
      expect((await race(`lease-${unique()}`)).filter(Boolean)).toHaveLength(1);

      const expired = `lease-${unique()}`;
      await acquire(expired, "old", aSecondAgo());
      expect((await race(expired)).filter(Boolean)).toHaveLength(1);
    });
  });
}
