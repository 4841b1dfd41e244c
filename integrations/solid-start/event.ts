/**
 * The parts of SolidStart's request event the integration uses — the ones SolidStart 1.x and 2.x
 * both have (`request`, `locals`, `response.headers`) — typed structurally, so nothing here imports
 * `@solidjs/start`, `vinxi/http` or `h3`. The current event comes from `getRequestEvent()`.
 */
import { getRequestEvent } from "solid-js/web";
import { serializeCookie, type SetCookie } from "../../src/cookies.js";
import type { Session } from "../../src/types.js";

/** A SolidStart `FetchEvent` / `RequestEvent` / `APIEvent`, as far as appauth needs it. */
export interface AuthRequestEvent {
  request: Request;
  /** The connection's address, as SolidStart gives it (behind proxies, see `rateLimit.trustProxy`). */
  clientAddress?: string | undefined;
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
 * Appends `cookies` to the response of `event`, with every attribute the core gave them (`Max-Age`,
 * `Expires`, `Domain`, ...). Returns false when they could not be written: there is no response, or
 * a streamed page had already sent its headers (read the session before the shell flushes —
 * `createAsync(..., { deferStream: true })` — to keep a rolling session rolling).
 */
export function writeCookies(event: AuthRequestEvent | undefined, cookies: SetCookie[]): boolean {
  if (cookies.length === 0) return true;
  if (!event?.response?.headers) return false;
  try {
    for (const cookie of cookies) event.response.headers.append("set-cookie", serializeCookie(cookie));
    return true;
  } catch {
    return false;
  }
}
