/**
 * Server-side operations shared by the framework integrations (`integrations/*`): reading the
 * session, signing in and out, updating the session, guarding routes. Each takes the incoming
 * `Request` and the config, and leaves redirects and cookie writing to the framework's own APIs.
 */
export { readSession, getSession, type SessionRead } from "./session.js";
export {
  signInAction,
  signOutAction,
  updateSessionAction,
  type ActionResult,
  type AuthorizationParams,
  type SignInActionOptions,
} from "./actions.js";
export { guardRequest, isAuthPath, signInRedirectUrl, type AuthorizedCallback, type GuardOutcome } from "./guard.js";
export { parseSetCookie, setCookiesOf, isCookieDeletion } from "./set-cookie.js";
export { listSessionsAction, revokeSessionsAction, revokeAllSessions, type RevokeRequest, type RevokeResult, type SessionInfo } from "./sessions.js";
export { recentSecondFactorRedirect, requireRecentSecondFactor, type RecentSecondFactorOptions } from "./step-up.js";
