/**
 * A TOTP code accepted in one process is refused by another sharing the store, over PostgreSQL and
 * over Redis; the other process still accepts the next code (the refusal is the replay's, not the
 * process's). The second process is test/fixtures/two-factor/use-code.ts.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleUser } from "../../../src/adapters/test/index.js";
import type { ExtendedAdapter, TwoFactorAdapter } from "../../../src/adapters/extensions.js";
import { confirmTotpEnrollment, startTotpEnrollment, useTotpCode, type TwoFactorContext } from "../../../src/two-factor/enrollment.js";
import { generateTotp } from "../../../src/two-factor/totp.js";
import { postgresAvailability, redisAvailability } from "../adapters/servers.js";
import { sharedPostgres, sharedRedis, type SharedStore } from "../data/instances.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SECRET = "cross-process-secret-0123456789abcdef";
const run = promisify(execFile);

/** What another process gets for each code, checked in order (one process: tsx starts slowly). */
async function inAnotherProcess(store: SharedStore, userId: string, checks: { code: string; now: number }[]): Promise<(string | null)[]> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "test/fixtures/two-factor/use-code.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...store.env, TWO_FACTOR_USER: userId, TWO_FACTOR_SECRET: SECRET, TWO_FACTOR_CHECKS: JSON.stringify(checks) },
  });
  return JSON.parse(stdout.trim()) as (string | null)[];
}

const stores = [
  ["PostgreSQL", sharedPostgres, await postgresAvailability()],
  ["Redis", sharedRedis, await redisAvailability()],
] as const;

for (const [name, open, skip] of stores) {
  describe.skipIf(skip !== undefined)(`a TOTP code over ${name}`, () => {
    let store: SharedStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.remove();
    });

    it("is refused by a second process once the first accepted it, and the next code works there", async () => {
      const adapter = store.adapter as ExtendedAdapter & TwoFactorAdapter;
      let now = Date.UTC(2026, 10, 29, 8, 0, 5);
      const ctx: TwoFactorContext = { adapter, secret: SECRET, issuer: "Acme", now: () => now };
      const userId = (await adapter.createUser!(sampleUser())).id;
      const { factorId, secret } = await startTotpEnrollment(ctx, { userId, accountName: "ada" });
      expect(await confirmTotpEnrollment(ctx, { userId, factorId, code: await generateTotp(secret, now) })).toBe(true);

      now += 30_000;
      const code = await generateTotp(secret, now);
      expect(await useTotpCode(ctx, { userId, code })).toBe(factorId);
      const next = now + 30_000;
      const checks = [{ code, now }, { code: await generateTotp(secret, next), now: next }];
      expect(await inAnotherProcess(store, userId, checks)).toEqual([null, factorId]);
    });
  });
}
