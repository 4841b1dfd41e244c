/**
 * What a built-in page shows again after the redirect that leads to it: the account name a refused
 * credentials form carried, the address a sign-in link went to. Never in the URL (browser history,
 * proxy and CDN logs, analytics scripts and `Referer` keep URLs): in a short-lived cookie, encrypted
 * with the secret, HttpOnly and scoped to the auth routes, which the page reads once and clears.
 * Written only when the built-in page will read it; an application's own page gets none.
 */
import type { Runtime } from "../config/runtime.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import { decode, encode } from "../jwt/index.js";
import type { RequestContext } from "../request-context.js";
import type { CredentialsConfig } from "../types.js";

/** Format version of the cookie's content. */
const VERSION = 1;
/** The longest value carried: an email address's limit (RFC 5321 path). */
const MAX_VALUE_LENGTH = 320;

/** The built-in pages that read a hint. */
export type HintedPage = "signin" | "verify-request";

/** One value a page shows again: in `field` of `provider`'s form (or, on verify-request, as the address). */
export interface PageHint {
  page: HintedPage;
  provider: string;
  field: string;
  value: string;
}

/** Names of a `text` field that name an account rather than hold a code. */
const ACCOUNT_NAMES = new Set(["email", "username", "login", "identifier", "user", "name"]);

/**
 * The one credentials field whose value the sign-in page may show again: the first declared with
 * `type: "email"`, else the first declared `type: "text"` under an account name (`username`, ...).
 * A field without a declared type (Auth.js's docs declare `password: {}`), or any other type, is
 * never shown: it may hold a password or a one-time code.
 */
export function redisplayedField(provider: CredentialsConfig): string | undefined {
  const declared = Object.entries(provider.credentials ?? {});
  const typed = (type: string) => declared.filter(([, input]) => input?.type === type).map(([name]) => name);
  const email = typed("email")[0];
  if (email !== undefined) return email;
  return typed("text").find((name) => ACCOUNT_NAMES.has(name.toLowerCase()));
}

/** Whether `value` is something a hint may carry. */
export function isShowableValue(value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= MAX_VALUE_LENGTH;
}

/** The cookie that carries `hint` to its page, when the built-in page is the one that will show. */
export async function pageHintCookie(rt: Runtime, ctx: RequestContext, hint: PageHint): Promise<SetCookie[]> {
  if (hint.page === "signin" ? rt.pages.signIn : rt.pages.verifyRequest) return [];
  if (!isShowableValue(hint.value)) return [];
  const cookie = ctx.cookies.pageHint;
  const maxAge = cookie.options.maxAge ?? 300;
  const token = { v: VERSION, page: hint.page, p: hint.provider, f: hint.field, value: hint.value };
  const sealed = await encode({ token, secret: rt.secrets, salt: cookie.name, maxAge });
  return [{ name: cookie.name, value: sealed, options: { ...cookie.options, maxAge, expires: new Date(Date.now() + maxAge * 1000) } }];
}

/**
 * The hint the request carries for `page`, if any, and the cookie that clears it: read once,
 * whichever page it was meant for. Tampered, expired or for another page: no hint.
 */
export async function takePageHint(rt: Runtime, ctx: RequestContext, page: HintedPage): Promise<{ hint?: PageHint; cookies: SetCookie[] }> {
  const cookie = ctx.cookies.pageHint;
  const raw = ctx.jar.get(cookie.name);
  if (!raw) return { cookies: [] };
  const cleared = [expireCookie(cookie.name, cookie.options)];
  const payload = await decode<{ v?: unknown; page?: unknown; p?: unknown; f?: unknown; value?: unknown }>({
    token: raw,
    secret: rt.secrets,
    salt: cookie.name,
  }).catch(() => null);
  if (!payload || payload.v !== VERSION || payload.page !== page) return { cookies: cleared };
  const { p, f, value } = payload;
  if (typeof p !== "string" || typeof f !== "string" || !isShowableValue(value)) return { cookies: cleared };
  return { hint: { page, provider: p, field: f, value }, cookies: cleared };
}
