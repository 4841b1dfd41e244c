import { beforeEach, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sampleUser } from "../../../src/adapters/test/index.js";
import {
  confirmTotpEnrollment,
  hasSecondFactor,
  listSecondFactors,
  regenerateRecoveryCodes,
  removeSecondFactor,
  startTotpEnrollment,
  useRecoveryCode,
  useTotpCode,
  type TwoFactorContext,
} from "../../../src/two-factor/enrollment.js";
import { generateTotp } from "../../../src/two-factor/totp.js";

let now = Date.UTC(2026, 10, 29, 8, 0, 10);
let ctx: TwoFactorContext;
let adapter: ReturnType<typeof MemoryAdapter>;
let userId: string;

beforeEach(async () => {
  adapter = MemoryAdapter();
  ctx = { adapter, secret: ["current-secret-0123456789abcdef"], issuer: "Acme", now: () => now };
  userId = (await adapter.createUser(sampleUser())).id;
});

async function enrolled(): Promise<{ factorId: string; secret: string }> {
  const started = await startTotpEnrollment(ctx, { userId, accountName: "ada@example.com" });
  expect(await confirmTotpEnrollment(ctx, { userId, factorId: started.factorId, code: await generateTotp(started.secret, now) })).toBe(true);
  now += 30_000;
  return started;
}

describe("enrolling an authenticator app", () => {
  it("shows the secret once in an otpauth URI and stores it only sealed, the factor pending", async () => {
    const started = await startTotpEnrollment(ctx, { userId, accountName: "ada@example.com" });
    expect(started.uri).toBe(`otpauth://totp/Acme:ada%40example.com?secret=${started.secret}&issuer=Acme&algorithm=SHA1&digits=6&period=30`);
    const [stored] = await adapter.getTwoFactors(userId);
    expect(stored).toMatchObject({ id: started.factorId, active: false });
    expect(stored!.secret).not.toContain(started.secret);
    expect(await hasSecondFactor(ctx, userId)).toBe(false);
  });

  it("activates the factor only with a correct code, and the code that activated it is spent", async () => {
    const started = await startTotpEnrollment(ctx, { userId, accountName: "ada" });
    expect(await confirmTotpEnrollment(ctx, { userId, factorId: started.factorId, code: "000000" })).toBe(false);
    expect(await hasSecondFactor(ctx, userId)).toBe(false);
    const code = await generateTotp(started.secret, now);
    expect(await confirmTotpEnrollment(ctx, { userId, factorId: started.factorId, code })).toBe(true);
    expect(await hasSecondFactor(ctx, userId)).toBe(true);
    expect(await useTotpCode(ctx, { userId, code })).toBeNull();
  });

  it("does not let another user confirm, list or remove someone's factor", async () => {
    const started = await startTotpEnrollment(ctx, { userId, accountName: "ada" });
    const stranger = (await adapter.createUser(sampleUser())).id;
    const code = await generateTotp(started.secret, now);
    expect(await confirmTotpEnrollment(ctx, { userId: stranger, factorId: started.factorId, code })).toBe(false);
    expect(await removeSecondFactor(ctx, { userId: stranger, factorId: started.factorId })).toBe(false);
    expect(await listSecondFactors(ctx, stranger)).toEqual([]);
    expect(await confirmTotpEnrollment(ctx, { userId, factorId: started.factorId, code })).toBe(true);
  });

  it("replaces an abandoned pending enrollment rather than keeping both", async () => {
    await startTotpEnrollment(ctx, { userId, accountName: "ada" });
    const second = await startTotpEnrollment(ctx, { userId, accountName: "ada" });
    expect((await adapter.getTwoFactors(userId)).map((f) => f.id)).toEqual([second.factorId]);
  });
});

describe("checking codes of an enrolled user", () => {
  it("accepts a code once, refuses it again in the same window, and accepts the next step's", async () => {
    const { secret } = await enrolled();
    const code = await generateTotp(secret, now);
    expect(await useTotpCode(ctx, { userId, code })).not.toBeNull();
    expect(await useTotpCode(ctx, { userId, code })).toBeNull();
    now += 30_000;
    expect(await useTotpCode(ctx, { userId, code: await generateTotp(secret, now) })).not.toBeNull();
  });

  it("still opens the factor's secret after the configured secret rotates", async () => {
    const { secret } = await enrolled();
    ctx = { ...ctx, secret: ["next-secret-0123456789abcdef", "current-secret-0123456789abcdef"] };
    expect(await useTotpCode(ctx, { userId, code: await generateTotp(secret, now) })).not.toBeNull();
  });

  it("accepts each recovery code once, however it is typed, and a new set voids the old", async () => {
    await enrolled();
    const codes = await regenerateRecoveryCodes(ctx, userId);
    expect(codes).toHaveLength(10);
    expect(await useRecoveryCode(ctx, { userId, code: codes[0]!.toUpperCase() })).toBe(true);
    expect(await useRecoveryCode(ctx, { userId, code: codes[0]! })).toBe(false);
    expect((await listSecondFactors(ctx, userId)).find((f) => f.type === "recovery")?.remaining).toBe(9);
    await regenerateRecoveryCodes(ctx, userId);
    expect(await useRecoveryCode(ctx, { userId, code: codes[1]! })).toBe(false);
  });

  it("removes the recovery codes with the last authenticator app", async () => {
    const { factorId } = await enrolled();
    await regenerateRecoveryCodes(ctx, userId);
    expect(await removeSecondFactor(ctx, { userId, factorId })).toBe(true);
    expect(await hasSecondFactor(ctx, userId)).toBe(false);
    expect(await listSecondFactors(ctx, userId)).toEqual([]);
  });
});
