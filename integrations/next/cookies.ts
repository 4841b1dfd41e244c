/**
 * Passing cookies the core set on to the browser, in each of Next's places: the cookie store of a
 * server action or route handler (`next/headers`), a `Response` (middleware, wrapped handlers), or a
 * Node `ServerResponse` (API routes, `getServerSideProps`).
 */
import { serializeCookie, type SetCookie } from "../../src/cookies.js";
import { nextHeaders, nextNavigation } from "./modules.js";

/** The response half of a pages-router API route or of `getServerSideProps`' context. */
export interface NodeResponseLike {
  /** Reads a header already set on the response (`Set-Cookie`, to add to it). */
  getHeader(name: string): number | string | string[] | undefined;
  /** Sets a response header. */
  setHeader(name: string, value: string | string[]): unknown;
  /** Whether the headers are gone: cookies can no longer be set then. */
  headersSent?: boolean;
}

/**
 * Writes `list` through Next's cookie API. Server components may not set cookies: there the write
 * is skipped (the next request through middleware or a route handler refreshes the session).
 * With `readFrom` (the cookies a session read started from), a read's re-issued cookies are
 * written only if nothing else wrote those names since: Next sends the last write of each name, so
 * a read still running when a sign-out or sign-in in the same action ended would otherwise put
 * the old session back over the deletion or the new session. Returns whether the cookies were written.
 */
export async function writeToCookieStore(list: SetCookie[], options: { readFrom?: ReadonlyMap<string, string> } = {}): Promise<boolean> {
  if (list.length === 0) return true;
  try {
    const store = await (await nextHeaders()).cookies();
    const { readFrom } = options;
    if (readFrom && list.some(({ name }) => store.get(name)?.value !== readFrom.get(name))) return false;
    for (const { name, value, options } of list) {
      store.set(name, value, {
        path: options.path ?? "/",
        ...(options.httpOnly !== undefined ? { httpOnly: options.httpOnly } : {}),
        ...(options.secure !== undefined ? { secure: options.secure } : {}),
        ...(options.sameSite !== undefined ? { sameSite: options.sameSite } : {}),
        ...(options.domain !== undefined ? { domain: options.domain } : {}),
        ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {}),
        ...(options.expires !== undefined ? { expires: options.expires } : {}),
      });
    }
    return true;
  } catch (error) {
    (await nextNavigation()).unstable_rethrow(error);
    return false;
  }
}

/** Appends `list` to a response's `Set-Cookie`; a response with immutable headers is returned as is. */
export function appendToResponse<R extends Response>(response: R, list: SetCookie[]): R {
  try {
    for (const cookie of list) response.headers.append("set-cookie", serializeCookie(cookie));
  } catch {
    // `Response.redirect()` and `Response.error()` have immutable headers: nothing to add them to.
  }
  return response;
}

/** Appends `list` to a Node response's `Set-Cookie` header, keeping what the application set. */
export function appendToNodeResponse(res: NodeResponseLike | undefined, list: SetCookie[]): void {
  if (!res || list.length === 0 || res.headersSent) return;
  const existing = res.getHeader("set-cookie");
  const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader("set-cookie", [...before, ...list.map(serializeCookie)]);
}
