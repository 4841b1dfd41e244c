/**
 * Reading the session of an incoming request from server code, for every integration: the same
 * `GET /session` a browser would make, answered in-process (by `answerSession`, the session machines
 * alone, so a middleware that reads sessions does not bundle every sign-in flow). It fails closed: whatever goes wrong
 * (a config that does not resolve, a callback that throws, a store that is down) is `null` — never
 * an error object that could be mistaken for a session — and is logged.
 */
import { isReportedFault } from "../config/runtime.js";
import type { SetCookie } from "../cookies.js";
import { UntrustedHost } from "../errors.js";
import { consoleLogger } from "../logger.js";
import type { AuthConfigInput, LoggerInstance, Session } from "../types.js";
import { callRoute, CookieState, jsonOf } from "./internal-request.js";
import { runtimeOf } from "./runtime.js";
import { answerSession } from "./session-route.js";

export interface SessionRead {
  session: Session | null;
  /**
   * Cookies the read wrote: a re-issued session token (sliding expiry, rotated secret) or the
   * removal of a dead one. Pass them on to the browser where the framework allows it.
   */
  cookies: SetCookie[];
  /**
   * True when the store could not be read (`StoreUnavailable`, a 503 of the session route): the
   * session is `null` (fail closed) but the person was not signed out. Middleware should not send
   * them to sign in for it.
   */
  unavailable?: boolean;
}

function loggerOf(config: AuthConfigInput): Pick<LoggerInstance, "error" | "debug"> {
  const logger = typeof config === "object" ? config.logger : undefined;
  return {
    error: logger?.error?.bind(logger) ?? consoleLogger.error,
    debug: logger?.debug?.bind(logger) ?? (() => {}),
  };
}

/**
 * Whether a failed read is a configuration fault already said once, at the config's first
 * resolution (a refused config, no trusted host): each read then adds a debug line, not an error.
 */
function alreadySaid(error: unknown): boolean {
  return isReportedFault(error) || error instanceof UntrustedHost;
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
    // Resolved once for the read (a lazy config is called once, with the incoming request).
    const rt = await runtimeOf(request, config);
    const handle = (internal: Request) => answerSession(rt, internal);
    const response = await callRoute(handle, request, { basePath: rt.basePath, cookies, call: { method: "GET", route: "/session" } });
    const body = response.ok ? await jsonOf(response) : undefined;
    const session = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Session) : null;
    return { session, cookies: cookies.written, ...(response.status === 503 ? { unavailable: true } : {}) };
  } catch (error) {
    if (alreadySaid(error)) loggerOf(config).debug("SessionReadFailed", error instanceof Error ? error.message : error);
    else loggerOf(config).error("SessionReadFailed", error);
    return { session: null, cookies: [] };
  }
}

/** The session of `request`, or `null` (no session, or anything that prevented reading one). */
export async function getSession(request: Request, config: AuthConfigInput): Promise<Session | null> {
  return (await readSession(request, config)).session;
}
