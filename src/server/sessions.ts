/**
 * The person's sessions from server code, for every integration: list them, end one, the others or
 * all (what `GET`/`POST /sessions` do, run in-process on the application's request), and the
 * application's own `revokeAllSessions(config, userId)` after a password change or a ban. The
 * person-facing calls act only for whoever the request's session cookie signs in, on their own
 * sessions; a server action or form action is the framework's same-origin call, so no CSRF token is
 * asked for here (the `/sessions` route asks for one).
 */
import type { SetCookie } from "../cookies.js";
import { parseCookies } from "../cookies.js";
import { runRevoke, type RevokeRequest } from "../flows/sessions.js";
import { routedContext, trustedOrigin } from "../router.js";
import { clearSessionCookies } from "../session/jwt-session.js";
import { currentSession, listSessions, revokeAllSessions as revokeAllOf, type SessionInfo } from "../session/registry.js";
import type { AuthConfigInput } from "../types.js";
import type { Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import { runtimeOf } from "./runtime.js";

export type { SessionInfo } from "../session/registry.js";
export type { RevokeRequest } from "../flows/sessions.js";

/** What ending sessions from server code did: how many ended, and the cookies to set (the person's own cleared when it ended). */
export interface RevokeResult {
  /** How many sessions ended. */
  revoked: number;
  /** Cookies for the response: the person's own session cookie cleared when their own session ended, else none. */
  cookies: SetCookie[];
}

/** The context `/sessions` would have for the application's `request`. */
function sessionsContext(rt: Runtime, request: Request): RequestContext {
  const origin = trustedOrigin(rt, request, new URL(request.url));
  const url = new URL(`${origin}${rt.basePath === "/" ? "" : rt.basePath}/sessions`);
  return routedContext(rt, request, {
    method: "GET",
    action: "sessions",
    url,
    origin,
    body: {},
    jar: parseCookies(request.headers.get("cookie")),
    returnRedirect: false,
  });
}

/**
 * The sessions of the person `request` is signed in as, theirs marked `current`, newest first; `null`
 * when it is signed in as nobody. Throws for a configuration that cannot list sessions (database
 * sessions on an adapter without `listSessions`) and when the store cannot be read.
 */
export async function listSessionsAction(request: Request, config: AuthConfigInput): Promise<SessionInfo[] | null> {
  const rt = await runtimeOf(request, config);
  const current = await currentSession(rt, sessionsContext(rt, request));
  return current ? listSessions(rt, current) : null;
}

/**
 * Ends sessions of the person `request` is signed in as: `{ sessionId }` one of theirs, `{ revoke:
 * "others" }` every other, `{ revoke: "all" }` all of them. Resolves `null` when the request is
 * signed in as nobody, or the session named is not theirs (or nobody's: the same answer).
 */
export async function revokeSessionsAction(request: Request, config: AuthConfigInput, what: RevokeRequest): Promise<RevokeResult | null> {
  if (!what || typeof what !== "object" || (!("sessionId" in what) && !("revoke" in what))) {
    throw new TypeError('revokeSessions: what must be { sessionId } or { revoke: "others" | "all" }');
  }
  const rt = await runtimeOf(request, config);
  const ctx = sessionsContext(rt, request);
  const current = await currentSession(rt, ctx);
  if (!current) return null;
  const outcome = await runRevoke(rt, current, what);
  if (!outcome) return null;
  return { revoked: outcome.revoked, cookies: outcome.signedOut ? clearSessionCookies(rt, ctx) : [] };
}

/**
 * Ends every session of `userId`, for the application (after a password change, a ban): database
 * sessions are deleted, JWT sessions revoked on every instance sharing the store (within about a
 * second; in this process only without one). `events.sessionRevoked` reports it. Resolves to how many
 * listed sessions ended.
 */
export async function revokeAllSessions(config: AuthConfigInput, userId: string): Promise<number> {
  if (typeof userId !== "string" || userId === "") throw new TypeError("revokeAllSessions: userId must be a non-empty string");
  const rt = await runtimeOf(undefined, config);
  return revokeAllOf(rt, userId);
}
