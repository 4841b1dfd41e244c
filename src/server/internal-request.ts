/**
 * Updating the session from server code is a request to the library's own route, answered by
 * `Auth()` in-process (signing in and out run their flows directly: server/actions.ts). This
 * module builds that request from the application's incoming one: the same origin and forwarding
 * headers, the client address the platform gave, the browser's cookies plus whatever an earlier
 * step of the same operation set. `CookieState` is also the ledger's jar (response-cookies.ts).
 */
import type { SetCookie } from "../cookies.js";
import { parseCookies } from "../cookies.js";
import { carryClientAddress } from "../rate-limit/client-address.js";
import { isCookieDeletion, setCookiesOf } from "./set-cookie.js";

/** Headers of the incoming request that decide how `Auth()` sees it (cookies travel separately). */
const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "user-agent", "accept-language"];

/** The cookies a browser would send after receiving `updates`: set ones replace, deleted ones go. */
export class CookieState {
  private readonly jar: Map<string, string>;
  /** Everything set along the way, in order, for the integration to pass on to the browser. */
  readonly written: SetCookie[] = [];

  constructor(cookieHeader: string | null) {
    this.jar = parseCookies(cookieHeader);
  }

  apply(cookies: SetCookie[]): void {
    for (const cookie of cookies) {
      this.written.push(cookie);
      if (isCookieDeletion(cookie)) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
  }

  header(): string {
    return [...this.jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }
}

export interface InternalCall {
  method: "GET" | "POST";
  /** The route under the base path, with its query: `/session`, `/signin/github?prompt=login`. */
  route: string;
  body?: { form: Record<string, string> } | { json: unknown };
  /** Ask for `200 { url }` instead of a redirect. */
  returnRedirect?: boolean;
}

/**
 * A request to `route` on the incoming request's origin, carrying its forwarding headers, its
 * platform address (so the per-address limits count the person, not the server) and `cookies`.
 */
export function internalRequest(incoming: Request, basePath: string, cookies: CookieState, call: InternalCall): Request {
  const origin = new URL(incoming.url).origin;
  const prefix = basePath === "/" ? "" : basePath;
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const cookieHeader = cookies.header();
  if (cookieHeader) headers.set("cookie", cookieHeader);
  if (call.returnRedirect) headers.set("x-auth-return-redirect", "1");
  let body: string | undefined;
  if (call.body && "form" in call.body) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(call.body.form).toString();
  } else if (call.body && "json" in call.body) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(call.body.json);
  }
  return carryClientAddress(incoming, new Request(`${origin}${prefix}${call.route}`, { method: call.method, headers, ...(body !== undefined ? { body } : {}) }));
}

/** What answers an internal call: `Auth` bound to the config, or a narrower route handler. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** Sends one internal call to `handle` and records the cookies it set. */
export async function callRoute(
  handle: RouteHandler,
  incoming: Request,
  options: { basePath: string; cookies: CookieState; call: InternalCall },
): Promise<Response> {
  const response = await handle(internalRequest(incoming, options.basePath, options.cookies, options.call));
  options.cookies.apply(setCookiesOf(response));
  return response;
}

/** Reads a JSON body; `undefined` when there is none or it does not parse. */
export async function jsonOf(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}
