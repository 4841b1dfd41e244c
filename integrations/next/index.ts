/**
 * `appauth/next` — integration A: appauth in a Next.js App Router application (Next 15 or 16).
 *
 * ```ts
 * // auth.ts
 * import AppAuth from "appauth/next";
 * export const { handlers, auth, signIn, signOut, unstable_update, listSessions, revokeSession } = AppAuth({ providers: [...] });
 * // app/api/auth/[...appauth]/route.ts
 * export const { GET, POST } = handlers;
 * // middleware.ts
 * export { auth as middleware } from "./auth";
 * ```
 *
 * A thin translation: sessions, sign-in, sign-out and updates are the core's server-side
 * operations (`src/server`); this module only gets the request from Next and hands cookies and
 * redirects back to Next's APIs. Nothing here imports a Node built-in, and the middleware path
 * (`auth` as middleware) loads only the session machines, so it runs on the edge runtime.
 */
import type { NextRequest } from "next/server";
import type { SetCookie } from "../../src/cookies.js";
import type { AuthorizationParams } from "../../src/server/actions.js";
import type { RevokeRequest, SessionInfo } from "../../src/server/sessions.js";
import { resolveAndRead, type SessionRequest } from "../../src/server/session-read.js";
import { readSessionOf } from "../../src/server/session.js";
import type { Session } from "../../src/types.js";
import { toCoreConfig, type AppAuthConfig, type AppAuthConfigInput } from "./config.js";
import { appendToNodeResponse, writeToCookieStore, type NodeResponseLike } from "./cookies.js";
import { middlewareForms, type AppRouteHandler } from "./middleware-forms.js";
import { nextNavigation } from "./modules.js";
import {
  currentPage,
  nextHeadersRequest,
  nodeSessionRequest,
  requestFromNextHeaders,
  requestFromNode,
  requestOf,
  type NextHeadersRequest,
  type NodeRequestLike,
} from "./request.js";

export type { AppAuthConfig, AppAuthConfigInput } from "./config.js";
export type { Account, Profile } from "../../src/types.js";
export type { NodeRequestLike } from "./request.js";
export type { NodeResponseLike } from "./cookies.js";
export type { Session, User, JWT, DefaultSession } from "../../src/types.js";
export { AuthError, CredentialsSignin } from "../../src/errors.js";
export type { AuthorizationParams } from "../../src/server/actions.js";
export type { SessionInfo } from "../../src/server/sessions.js";
export type { AppRouteHandler, NextAuthRequest } from "./middleware-forms.js";

/** `getServerSideProps`' context, or anything carrying a Node request and response. */
export interface ServerSidePropsContextLike {
  /** The Node request: its cookies and headers are read. */
  req: NodeRequestLike;
  /** The Node response: a renewed session cookie is written to it. */
  res: NodeResponseLike;
}

/** Options of the `signIn` server action, or the submitted form itself. */
export type SignInOptions =
  | FormData
  | ({ redirectTo?: string; redirect?: boolean } & Record<string, unknown>);

export interface SignOutOptions {
  /** Where to go afterwards; default: the current page. */
  redirectTo?: string;
  /** `false`: return the URL instead of redirecting. */
  redirect?: boolean;
}

/** Every form `auth` takes. */
export interface AuthFunction {
  /** In a server component, server action or route handler: the session of the current request. */
  (): Promise<Session | null>;
  /**
   * Wraps a middleware or route handler: `request.auth` holds the session (or `null`) and the
   * handler decides — `callbacks.authorized` applies only to `auth` used bare as middleware.
   * Refreshed session cookies are added to the handler's response; a middleware that returns
   * nothing lets the request through.
   */
  <C>(handler: AppRouteHandler<C>): (request: NextRequest, context: C) => Promise<Response>;
  /** Used as middleware itself: keeps the session alive and applies `callbacks.authorized`. */
  (request: NextRequest, event?: unknown): Promise<Response>;
  /** In `getServerSideProps`: `auth(context)`. */
  (context: ServerSidePropsContextLike): Promise<Session | null>;
  /** In a pages-router API route: `auth(req, res)`. */
  (req: NodeRequestLike, res: NodeResponseLike): Promise<Session | null>;
}

export interface AppAuthResult {
  /** The catch-all route's handlers: `export const { GET, POST } = handlers`. */
  handlers: { GET: (request: NextRequest) => Promise<Response>; POST: (request: NextRequest) => Promise<Response> };
  /** The session: `await auth()` in a server component, route handler or server action; `auth(ctx)` in `getServerSideProps`; `auth(handler)` wraps a middleware or route. */
  auth: AuthFunction;
  /**
   * Signs in from a server action. Without `provider`: the sign-in page. Redirects (Next's
   * `redirect`) to the provider, the check-your-email page or `redirectTo` (default: the current
   * page); with `redirect: false` returns that URL. Throws the `AuthError` of a failed sign-in —
   * `CredentialsSignin` with its `code` for refused credentials — to the calling action.
   */
  signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string>;
  /** Signs out from a server action; redirects to `redirectTo` (default: the current page), or returns it with `redirect: false`. */
  signOut(options?: SignOutOptions): Promise<string>;
  /**
   * Step-up, in a server component or server action before a sensitive action: returns when the
   * session proved a second factor in the last `maxAge` seconds; otherwise redirects (Next's
   * `redirect`) through the step-up page (signed out: through sign-in) and back to `redirectTo`.
   * Default `redirectTo`: the calling page (its `Referer`) — a server component, which Next does not
   * tell its own path, passes it. Needs `twoFactor` in the config.
   */
  requireRecentSecondFactor(maxAge: number, options?: { redirectTo?: string }): Promise<void>;
  /** Updates the session (jwt callback `trigger: "update"`); the new session, or `null`. */
  unstable_update(data: Partial<Session> | Record<string, unknown>): Promise<Session | null>;
  /** The signed-in person's sessions ("Your devices"), theirs marked `current`; `null` when signed out. */
  listSessions(): Promise<SessionInfo[] | null>;
  /** Ends one of the signed-in person's sessions; `false` when they have none with this id (another person's included). */
  revokeSession(sessionId: string): Promise<boolean>;
  /** Ends every session of the signed-in person but this one; how many ended. */
  revokeOtherSessions(): Promise<number>;
  /**
   * With `userId`: the application ends every session of that user (after a password change, a
   * ban). Without: the signed-in person ends all of theirs, this one too. How many ended.
   */
  revokeAllSessions(userId?: string): Promise<number>;
}

function isWebRequest(value: unknown): value is NextRequest {
  if (typeof Request !== "undefined" && value instanceof Request) return true;
  const candidate = value as { headers?: { get?: unknown }; url?: unknown } | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.headers?.get === "function" && typeof candidate.url === "string";
}

function isServerSidePropsContext(value: unknown): value is ServerSidePropsContextLike {
  return typeof value === "object" && value !== null && "req" in value && "res" in value;
}

/** A submitted form or an options object, as the fields to post plus the two options. */
function signInFields(options: SignInOptions | undefined): { fields: Record<string, string>; redirectTo?: string; redirect: boolean } {
  const fields: Record<string, string> = {};
  let redirectTo: string | undefined;
  let doRedirect = true;
  const entries: Iterable<[string, unknown]> =
    options instanceof FormData ? options.entries() : Object.entries(options ?? {});
  for (const [key, value] of entries) {
    // Next adds `$ACTION_*` fields to forms bound to server actions: they are not sign-in input.
    if (key.startsWith("$ACTION")) continue;
    if (key === "redirectTo") {
      if (typeof value === "string" && value) redirectTo = value;
    } else if (key === "redirect") {
      doRedirect = !(value === false || value === "false");
    } else if (typeof value === "string") {
      fields[key] = value;
    } else if (typeof value === "number" || typeof value === "boolean") {
      fields[key] = String(value);
    }
  }
  return { fields, ...(redirectTo !== undefined ? { redirectTo } : {}), redirect: doRedirect };
}

/**
 * Sets up appauth for a Next.js application.
 *
 * @param config an `AppAuthConfig`, or a function of the request returning one (the lazy form: the
 * request is absent where there is none, so check before using it).
 */
/** next-auth's name for {@link AppAuthConfig}: an app switching from next-auth changes only its import specifiers. */
export type NextAuthConfig = AppAuthConfig;
/** next-auth's name for {@link AppAuthResult}. */
export type NextAuthResult = AppAuthResult;

export default function AppAuth(config: AppAuthConfigInput): AppAuthResult {
  const core = toCoreConfig(config);

  // The full handler and the sign-in operations load on first use, so the middleware, which only
  // reads sessions, never evaluates the sign-in flows and their machines. (Webpack still bundles
  // them into the edge file, so they must stay free of Node-only and eval-using dependencies.)
  const handle = async (request: NextRequest): Promise<Response> => (await import("../../src/handler.js")).Auth(request, core);
  const actions = () => import("../../src/server/actions.js");

  /**
   * Server components and actions: the session read straight from what `next/headers` gives —
   * no `Request` is built unless a lazy config asks for one, and the session comes back as the
   * session flow made it (see `asJsonData`), without a JSON round trip.
   */
  async function sessionOfCurrentRequest(): Promise<Session | null> {
    let request: NextHeadersRequest;
    try {
      request = await nextHeadersRequest();
    } catch (error) {
      // Next's own signals (this render is dynamic, ...) must reach Next.
      (await nextNavigation()).unstable_rethrow(error);
      // Outside a request (a script, a test): no session.
      return null;
    }
    const { session, cookies } = await resolveAndRead(readSessionOf, request, core, () => requestOf(request));
    // A sign-out or sign-in that ended while this read ran (same action) has the last word.
    await writeToCookieStore(cookies, { readFrom: request.cookies });
    return session;
  }

  async function sessionOfNodeRequest(req: NodeRequestLike, res: NodeResponseLike | undefined): Promise<Session | null> {
    let request: SessionRequest;
    try {
      request = nodeSessionRequest(req);
    } catch {
      return null;
    }
    const { session, cookies } = await resolveAndRead(readSessionOf, request, core, () => requestFromNode(req));
    appendToNodeResponse(res, cookies);
    return session;
  }

  const { middleware, wrap } = middlewareForms(core, readSessionOf);

  const auth = ((...args: unknown[]) => {
    if (args.length === 0) return sessionOfCurrentRequest();
    const [first, second] = args;
    if (typeof first === "function") return wrap(first as AppRouteHandler<unknown>);
    if (isWebRequest(first)) return middleware(first);
    if (isServerSidePropsContext(first)) return sessionOfNodeRequest(first.req, first.res);
    if (typeof first === "object" && first !== null && "headers" in first) {
      return sessionOfNodeRequest(first as NodeRequestLike, second as NodeResponseLike | undefined);
    }
    return Promise.reject(new TypeError("auth(...): expected no argument, a handler, a request, (req, res) or a context with req and res."));
  }) as AuthFunction;

  /** Writes the cookies, then redirects (Next's `redirect` throws to do so) or returns the URL. */
  async function finish(result: { url: string; cookies: SetCookie[] }, doRedirect: boolean): Promise<string> {
    await writeToCookieStore(result.cookies);
    if (doRedirect) (await nextNavigation()).redirect(result.url);
    return result.url;
  }

  async function signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string> {
    const request = await requestFromNextHeaders();
    const { fields, redirectTo, redirect: doRedirect } = signInFields(options);
    const result = await (await actions()).signInAction(request, core, {
      ...(provider !== undefined ? { provider } : {}),
      fields,
      redirectTo: redirectTo ?? currentPage(request),
      ...(authorizationParams !== undefined ? { authorizationParams } : {}),
    });
    return finish(result, doRedirect);
  }

  async function signOut(options: SignOutOptions = {}): Promise<string> {
    const request = await requestFromNextHeaders();
    const result = await (await actions()).signOutAction(request, core, { redirectTo: options.redirectTo ?? currentPage(request) });
    return finish(result, options.redirect !== false);
  }

  async function requireRecentSecondFactor(maxAge: number, options: { redirectTo?: string } = {}): Promise<void> {
    const request = await requestFromNextHeaders();
    const { recentSecondFactorRedirect } = await import("../../src/server/step-up.js");
    const target = await recentSecondFactorRedirect(request, core, { maxAge, redirectTo: options.redirectTo ?? currentPage(request) });
    if (target !== null) (await nextNavigation()).redirect(target);
  }

  async function unstable_update(data: Partial<Session> | Record<string, unknown>): Promise<Session | null> {
    let request: Request;
    try {
      request = await requestFromNextHeaders();
    } catch (error) {
      (await nextNavigation()).unstable_rethrow(error);
      return null;
    }
    const { session, cookies } = await (await actions()).updateSessionAction(request, core, data);
    await writeToCookieStore(cookies);
    return session;
  }

  const sessions = () => import("../../src/server/sessions.js");

  async function listSessions(): Promise<SessionInfo[] | null> {
    return (await sessions()).listSessionsAction(await requestFromNextHeaders(), core);
  }

  /** Ends what `what` names for the person of the current request, writing the cookies (theirs cleared when it ended). */
  async function revoke(what: RevokeRequest): Promise<number | null> {
    const result = await (await sessions()).revokeSessionsAction(await requestFromNextHeaders(), core, what);
    if (result) await writeToCookieStore(result.cookies);
    return result ? result.revoked : null;
  }

  async function revokeSession(sessionId: string): Promise<boolean> {
    if (typeof sessionId !== "string" || sessionId === "") throw new TypeError("revokeSession: sessionId must be a non-empty string");
    return (await revoke({ sessionId })) !== null;
  }

  async function revokeOtherSessions(): Promise<number> {
    return (await revoke({ revoke: "others" })) ?? 0;
  }

  async function revokeAllSessions(userId?: string): Promise<number> {
    if (userId !== undefined) return (await sessions()).revokeAllSessions(core, userId);
    return (await revoke({ revoke: "all" })) ?? 0;
  }

  return {
    handlers: { GET: handle, POST: handle },
    auth,
    signIn,
    signOut,
    requireRecentSecondFactor,
    unstable_update,
    listSessions,
    revokeSession,
    revokeOtherSessions,
    revokeAllSessions,
  };
}

export { AppAuth };
