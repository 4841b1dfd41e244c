/**
 * Checking what a person typed against their second factors, for enrollment (the first code that
 * turns a factor on) and for the sign-in challenge: a TOTP code proves one unused time step of an
 * active factor, a recovery code is used up. Every adapter call names the user, so nobody's code
 * reaches another person's factors.
 */
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import { recoveryCodeCandidates } from "./recovery-codes.js";
import { openSecret } from "./secret-box.js";
import { verifyTotp } from "./totp.js";
import type { StoredTotpFactor } from "./types.js";

/** What checking a code needs: the store and the configured secret(s). */
export interface CodeContext {
  adapter: TwoFactorAdapter;
  /** The configured secret(s): the first seals and hashes, all open and match (rotation). */
  secret: string | readonly string[];
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

export const clock = (ctx: Pick<CodeContext, "now">): number => (ctx.now ?? Date.now)();

/**
 * The time step `code` proves for `factor`, and records it as used; null when the code is wrong, or
 * was used already (here or in another process: the adapter's `useTotpStep` decides).
 */
export async function useCode(ctx: CodeContext, factor: StoredTotpFactor, code: string): Promise<number | null> {
  const secret = await openSecret(factor.secret, ctx.secret);
  if (secret === null) return null;
  const step = await verifyTotp(secret, code, clock(ctx));
  if (step === null || step <= factor.lastUsedStep) return null;
  return (await ctx.adapter.useTotpStep(factor.userId, factor.id, step)) ? step : null;
}

/** Checks a code against the user's active TOTP factors; the id of the one it proved, or null. */
export async function useTotpCode(ctx: CodeContext, options: { userId: string; code: string }): Promise<string | null> {
  for (const factor of await ctx.adapter.getTwoFactors(options.userId)) {
    if (factor.active && (await useCode(ctx, factor, options.code)) !== null) return factor.id;
  }
  return null;
}

/** Uses up one of the user's recovery codes; true when `typed` was one of them (each works once). */
export async function useRecoveryCode(ctx: CodeContext, options: { userId: string; code: string }): Promise<boolean> {
  for (const hash of await recoveryCodeCandidates(options.code, ctx.secret)) {
    if (await ctx.adapter.useRecoveryCode(options.userId, hash)) return true;
  }
  return false;
}
