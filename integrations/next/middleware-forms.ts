/**
 * The middleware forms of `auth` — used bare as middleware, or wrapping a handler — over a session
 * reader, shared by `appauth/next` (whose reader refreshes tokens) and `appauth/next/middleware`
 * (whose reader does not, so its bundle holds no refresh).
 */
import type { NextRequest } from "next/server";
import type { Runtime } from "../../src/config/runtime.js";
import { guardResolved, storeUnavailableResponse } from "../../src/server/guard.js";
import { runtimeOf } from "../../src/server/runtime.js";
import { reportReadFailure, resolveAndRead, sessionRequestOf, type SessionReader } from "../../src/server/session-read.js";
import type { AuthConfigInput, Session } from "../../src/types.js";
import { appendToResponse } from "./cookies.js";
import { nextServer } from "./modules.js";

/** A request as a wrapped handler sees it: `auth` holds the session, or `null`. */
export type NextAuthRequest = NextRequest & { auth: Session | null };

/** A middleware or route handler to wrap with `auth(...)`. */
export type AppRouteHandler<C = unknown> = (request: NextAuthRequest, context: C) => Response | void | Promise<Response | void>;

/** The forms of `auth` a middleware uses. */
export interface MiddlewareAuthFunction {
  /**
   * Wraps a middleware or route handler: `request.auth` holds the session (or `null`) and the
   * handler decides — `callbacks.authorized` applies only to `auth` used bare as middleware.
   * Refreshed session cookies are added to the handler's response; a middleware that returns
   * nothing lets the request through.
   */
  <C>(handler: AppRouteHandler<C>): (request: NextRequest, context: C) => Promise<Response>;
  /** Used as middleware itself: keeps the session alive and applies `callbacks.authorized`. */
  (request: NextRequest, event?: unknown): Promise<Response>;
}

/** The two middleware forms of `auth`, over a session reader (with or without the token refresh). */
export interface MiddlewareForms {
  middleware(request: NextRequest): Promise<Response>;
  wrap<C>(handler: AppRouteHandler<C>): (request: NextRequest, context: C) => Promise<Response>;
}

export function middlewareForms(core: AuthConfigInput, read: SessionReader): MiddlewareForms {
  const configurationProblem = async (error: unknown): Promise<Response> => {
    // The configuration cannot be resolved: nothing can be decided, so nothing is let through.
    console.error("[appauth] middleware could not check the request:", error);
    return new (await nextServer()).NextResponse("There is a problem with the server configuration.", { status: 500 });
  };

  async function middleware(request: NextRequest): Promise<Response> {
    // Resolved once for the read and the guard: a lazy config runs once per request.
    let rt: Runtime;
    try {
      rt = await runtimeOf(request, core);
    } catch (error) {
      reportReadFailure(core, error);
      return configurationProblem(error);
    }
    const { session, cookies, unavailable } = await read(rt, sessionRequestOf(request), core);
    const { NextResponse } = await nextServer();
    let response: Response;
    try {
      const outcome = await guardResolved(rt, request, { session });
      if ("response" in outcome) response = outcome.response;
      // The store is down, not the person signed out: sending them to sign in would be a lie (and
      // would fail too). The page is unavailable for now; a public page is still let through above.
      else if ("redirect" in outcome && unavailable) response = storeUnavailableResponse();
      else if ("redirect" in outcome) response = NextResponse.redirect(outcome.redirect);
      else response = NextResponse.next();
    } catch (error) {
      response = await configurationProblem(error);
    }
    return appendToResponse(response, cookies);
  }

  function wrap<C>(handler: AppRouteHandler<C>): (request: NextRequest, context: C) => Promise<Response> {
    return async (request, context) => {
      const { session, cookies } = await resolveAndRead(read, sessionRequestOf(request), core, () => request);
      const augmented = request as NextAuthRequest;
      augmented.auth = session;
      const response = (await handler(augmented, context)) ?? (await nextServer()).NextResponse.next();
      return appendToResponse(response, cookies);
    };
  }

  return { middleware, wrap };
}
