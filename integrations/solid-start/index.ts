/**
 * `appauth/solid-start` — integration C (experimental): appauth in a SolidStart application.
 *
 * ```ts
 * // src/lib/auth.ts
 * import ReactiveAuth from "appauth/solid-start";
 * export const auth = ReactiveAuth({ providers: [...] });
 * // src/routes/api/auth/[...auth].ts
 * export const { GET, POST } = auth;
 * // src/middleware.ts
 * export default createMiddleware({ onRequest: [auth.middleware({ protect: ["/protected"] })] });
 * ```
 *
 * A thin translation: the session read, sign-in, sign-out and update are the core's server-side
 * operations (`src/server`); this module takes the request from SolidStart's request event and
 * writes cookies (every attribute kept) and redirects back through it. It uses only what
 * SolidStart 1.x and 2.x both offer — `getRequestEvent()`, `event.request`, `event.locals`,
 * `event.response.headers` — and imports neither `vinxi/http` nor `h3`.
 */
import type { SetCookie } from "../../src/cookies.js";
import { Auth } from "../../src/handler.js";
import { withDetachedBody } from "../../src/request-body.js";
import { InvalidProvider } from "../../src/errors.js";
import { setClientAddress } from "../../src/rate-limit/client-address.js";
import { signInAction, signOutAction, updateSessionAction, type AuthorizationParams } from "../../src/server/actions.js";
import { guardRequest, signInRedirectUrl, storeUnavailableResponse } from "../../src/server/guard.js";
import { runtimeOf } from "../../src/server/runtime.js";
import { recentSecondFactorRedirect } from "../../src/server/step-up.js";
import { listSessionsAction, revokeAllSessions as revokeAllOfUser, revokeSessionsAction, type RevokeRequest, type SessionInfo } from "../../src/server/sessions.js";
import { readSession, type SessionRead } from "../../src/server/session.js";
import { setCookiesOf } from "../../src/server/set-cookie.js";
import type { AuthConfigInput, Session } from "../../src/types.js";
import { toCoreConfig, type ReactiveAuthConfigInput } from "./config.js";
import { tracelessly } from "./client-error.js";
import { assertSameSitePost, csrfTokenFor } from "./csrf.js";
import { currentEvent, recordCookies, requestAsSent, writeCookies, type AuthLocals, type AuthRequestEvent } from "./event.js";

export { DEFAULT_PREFIX, type ReactiveAuthConfig, type ReactiveAuthConfigInput } from "./config.js";
export type { AuthLocals, AuthRequestEvent } from "./event.js";
export type { Session, User, JWT, DefaultSession } from "../../src/types.js";
export { AuthError, CredentialsSignin, MissingCSRF } from "../../src/errors.js";
export type { AuthorizationParams } from "../../src/server/actions.js";
export type { SessionInfo } from "../../src/server/sessions.js";

/**
 * A route handler of the catch-all API route: a response, or `undefined` for a path outside
 * `prefix`. Given SolidStart's event (with its `locals`), the rest of the request reads the session
 * as the response leaves it.
 */
export type AuthRouteHandler = (event: { request: Request; clientAddress?: string; locals?: AuthRequestEvent["locals"] }) => Promise<Response | undefined>;

/** Options of the sign-in action: the submitted form itself, or an object. */
export type SignInOptions =
  | FormData
  | ({ redirectTo?: string; redirect?: boolean; csrfToken?: string } & Record<string, unknown>);

export interface SignOutOptions {
  /** Where to go afterwards; default: the page the action was called from. */
  redirectTo?: string;
  /** `false`: return the URL instead of redirecting. */
  redirect?: boolean;
  /** The token of the form (`csrfToken()`), when the options are not the form itself. */
  csrfToken?: string;
}

export interface MiddlewareOptions {
  /**
   * Pages that need a signed-in user: path prefixes (`"/protected"` covers `/protected/…`) or a
   * function of the URL. A visitor without a session is sent to the sign-in page, coming back to
   * the full URL afterwards. The library's routes and pages are never guarded, so a denial never
   * leads to another.
   */
  protect?: readonly string[] | ((url: URL) => boolean);
}

export interface ReactiveAuthResult {
  /** `export const { GET, POST } = auth` in `src/routes/<prefix>/[...auth].ts`. */
  GET: AuthRouteHandler;
  /** The catch-all route's POST handler. */
  POST: AuthRouteHandler;
  /**
   * The session of the request being served (a `"use server"` function, an API route, the
   * render), read once per request; refreshed cookies go out with its response. `null` without a
   * session, outside a request, or when it cannot be read.
   */
  auth(event?: AuthRequestEvent): Promise<Session | null>;
  /** For `createMiddleware({ onRequest })`: puts a lazy `auth()` on `event.locals` and guards `protect`ed pages. */
  middleware(options?: MiddlewareOptions): (event: AuthRequestEvent) => Promise<Response | undefined>;
  /**
   * The session, or a redirect to the sign-in page (thrown, as SolidStart expects) that brings the
   * visitor back to `path` — the page being shown. Call it in a `"use server"` query that the
   * protected route preloads: client-side navigations reach the server through it too.
   */
  requireSession(path?: string): Promise<Session>;
  /**
   * Step-up, in a `"use server"` function before a sensitive action or in the query a sensitive page
   * preloads: returns when the session proved a second factor in the last `maxAge` seconds; otherwise
   * throws a redirect through the step-up page (signed out: through sign-in) that comes back to
   * `path` (default: the calling page). Needs `twoFactor` in the config.
   */
  requireRecentSecondFactor(maxAge: number, options?: { path?: string }): Promise<void>;
  /**
   * Signs in from a `"use server"` action, after checking the form's `csrfToken` against the CSRF
   * cookie and refusing other sites' posts. Without `provider`, and for passkeys: the sign-in
   * page. Redirects (throws a redirect `Response`) to the provider, the check-your-email page or
   * `redirectTo` (default: the calling page); with `redirect: false` returns that URL. Throws the
   * `AuthError` of a failed sign-in (`CredentialsSignin` with its `code`, `RateLimited` with its
   * `retryAfter`, `MissingCSRF`), without a stack: SolidStart sends it to the browser as it is.
   */
  signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string>;
  /** Signs out from a `"use server"` action, with the same checks; redirects to `redirectTo` (default: the calling page). */
  signOut(options?: SignOutOptions | FormData): Promise<string>;
  /**
   * Updates the session (jwt callback `trigger: "update"`); the new session, or `null`. Called from
   * a form's action, pass the form (or `{ csrfToken }`) as `form`: the same checks as `signIn` run
   * first, and a refused post throws `MissingCSRF`.
   */
  update(data: Partial<Session> | Record<string, unknown>, form?: FormData | { csrfToken?: string }): Promise<Session | null>;
  /** The CSRF token for a sign-in or sign-out form rendered on the server. */
  csrfToken(): Promise<string>;
  /** The signed-in person's sessions ("Your devices"), theirs marked `current`; `null` when signed out. */
  listSessions(): Promise<SessionInfo[] | null>;
  /**
   * Ends one of the signed-in person's sessions; `false` when they have none with this id (another
   * person's included). Called from a form's action, pass the form: the checks of `signIn` run first.
   */
  revokeSession(sessionId: string, form?: FormData | { csrfToken?: string }): Promise<boolean>;
  /** Ends every session of the signed-in person but this one; how many ended. `form` as for `revokeSession`. */
  revokeOtherSessions(form?: FormData | { csrfToken?: string }): Promise<number>;
  /**
   * With `userId`: the application ends every session of that user (after a password change, a
   * ban). Without: the signed-in person ends all of theirs, this one too. How many ended.
   */
  revokeAllSessions(userId?: string, form?: FormData | { csrfToken?: string }): Promise<number>;
}

/** The request event passed in, else the current one; an operation that needs one fails without it. */
function eventOf(event: AuthRequestEvent | undefined, operation: string): AuthRequestEvent {
  const found = event ?? currentEvent();
  if (!found) throw new Error(`${operation} must be called while SolidStart serves a request (in a "use server" function, an API route or middleware).`);
  return found;
}

/** The event's request, carrying the connection's address for the rate limiter's per-client limits. */
function requestOf(event: Pick<AuthRequestEvent, "request" | "clientAddress">): Request {
  return setClientAddress(event.request, event.clientAddress);
}

/** The request as the browser will send it next (this response's cookies applied), with the connection's address. */
function sentRequestOf(event: AuthRequestEvent): Request {
  return requestOf({ request: requestAsSent(event), clientAddress: event.clientAddress });
}

/** A path of this origin to come back to: the calling page (its `Referer`), else `/`. */
function callingPage(request: Request): string {
  const referer = request.headers.get("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.origin === new URL(request.url).origin ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

/** Only a path of this application: anything else (`//evil`, `https://…`) is the home page. */
function safePath(path: string | undefined): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}

/** A form or an options object as the fields to post, the redirect options and the submitted CSRF token. */
function splitOptions(options: SignInOptions | undefined) {
  const fields: Record<string, string> = {};
  let redirectTo: string | undefined;
  let redirect = true;
  let csrfToken: unknown;
  const entries: Iterable<[string, unknown]> = options instanceof FormData ? options.entries() : Object.entries(options ?? {});
  for (const [key, value] of entries) {
    if (key === "redirectTo") {
      if (typeof value === "string" && value) redirectTo = value;
    } else if (key === "redirect") {
      redirect = !(value === false || value === "false");
    } else if (key === "csrfToken") {
      csrfToken = value;
    } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      fields[key] = String(value);
    }
  }
  return { fields, redirectTo, redirect, csrfToken };
}

function underPrefix(prefix: string, pathname: string): boolean {
  return prefix === "/" || pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * What a server function throws to send the browser elsewhere: SolidStart follows `Location`,
 * with or without JavaScript. The URL is absolute, so the router loads the page anew; it is told
 * to refetch none of the current page's queries first (`X-Revalidate` naming no query), or the
 * page would show the new state — a guard sending a signed-out visitor to sign in — before it goes.
 */
function redirectResponse(url: string): Response {
  return new Response(null, { status: 302, headers: { location: url, "x-revalidate": "appauth:none" } });
}

/**
 * Sets up appauth for a SolidStart application: the catch-all route's handlers and the server
 * operations, all bound to `config`.
 *
 * @param config a `ReactiveAuthConfig`, or a function of the request returning one.
 */
export default function ReactiveAuth(config: ReactiveAuthConfigInput): ReactiveAuthResult {
  const core = toCoreConfig(config);
  // One read per request event: the middleware's lazy reader, the render and the app's queries share it.
  const reads = new WeakMap<object, Promise<SessionRead>>();

  const handle: AuthRouteHandler = async (event) => {
    const { request, clientAddress, locals } = event;
    const rt = await runtimeOf(request, core).catch(() => undefined);
    // A config that does not resolve is answered by `Auth` itself (its typed error page).
    if (rt && !underPrefix(rt.basePath, new URL(event.request.url).pathname)) return undefined;
    // The body is detached: h3 on Node throws, uncaught, when its stream is cancelled (request-body.ts).
    const response = await Auth(requestOf({ request: withDetachedBody(request), clientAddress }), core);
    if (locals) {
      // Its cookies leave with the response; a session read later in this request must see them.
      recordCookies({ request, locals }, setCookiesOf(response));
      reads.delete(event);
    }
    return response;
  };

  function readOnce(event: AuthRequestEvent): Promise<SessionRead> {
    let read = reads.get(event);
    if (!read) {
      // The request as this response leaves it: after a sign-out in the same request there is no
      // session to read, and nothing to re-issue over the deletion.
      read = readSession(requestAsSent(event), core).then((result) => {
        writeCookies(event, result.cookies, "read");
        return result;
      });
      reads.set(event, read);
    }
    return read;
  }

  async function auth(event?: AuthRequestEvent): Promise<Session | null> {
    const found = event ?? currentEvent();
    if (!found) return null;
    return (await readOnce(found)).session;
  }

  function middleware(options: MiddlewareOptions = {}) {
    const { protect } = options;
    if (protect !== undefined && typeof protect !== "function" && !Array.isArray(protect)) {
      throw new TypeError("middleware({ protect }): `protect` must be a list of path prefixes or a function of the URL.");
    }
    const isProtected = (url: URL): boolean => {
      if (!protect) return false;
      if (typeof protect === "function") return protect(url);
      return protect.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix.replace(/\/+$/, "")}/`));
    };
    return async (event: AuthRequestEvent): Promise<Response | undefined> => {
      const locals: AuthLocals = { auth: () => auth(event) };
      event.locals.auth = locals.auth;
      const { request } = event;
      if (request.method !== "GET" && request.method !== "HEAD") return undefined;
      const url = new URL(request.url);
      if (!isProtected(url)) return undefined;
      const { session, unavailable } = await readOnce(event);
      let outcome;
      try {
        outcome = await guardRequest(request, core, { session, authorized: ({ auth: current }) => Boolean(current?.user) });
      } catch (error) {
        // The configuration cannot be resolved: nothing can be decided, so nothing is let through.
        console.error("[appauth] middleware could not check the request:", error);
        return new Response("There is a problem with the server configuration.", { status: 500 });
      }
      // The store is down, not the person signed out: no sign-in redirect (see storeUnavailableResponse).
      if ("redirect" in outcome && unavailable) return storeUnavailableResponse();
      if ("redirect" in outcome) return redirectResponse(outcome.redirect);
      if ("response" in outcome) return outcome.response;
      return undefined;
    };
  }

  async function requireSession(path?: string): Promise<Session> {
    const event = eventOf(undefined, "requireSession()");
    const session = await auth(event);
    if (session?.user) return session;
    const page = new URL(safePath(path ?? callingPage(event.request)), event.request.url);
    const rt = await runtimeOf(event.request, core);
    throw redirectResponse(signInRedirectUrl(rt, new Request(page, { headers: event.request.headers })));
  }

  async function requireRecentSecondFactor(maxAge: number, options: { path?: string } = {}): Promise<void> {
    const event = eventOf(undefined, "requireRecentSecondFactor()");
    const redirectTo = safePath(options.path ?? callingPage(event.request));
    const target = await recentSecondFactorRedirect(sentRequestOf(event), core, { maxAge, redirectTo });
    if (target !== null) throw redirectResponse(target);
  }

  /** Writes the cookies, forgets the request's cached session, then redirects or returns the URL. */
  function finish(event: AuthRequestEvent, result: { url: string; cookies: SetCookie[] }, redirect: boolean): string {
    writeCookies(event, result.cookies, "operation");
    reads.delete(event);
    if (redirect) throw redirectResponse(result.url);
    return result.url;
  }

  async function signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string> {
    const event = eventOf(undefined, "signIn()");
    const { fields, redirectTo, redirect, csrfToken } = splitOptions(options);
    await assertSameSitePost(event.request, core, csrfToken);
    if (provider !== undefined && typeof provider !== "string") throw new InvalidProvider("signIn: `provider` must be a provider id.");
    const result = await signInAction(sentRequestOf(event), core, {
      ...(provider ? { provider } : {}),
      fields,
      redirectTo: redirectTo ?? callingPage(event.request),
      ...(authorizationParams !== undefined ? { authorizationParams } : {}),
    });
    return finish(event, result, redirect);
  }

  async function signOut(options?: SignOutOptions | FormData): Promise<string> {
    const event = eventOf(undefined, "signOut()");
    const { redirectTo, redirect, csrfToken } = splitOptions(options as SignInOptions | undefined);
    await assertSameSitePost(event.request, core, csrfToken);
    const result = await signOutAction(sentRequestOf(event), core, { redirectTo: redirectTo ?? callingPage(event.request) });
    return finish(event, result, redirect);
  }

  async function update(data: Partial<Session> | Record<string, unknown>, form?: FormData | { csrfToken?: string }): Promise<Session | null> {
    const event = currentEvent();
    if (!event) return null;
    if (form !== undefined) await assertSameSitePost(event.request, core, splitOptions(form as SignInOptions).csrfToken);
    const { session, cookies } = await updateSessionAction(sentRequestOf(event), core, data);
    writeCookies(event, cookies, "operation");
    reads.set(event, Promise.resolve({ session, cookies: [] }));
    return session;
  }

  async function csrfToken(): Promise<string> {
    return csrfTokenFor(eventOf(undefined, "csrfToken()"), core);
  }

  async function listSessions(): Promise<SessionInfo[] | null> {
    return listSessionsAction(sentRequestOf(eventOf(undefined, "listSessions()")), core);
  }

  /** Ends what `what` names for the person of the current request (after the form's checks); writes the cookies. */
  async function revoke(what: RevokeRequest, form: FormData | { csrfToken?: string } | undefined, operation: string): Promise<number | null> {
    const event = eventOf(undefined, operation);
    if (form !== undefined) await assertSameSitePost(event.request, core, splitOptions(form as SignInOptions).csrfToken);
    const result = await revokeSessionsAction(sentRequestOf(event), core, what);
    if (!result) return null;
    writeCookies(event, result.cookies, "operation");
    if (result.cookies.length) reads.delete(event);
    return result.revoked;
  }

  async function revokeSession(sessionId: string, form?: FormData | { csrfToken?: string }): Promise<boolean> {
    if (typeof sessionId !== "string" || sessionId === "") throw new TypeError("revokeSession: sessionId must be a non-empty string");
    return (await revoke({ sessionId }, form, "revokeSession()")) !== null;
  }

  async function revokeAllSessions(userId?: string, form?: FormData | { csrfToken?: string }): Promise<number> {
    if (userId !== undefined) return revokeAllOfUser(core, userId);
    return (await revoke({ revoke: "all" }, form, "revokeAllSessions()")) ?? 0;
  }

  // What these throw is serialized into the server function's answer: no stack goes with it.
  return {
    GET: handle,
    POST: handle,
    auth,
    middleware,
    requireSession: (path) => tracelessly(core, () => requireSession(path)),
    requireRecentSecondFactor: (maxAge, options) => tracelessly(core, () => requireRecentSecondFactor(maxAge, options)),
    signIn: (provider, options, authorizationParams) => tracelessly(core, () => signIn(provider, options, authorizationParams)),
    signOut: (options) => tracelessly(core, () => signOut(options)),
    update: (data, form) => tracelessly(core, () => update(data, form)),
    csrfToken: () => tracelessly(core, csrfToken),
    listSessions: () => tracelessly(core, listSessions),
    revokeSession: (sessionId, form) => tracelessly(core, () => revokeSession(sessionId, form)),
    revokeOtherSessions: (form) => tracelessly(core, async () => (await revoke({ revoke: "others" }, form, "revokeOtherSessions()")) ?? 0),
    revokeAllSessions: (userId, form) => tracelessly(core, () => revokeAllSessions(userId, form)),
  };
}

export { ReactiveAuth };

/** Whether `value` is a request event rather than a `Request`. */
function isEvent(value: Request | AuthRequestEvent): value is AuthRequestEvent {
  return !(value instanceof Request) && typeof (value as AuthRequestEvent).request === "object";
}

/**
 * The session of `req`, or `null`, with `options` the same configuration `ReactiveAuth` got (its
 * `prefix` honoured). Called while SolidStart serves `req` (or with its event), it writes the
 * refreshed or rolled session cookie to that response.
 */
export async function getSession(req: Request | AuthRequestEvent, options: ReactiveAuthConfigInput): Promise<Session | null> {
  const core: AuthConfigInput = toCoreConfig(options);
  const event = isEvent(req) ? req : currentEvent();
  const request = isEvent(req) ? req.request : req;
  // Only into the response of this very request: another request's cookies are not this browser's.
  const served = event && (event.request === request || event.request.headers.get("cookie") === request.headers.get("cookie")) ? event : undefined;
  // This request as its response leaves it (after a sign-out in it, no session).
  const { session, cookies } = await readSession(served ? requestAsSent(served) : request, core);
  if (served) writeCookies(served, cookies, "read");
  return session;
}
