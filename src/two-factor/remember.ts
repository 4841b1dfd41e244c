/**
 * "Remember this browser" (`twoFactor.rememberBrowser`): after a passed challenge with the box ticked,
 * the browser gets an HttpOnly cookie `v1.<user>.<factors version>.<expiry>.<mac>`, where the MAC is
 * an HMAC-SHA256 with the configured secret (the newest signs, every one in the list verifies) over the
 * cookie's name and everything before it. A later sign-in of that user from that browser skips the
 * challenge while the cookie is unexpired and the user's factors version (raised by the adapter in
 * every write that changes their factors) is still the one it names: confirming, removing a factor or
 * listing new recovery codes voids it everywhere. Nothing the person typed is in it.
 *
 * A remembered sign-in records `remembered` in `amr` (REMEMBERED_AMR, the completion adds it), never
 * `otp` or `mfa`: it does not count as a recent second factor for enrollment changes or a step-up.
 */
import type { TwoFactorVersionAdapter } from "../adapters/extensions.js";
import type { Runtime } from "../config/runtime.js";
import { constantTimeEqual } from "../csrf.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import { decodeBase64url, encodeBase64url } from "../jwt/base64url.js";
import { toHex } from "../encoding.js";
import type { RequestContext } from "../request-context.js";
import type { TwoFactorOptions } from "./options.js";

/** How long a browser is remembered when `rememberBrowser` is `true`, in seconds: 30 days. */
export const REMEMBER_MAX_AGE = 30 * 24 * 60 * 60;

const VERSION = "v1";
const encoder = new TextEncoder();

/** How long a browser is remembered, in seconds, or `null` when the option is off. */
export function rememberMaxAge(options: TwoFactorOptions | undefined): number | null {
  const remember = options?.rememberBrowser;
  if (!remember) return null;
  return remember === true ? REMEMBER_MAX_AGE : (remember.maxAge ?? REMEMBER_MAX_AGE);
}

async function mac(message: string, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`appauth remembered browser:${message}`))));
}

function versionOf(rt: Runtime, userId: string): Promise<number> {
  return (rt.adapter as unknown as TwoFactorVersionAdapter).getTwoFactorVersion(userId);
}

/** The cookie that remembers this browser for `userId` (at their factors version now); `now` in epoch ms. */
export async function rememberBrowser(rt: Runtime, ctx: RequestContext, userId: string, now = Date.now()): Promise<SetCookie[]> {
  const maxAge = rememberMaxAge(rt.twoFactor);
  if (maxAge === null) return [];
  const cookie = ctx.cookies.twoFactorRemembered;
  const until = Math.floor(now / 1000) + maxAge;
  const signed = `${VERSION}.${encodeBase64url(encoder.encode(userId))}.${await versionOf(rt, userId)}.${until}`;
  const value = `${signed}.${await mac(`${cookie.name}|${signed}`, rt.secrets[0]!)}`;
  return [{ name: cookie.name, value, options: { ...cookie.options, maxAge, expires: new Date(until * 1000) } }];
}

/**
 * Whether this browser is remembered for `userId` at `now`: the option is on, the cookie's MAC verifies
 * with one of the secrets, it names this user, it has not expired, and the user's factors have not
 * changed since. Anything else (no cookie, another user's, forged, expired, void) is `false`.
 */
export async function isBrowserRemembered(rt: Runtime, ctx: RequestContext, userId: string, now = Date.now()): Promise<boolean> {
  if (rememberMaxAge(rt.twoFactor) === null || !userId) return false;
  const cookie = ctx.cookies.twoFactorRemembered;
  const raw = ctx.jar.get(cookie.name);
  if (!raw || raw.length > 1024) return false;
  const parts = raw.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) return false;
  const [, user, version, until, tag] = parts as [string, string, string, string, string];
  const signed = parts.slice(0, 4).join(".");
  let verified = false;
  for (const secret of rt.secrets) if (constantTimeEqual(tag, await mac(`${cookie.name}|${signed}`, secret))) verified = true;
  if (!verified) return false;
  const bytes = decodeBase64url(user);
  if (!bytes) return false;
  let named: string;
  try {
    named = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (named !== userId || !/^\d+$/.test(until) || Number(until) * 1000 <= now || !/^\d+$/.test(version)) return false;
  return Number(version) === (await versionOf(rt, userId));
}

/** The cookie that makes this browser forget it was remembered. */
export function forgetBrowser(ctx: RequestContext): SetCookie {
  return expireCookie(ctx.cookies.twoFactorRemembered.name, ctx.cookies.twoFactorRemembered.options);
}
