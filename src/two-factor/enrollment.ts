/**
 * What a signed-in user does with their second factors, and how a code is checked, over the adapter's
 * two-factor methods: start a TOTP enrollment (a pending factor, its secret sealed), confirm it with a
 * first correct code, get new recovery codes, remove a factor, list them. The routes and the sign-in
 * challenge call these; each takes the user's id from the session, never from the request, and every
 * adapter call names that user, so nobody reaches another person's factors.
 */
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import { DEFAULT_RECOVERY_CODES, generateRecoveryCodes, hashRecoveryCode, recoveryCodeCandidates } from "./recovery-codes.js";
import { openSecret, sealSecret } from "./secret-box.js";
import { generateTotpSecret, otpauthUri, verifyTotp } from "./totp.js";
import type { SecondFactor, StoredTotpFactor } from "./types.js";

export interface TwoFactorContext {
  adapter: TwoFactorAdapter;
  /** The configured secret(s): the first seals and hashes, all open and match (rotation). */
  secret: string | readonly string[];
  /** The site's name in authenticator apps. */
  issuer: string;
  /** How many recovery codes a set has. Default 10. */
  recoveryCodes?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** What enrollment shows the person once: the secret (to type in), and the URI (for a QR code). */
export interface TotpEnrollment {
  factorId: string;
  secret: string;
  uri: string;
}

const first = (secret: string | readonly string[]): string => (typeof secret === "string" ? secret : secret[0]!);
const clock = (ctx: TwoFactorContext): number => (ctx.now ?? Date.now)();

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

/**
 * The time step `code` proves for `factor`, and records it as used; null when the code is wrong, or
 * was used already (here or in another process: the adapter's `useTotpStep` decides).
 */
async function useCode(ctx: TwoFactorContext, factor: StoredTotpFactor, code: string): Promise<number | null> {
  const secret = await openSecret(factor.secret, ctx.secret);
  if (secret === null) return null;
  const step = await verifyTotp(secret, code, clock(ctx));
  if (step === null || step <= factor.lastUsedStep) return null;
  return (await ctx.adapter.useTotpStep(factor.userId, factor.id, step)) ? step : null;
}

/** Confirms the user's pending factor `factorId` with a first correct code; true when it is active now. */
export async function confirmTotpEnrollment(ctx: TwoFactorContext, options: { userId: string; factorId: string; code: string }): Promise<boolean> {
  const factor = (await ctx.adapter.getTwoFactors(options.userId)).find((f) => f.id === options.factorId && !f.active);
  if (!factor || (await useCode(ctx, factor, options.code)) === null) return false;
  return (await ctx.adapter.activateTwoFactor(options.userId, factor.id))?.active === true;
}

/** Checks a code against the user's active TOTP factors; the id of the one it proved, or null. */
export async function useTotpCode(ctx: TwoFactorContext, options: { userId: string; code: string }): Promise<string | null> {
  for (const factor of await ctx.adapter.getTwoFactors(options.userId)) {
    if (factor.active && (await useCode(ctx, factor, options.code)) !== null) return factor.id;
  }
  return null;
}

/** Uses up one of the user's recovery codes; true when `typed` was one of them (each works once). */
export async function useRecoveryCode(ctx: TwoFactorContext, options: { userId: string; code: string }): Promise<boolean> {
  for (const hash of await recoveryCodeCandidates(options.code, ctx.secret)) {
    if (await ctx.adapter.useRecoveryCode(options.userId, hash)) return true;
  }
  return false;
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
