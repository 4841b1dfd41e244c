/**
 * The parts of SolidStart's request event the integration uses — the ones SolidStart 1.x and 2.x
 * both have (`request`, `locals`, `response.headers`) — typed structurally, so nothing here imports
 * `@solidjs/start`, `vinxi/http` or `h3`. The current event comes from `getRequestEvent()`.
 *
 * Every cookie appauth writes in a request is recorded (src/server/response-cookies.ts), and every
 * later step of the same request reads it as the browser will send it next: a session read after a
 * sign-out in the same server function, or in the page queries SolidStart runs after it (single
 * flight, on a copy of the event sharing its `locals`), must not re-issue the old session after
 * the deletion — the browser keeps the last Set-Cookie of a name.
 */
import { getRequestEvent } from "solid-js/web";
import { serializeCookie, type SetCookie } from "../../src/cookies.js";
import { ResponseCookies, type CookieWriter } from "../../src/server/response-cookies.js";
import type { Session } from "../../src/types.js";

export type { CookieWriter } from "../../src/server/response-cookies.js";

/** A SolidStart `FetchEvent` / `RequestEvent` / `APIEvent`, as far as appauth needs it. */
export interface AuthRequestEvent {
  /** The request being served. */
  request: Request;
  /** The connection's address, as SolidStart gives it (behind proxies, see `rateLimit.trustProxy`). */
  clientAddress?: string | undefined;
  /** Per-request storage: the middleware puts `auth()` here. */
  locals: Record<string | number | symbol, unknown>;
  /** The response under construction: cookies written here reach the browser with it. */
  response?: { headers: Pick<Headers, "append"> };
}

/** What the middleware puts on `event.locals`. */
export interface AuthLocals {
  /** The session of this request, read once on first call (later calls share the answer); `null` without one. */
  auth(): Promise<Session | null>;
}

/** The event of the request being served, or `undefined` outside one (a script, a browser). */
export function currentEvent(): AuthRequestEvent | undefined {
  return getRequestEvent() as AuthRequestEvent | undefined;
}

/**
 * The ledger of each request, keyed by its `locals`: one object per request, which the copies of
 * the event SolidStart makes for the same request (single-flight rendering) share.
 */
const ledgers = new WeakMap<object, ResponseCookies>();

function ledgerOf(event: Pick<AuthRequestEvent, "request" | "locals">): ResponseCookies {
  let ledger = ledgers.get(event.locals);
  if (!ledger) {
    ledger = new ResponseCookies(event.request);
    ledgers.set(event.locals, ledger);
  }
  return ledger;
}

/**
 * The request of `event` as the browser will send it next: the cookies this response sets in
 * place of the ones it carried, none of the ones it deletes; `event.request` while nothing was written.
 */
export function requestAsSent(event: Pick<AuthRequestEvent, "request" | "locals">): Request {
  return ledgers.get(event.locals)?.asSent(event.request) ?? event.request;
}

/**
 * Records `cookies` that leave by another way than `event.response` (the catch-all route's own
 * `Response`), so the rest of the request reads the session they make.
 */
export function recordCookies(event: Pick<AuthRequestEvent, "request" | "locals">, cookies: SetCookie[]): void {
  ledgerOf(event).admit(cookies, "operation");
}

/**
 * Appends `cookies` to the response of `event`, with every attribute the core gave them (`Max-Age`,
 * `Expires`, `Domain`, ...), unless `writer` is a `read` that would overwrite what a sign-in,
 * sign-out or update wrote in this response (it then writes nothing). Returns false when they could
 * not be written: there is no response, or a streamed page had already sent its headers (read the
 * session before the shell flushes — `createAsync(..., { deferStream: true })` — to keep a rolling
 * session rolling).
 */
export function writeCookies(event: AuthRequestEvent | undefined, cookies: SetCookie[], writer: CookieWriter): boolean {
  if (cookies.length === 0) return true;
  if (!event?.response?.headers) return false;
  try {
    for (const cookie of ledgerOf(event).admit(cookies, writer)) event.response.headers.append("set-cookie", serializeCookie(cookie));
    return true;
  } catch {
    return false;
  }
}
