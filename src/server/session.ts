/**
 * Reading the session of an incoming request from server code, for every integration: the same
 * `GET /session` a browser would make, answered in-process (by `sessionRoute`, the session machines
 * alone, so a middleware that reads sessions does not bundle every sign-in flow). It fails closed: whatever goes wrong
 * (a config that does not resolve, a callback that throws, a store that is down) is `null` — never
 * an error object that could be mistaken for a session — and is logged.
 */
import type { SetCookie } from "../cookies.js";
import { consoleLogger } from "../logger.js";
import type { AuthConfigInput, LoggerInstance, Session } from "../types.js";
import { callRoute, CookieState, jsonOf } from "./internal-request.js";
import { runtimeOf } from "./runtime.js";
import { sessionRoute } from "./session-route.js";

export interface SessionRead {
  session: Session | null;
  /**
   * Cookies the read wrote: a re-issued session token (sliding expiry, rotated secret) or the
   * removal of a dead one. Pass them on to the browser where the framework allows it.
   */
  cookies: SetCookie[];
}

function loggerOf(config: AuthConfigInput): Pick<LoggerInstance, "error"> {
  const configured = typeof config === "object" ? config.logger?.error : undefined;
  return { error: configured ?? consoleLogger.error };
}

/**
 * The session of `request` and the cookies reading it produced. Never throws.
 *
 * ```ts
 * const { session, cookies } = await readSession(request, config);
 * ```
 */
export async function readSession(request: Request, config: AuthConfigInput): Promise<SessionRead> {
  const cookies = new CookieState(request.headers.get("cookie"));
  try {
    const { basePath } = await runtimeOf(request, config);
    const handle = (internal: Request) => sessionRoute(internal, config);
    const response = await callRoute(handle, request, { basePath, cookies, call: { method: "GET", route: "/session" } });
    const body = response.ok ? await jsonOf(response) : undefined;
    const session = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Session) : null;
    return { session, cookies: cookies.written };
  } catch (error) {
    loggerOf(config).error("SessionReadFailed", error);
    return { session: null, cookies: [] };
  }
}

/** The session of `request`, or `null` (no session, or anything that prevented reading one). */
export async function getSession(request: Request, config: AuthConfigInput): Promise<Session | null> {
  return (await readSession(request, config)).session;
}
