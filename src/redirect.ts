/**
 * Where a flow may send the browser. The default `redirect` callback allows relative paths and
 * URLs of the application's own origin; anything else (another host, `//host`, `/\host`,
 * `javascript:`, a URL that does not parse) falls back to the base URL. Whatever a callback
 * returns is normalised once more, so a malformed value can never throw or reach the header raw.
 */
import type { RequestContext } from "./request-context.js";
import type { CallbacksOptions } from "./types.js";

/** The default `redirect` callback: same-origin only. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const base = new URL(baseUrl);
    // A path must be a plain path: "//x" and "/\x" are network-path references in browsers.
    const isPath = url.startsWith("/") && !/^\/[/\\]/.test(url);
    const target = isPath ? new URL(url, base) : new URL(url);
    // Resolution may still change the origin (tabs and newlines are stripped by the URL parser).
    if (target.origin === base.origin) return target.href;
  } catch {
    // Not a URL at all: fall through to the base URL.
  }
  return baseUrl;
}

/**
 * The callback URL a request asks for, as Auth.js reads it: the form's `callbackUrl` field, else the
 * query's, else the cookie the sign-in page remembered it in, else the origin. The first non-empty
 * string wins. Untrusted: every flow judges it with `resolveRedirectUrl` before the browser goes there.
 */
export function requestedCallbackUrl(ctx: Pick<RequestContext, "body" | "query" | "jar" | "cookies" | "origin">): string {
  for (const value of [ctx.body.callbackUrl, ctx.query.get("callbackUrl"), ctx.jar.get(ctx.cookies.callbackUrl.name)]) {
    if (typeof value === "string" && value.length > 0) return value;
  }
  return ctx.origin;
}

/** Runs the `redirect` callback on `url` (default: the origin) and returns an absolute, well-formed URL. */
export async function resolveRedirectUrl(
  url: unknown,
  ctx: Pick<RequestContext, "origin">,
  callback: NonNullable<CallbacksOptions["redirect"]>,
): Promise<string> {
  const candidate = typeof url === "string" && url.length > 0 && url.length <= 8192 ? url : ctx.origin;
  const result = await callback({ url: candidate, baseUrl: ctx.origin });
  return normalizeUrl(result, ctx.origin);
}

/** An absolute `http(s)` URL for a `Location` header, or the fallback when `value` is not one. */
export function normalizeUrl(value: unknown, fallback: string): string {
  if (typeof value !== "string") return fallback;
  try {
    const url = new URL(value, fallback);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  } catch {
    // fall through
  }
  return fallback;
}
