/**
 * The cookies of one Qwik City request as the browser will hold them once the response arrives.
 * Qwik's cookie map keeps one Set-Cookie per name, the last written, and after an action that
 * navigates as a document Qwik City runs the page's loaders in the same request: a session read
 * there from the incoming cookies would re-issue the old session over a sign-out's deletion (or
 * over a sign-in's new cookie). So every cookie appauth writes goes through here, each later step
 * reads the request as it will be sent next, and a read never overwrites what an operation wrote.
 */
import type { Cookie, CookieOptions, RequestEventBase } from "@builder.io/qwik-city";
import type { SetCookie } from "../../src/cookies.js";
import { ResponseCookies, type CookieWriter } from "../../src/server/response-cookies.js";

export type { CookieWriter } from "../../src/server/response-cookies.js";

/** The part of the request event the ledger needs. */
export type CookieEvent = Pick<RequestEventBase, "request" | "sharedMap" | "cookie">;

const LEDGER = "appauth.responseCookies";

function ledgerOf(event: CookieEvent): ResponseCookies {
  let ledger = event.sharedMap.get(LEDGER) as ResponseCookies | undefined;
  if (!ledger) {
    ledger = new ResponseCookies(event.request);
    event.sharedMap.set(LEDGER, ledger);
  }
  return ledger;
}

/** Hands one cookie to Qwik City's cookie API, every attribute kept (chunks are separate cookies already). */
function setCookie(cookie: Cookie, { name, value, options }: SetCookie): void {
  const attributes: CookieOptions = { path: options.path ?? "/" };
  if (options.domain !== undefined) attributes.domain = options.domain;
  if (options.httpOnly !== undefined) attributes.httpOnly = options.httpOnly;
  if (options.secure !== undefined) attributes.secure = options.secure;
  if (options.sameSite !== undefined) attributes.sameSite = options.sameSite;
  // Qwik writes one of the two; Max-Age wins in browsers anyway.
  if (options.maxAge !== undefined) attributes.maxAge = options.maxAge;
  else if (options.expires !== undefined) attributes.expires = options.expires;
  // The same encoding as the core's own Set-Cookie, which its cookie parser undoes.
  cookie.set(name, encodeURIComponent(value), attributes);
}

/**
 * Writes `list` to the response and records it; returns what was written. A `read` that would
 * touch a cookie an operation already wrote in this response writes nothing at all (see
 * `ResponseCookies.admit`).
 */
export function writeCookies(event: CookieEvent, list: SetCookie[], writer: CookieWriter): SetCookie[] {
  const admitted = ledgerOf(event).admit(list, writer);
  for (const cookie of admitted) setCookie(event.cookie, cookie);
  return admitted;
}

/** The request as the browser will send it next; the incoming request itself while nothing was written. */
export function requestAsSent(event: CookieEvent): Request {
  return (event.sharedMap.get(LEDGER) as ResponseCookies | undefined)?.asSent(event.request) ?? event.request;
}
