/**
 * `appauth/next/middleware` — the middleware on its own (`middleware.ts` on Next 15, `proxy.ts` on
 * Next 16): it reads sessions, keeps them alive and applies `callbacks.authorized`, and its bundle
 * holds nothing else — no route handler, sign-in flow, page, OAuth client or token refresh.
 *
 * ```ts
 * // middleware.ts (or proxy.ts)
 * import AppAuth from "appauth/next/middleware";
 * import { authConfig } from "./auth.config";
 * export default AppAuth(authConfig).auth;
 * ```
 *
 * Access tokens are not refreshed here: a JWT session whose OAuth access token is due reads with
 * `error: "RefreshTokenUnavailable"` (not stored: the route handler, `auth()` and `useSession`
 * refresh it). The split configuration of the README (no providers in `auth.config.ts`) refreshes
 * nothing in middleware anyway; a middleware that must refresh uses `AppAuth(config).auth` from
 * `appauth/next`, which bundles the refresh.
 */
import { sessionReader, type SessionReader } from "../../src/server/session-read.js";
import { toCoreConfig, type AppAuthConfigInput } from "./config.js";
import { middlewareForms, type AppRouteHandler, type MiddlewareAuthFunction } from "./middleware-forms.js";

export type { AppAuthConfig, AppAuthConfigInput } from "./config.js";
export type { AppRouteHandler, MiddlewareAuthFunction, NextAuthRequest } from "./middleware-forms.js";
export type { Session, User, JWT, DefaultSession } from "../../src/types.js";

/** Refuses every refresh: the refresh is then unavailable on this read, as when the provider cannot be reached. */
const noRefresh = (): Promise<never> =>
  Promise.reject(new Error("appauth/next/middleware does not refresh access tokens; the route handler and auth() do."));

/** The middleware's session reader: the session flows without the token refresh. */
const readWithoutRefresh: SessionReader = sessionReader(noRefresh);

/**
 * Sets up the middleware: `AppAuth(config).auth` as middleware or as a wrapper, like `auth` of
 * `appauth/next` in those forms. Give it the same configuration (or the part of it the middleware
 * needs: the README's `auth.config.ts`) as `AppAuth` of `appauth/next`.
 */
export default function AppAuthMiddleware(config: AppAuthConfigInput): { auth: MiddlewareAuthFunction } {
  const { middleware, wrap } = middlewareForms(toCoreConfig(config), readWithoutRefresh);
  const auth = ((first: unknown) => {
    if (typeof first === "function") return wrap(first as AppRouteHandler<unknown>);
    if (typeof first === "object" && first !== null && "headers" in first && "url" in first) return middleware(first as Parameters<typeof middleware>[0]);
    return Promise.reject(new TypeError("auth(...) of appauth/next/middleware: expected a request (as middleware) or a handler to wrap."));
  }) as MiddlewareAuthFunction;
  return { auth };
}

export { AppAuthMiddleware, AppAuthMiddleware as AppAuth };
