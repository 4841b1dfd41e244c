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
import { CookieState } from "../../src/server/internal-request.js";

/** The part of the request event the ledger needs. */
export type CookieEvent = Pick<RequestEventBase, "request" | "sharedMap" | "cookie">;

/**
 * Who writes: an `operation` (a route, sign-in, sign-out, update) decides what the session is; a
 * session `read` only refreshes it, and gives way to whatever an operation wrote in this response.
 */
export type CookieWriter = "operation" | "read";

const LEDGER = "appauth.responseCookies";

interface Ledger {
  /** The incoming cookies with this response's writes applied. */
  jar: CookieState;
  /** Names an operation wrote in this response. */
  decided: Set<string>;
}

function ledgerOf(event: CookieEvent): Ledger {
  let ledger = event.sharedMap.get(LEDGER) as Ledger | undefined;
  if (!ledger) {
    ledger = { jar: new CookieState(event.request.headers.get("cookie")), decided: new Set() };
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
 * touch a cookie an operation already wrote in this response writes nothing at all: the
 * operation's cookies stand as a whole (a sign-out's deletion, a sign-in's chunks), even against a
 * read that began before it and ended after.
 */
export function writeCookies(event: CookieEvent, list: SetCookie[], writer: CookieWriter): SetCookie[] {
  if (list.length === 0) return list;
  const ledger = ledgerOf(event);
  if (writer === "read" && list.some(({ name }) => ledger.decided.has(name))) return [];
  for (const cookie of list) {
    setCookie(event.cookie, cookie);
    if (writer === "operation") ledger.decided.add(cookie.name);
  }
  ledger.jar.apply(list);
  return list;
}

/**
 * The request as the browser will send it next: the incoming one, with the cookies this response
 * sets in place of the ones it carried and without the ones it deletes. The incoming request
 * itself while nothing was written. Its body is not carried: the session reads and operations that
 * take it need only its URL and headers.
 */
export function requestAsSent(event: CookieEvent): Request {
  const ledger = event.sharedMap.get(LEDGER) as Ledger | undefined;
  if (!ledger) return event.request;
  const headers = new Headers(event.request.headers);
  const cookie = ledger.jar.header();
  if (cookie) headers.set("cookie", cookie);
  else headers.delete("cookie");
  headers.delete("content-type");
  headers.delete("content-length");
  return new Request(event.request.url, { headers });
}
