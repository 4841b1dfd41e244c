/**
 * What a signed-in user does with their second factors, over the adapter's two-factor methods: start
 * a TOTP enrollment (a pending factor, its secret sealed), confirm it with a first correct code, get
 * new recovery codes, remove a factor, list them. Checking a code is in codes.ts, which the sign-in
 * challenge uses too. The routes call these; each takes the user's id from the session, never from
 * the request, and every adapter call names that user, so nobody reaches another person's factors.
 */
import { clock, useCode, type CodeContext } from "./codes.js";
import { DEFAULT_RECOVERY_CODES, generateRecoveryCodes, hashRecoveryCode } from "./recovery-codes.js";
import { sealSecret } from "./secret-box.js";
import { generateTotpSecret, otpauthUri } from "./totp.js";
import type { SecondFactor, StoredTotpFactor } from "./types.js";

// Checking a code lives in codes.ts (the sign-in challenge uses it too); named here as before.
export { useRecoveryCode, useTotpCode } from "./codes.js";

export interface TwoFactorContext extends CodeContext {
  /** The site's name in authenticator apps. */
  issuer: string;
  /** How many recovery codes a set has. Default 10. */
  recoveryCodes?: number;
}

/** What enrollment shows the person once: the secret (to type in), and the URI (for a QR code). */
export interface TotpEnrollment {
  factorId: string;
  secret: string;
  uri: string;
}

const first = (secret: string | readonly string[]): string => (typeof secret === "string" ? secret : secret[0]!);

/**
 * Starts a TOTP enrollment: a new pending factor, replacing any earlier pending one of the user (an
 * abandoned enrollment must not pile up). `accountName` is what the app shows under the issuer (an
 * email address, a user name).
 */
export async function startTotpEnrollment(ctx: TwoFactorContext, options: { userId: string; accountName: string; label?: string }): Promise<TotpEnrollment> {
  const { userId, accountName, label } = options;
  for (const pending of (await ctx.adapter.getTwoFactors(userId)).filter((f) => !f.active)) {
    await ctx.adapter.deleteTwoFactor(userId, pending.id);
  }
  const secret = generateTotpSecret();
  const factor: StoredTotpFactor = {
    id: crypto.randomUUID(),
    userId,
    type: "totp",
    createdAt: new Date(clock(ctx)),
    label: label ?? null,
    secret: await sealSecret(secret, ctx.secret),
    lastUsedStep: -1,
    active: false,
  };
  await ctx.adapter.createTwoFactor(factor);
  return { factorId: factor.id, secret, uri: otpauthUri({ secret, issuer: ctx.issuer, label: accountName }) };
}

/** Confirms the user's pending factor `factorId` with a first correct code; true when it is active now. */
export async function confirmTotpEnrollment(ctx: TwoFactorContext, options: { userId: string; factorId: string; code: string }): Promise<boolean> {
  const factor = (await ctx.adapter.getTwoFactors(options.userId)).find((f) => f.id === options.factorId && !f.active);
  if (!factor || (await useCode(ctx, factor, options.code)) === null) return false;
  return (await ctx.adapter.activateTwoFactor(options.userId, factor.id))?.active === true;
}

/** A new set of recovery codes for the user, replacing the old set; the codes are shown once, only hashes are kept. */
export async function regenerateRecoveryCodes(ctx: TwoFactorContext, userId: string): Promise<string[]> {
  const codes = generateRecoveryCodes(ctx.recoveryCodes ?? DEFAULT_RECOVERY_CODES);
  const hashes = await Promise.all(codes.map((code) => hashRecoveryCode(code, first(ctx.secret))));
  await ctx.adapter.replaceRecoveryCodes(userId, hashes as string[]);
  return codes;
}

/**
 * Removes the user's factor `factorId` (`"recovery"`: their recovery codes). False when they have no
 * such factor. Removing the last active TOTP factor removes the recovery codes too: codes that stand
 * in for a factor the user no longer has would be a second factor nobody enrolled.
 */
export async function removeSecondFactor(ctx: TwoFactorContext, options: { userId: string; factorId: string }): Promise<boolean> {
  const { userId, factorId } = options;
  if (factorId === "recovery") {
    if ((await ctx.adapter.countRecoveryCodes(userId)) === 0) return false;
    await ctx.adapter.replaceRecoveryCodes(userId, []);
    return true;
  }
  if (!(await ctx.adapter.deleteTwoFactor(userId, factorId))) return false;
  if (!(await ctx.adapter.getTwoFactors(userId)).some((f) => f.active)) await ctx.adapter.replaceRecoveryCodes(userId, []);
  return true;
}

/** The user's second factors as they may see them (no secrets): active TOTP factors, then their recovery codes (with how many are left). */
export async function listSecondFactors(ctx: TwoFactorContext, userId: string): Promise<(SecondFactor & { remaining?: number })[]> {
  const factors = (await ctx.adapter.getTwoFactors(userId)).filter((f) => f.active);
  const listed: (SecondFactor & { remaining?: number })[] = factors.map(({ id, type, createdAt, lastUsedAt, label }) => ({
    id, userId, type, createdAt, lastUsedAt: lastUsedAt ?? null, label: label ?? null,
  }));
  const remaining = await ctx.adapter.countRecoveryCodes(userId);
  if (remaining > 0) listed.push({ id: "recovery", userId, type: "recovery", createdAt: new Date(clock(ctx)), remaining });
  return listed;
}

/** Whether the user has a second factor to be challenged with (an active TOTP factor). */
export async function hasSecondFactor(ctx: Pick<TwoFactorContext, "adapter">, userId: string): Promise<boolean> {
  return (await ctx.adapter.getTwoFactors(userId)).some((f) => f.active);
}
