/**
 * The cookies of one response as the browser will hold them once it arrives, for integrations
 * whose framework runs more server code after a sign-in or sign-out in the same request (Qwik
 * City's loaders after an action, SolidStart's queries after a server function, or the app's own
 * code). A session read there from the incoming cookies would re-issue the old session after the
 * sign-out's deletion (or the previous user's over a sign-in's new cookie), and the later
 * Set-Cookie wins. So an integration records here every cookie it writes, each later step reads
 * the request as the browser will send it next, and a read never overwrites what an operation wrote.
 */
import type { SetCookie } from "../cookies.js";
import { CookieState } from "./internal-request.js";

/**
 * Who writes: an `operation` (a route, sign-in, sign-out, update) decides what the session is; a
 * `read` (of the session, of the CSRF token) only refreshes, and gives way to whatever an
 * operation wrote in this response.
 */
export type CookieWriter = "operation" | "read";

/** The ledger of one response: the incoming cookies with the response's writes applied. */
export class ResponseCookies {
  private readonly jar: CookieState;
  /** Names an operation wrote in this response. */
  private readonly decided = new Set<string>();
  private changed = false;

  constructor(incoming: Request) {
    this.jar = new CookieState(incoming.headers.get("cookie"));
  }

  /**
   * Records `list` and returns what of it the response should carry: all of it, or nothing when a
   * `read` would touch a cookie an operation already wrote. The operation's cookies stand as a
   * whole (a sign-out's deletion, a sign-in's chunks), even against a read that began before it
   * and ended after.
   */
  admit(list: SetCookie[], writer: CookieWriter): SetCookie[] {
    if (list.length === 0) return list;
    if (writer === "read" && list.some(({ name }) => this.decided.has(name))) return [];
    if (writer === "operation") for (const { name } of list) this.decided.add(name);
    this.jar.apply(list);
    this.changed = true;
    return list;
  }

  /**
   * `request` as the browser will send it next: its URL and headers, with the cookies this
   * response sets in place of the ones it carried and without the ones it deletes; `request`
   * itself while nothing was written. The body is not carried: the session reads and operations
   * that take it need only the URL and headers.
   */
  asSent(request: Request): Request {
    if (!this.changed) return request;
    const headers = new Headers(request.headers);
    const cookie = this.jar.header();
    if (cookie) headers.set("cookie", cookie);
    else headers.delete("cookie");
    headers.delete("content-type");
    headers.delete("content-length");
    return new Request(request.url, { headers });
  }
}
