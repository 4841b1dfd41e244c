/**
 * Reading the session of an incoming request in-process, for every integration: the session
 * route's answer (`handleSession`, the session machines alone) computed straight from the request's
 * facts — origin, forwarding headers, cookies — with no internal `Request`, no `Response` and no
 * JSON round trip. It fails closed: whatever goes wrong is `null`, never an error object that could
 * be mistaken for a session, and is logged. Generic over the token refresh, so a reader that never
 * refreshes (appauth/next/middleware) bundles none of it.
 */
import { bound, isReportedFault, type Runtime } from "../config/runtime.js";
import { parseCookies, type CookieJar, type SetCookie } from "../cookies.js";
import { UntrustedHost } from "../errors.js";
import { bindDatabaseSession, type BoundDatabaseSession } from "../flows/database-session.js";
import { bindSessionMachine, handleSession, type BoundSessionMachine, type OnReissued } from "../flows/session.js";
import type { TokenRefreshLoader } from "../flows/token-refresh-loader.js";
import { consoleLogger } from "../logger.js";
import type { RequestContext } from "../request-context.js";
import { trustedOrigin } from "../router.js";
import type { AuthConfigInput, LoggerInstance, Session } from "../types.js";
import { runtimeOf } from "./runtime.js";

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

/** What a session read needs of the incoming request. */
export interface SessionRequest {
  /** The URL it was made to: its origin is the one answered on, unless AUTH_URL or trusted forwarding headers say otherwise. */
  url: string;
  /** Its headers: X-Forwarded-Host and X-Forwarded-Proto count behind a trusted host. */
  headers: Pick<Headers, "get">;
  /** Its cookies, by name, decoded. */
  cookies: CookieJar;
}

/** Reads the session of `request` for a resolved runtime; never throws (`config` names the logger). */
export type SessionReader = (rt: Runtime, request: SessionRequest, config: AuthConfigInput) => Promise<SessionRead>;

function loggerOf(config: AuthConfigInput): Pick<LoggerInstance, "error" | "debug"> {
  const logger = typeof config === "object" ? config.logger : undefined;
  return {
    error: logger?.error?.bind(logger) ?? consoleLogger.error,
    debug: logger?.debug?.bind(logger) ?? (() => {}),
  };
}

/**
 * Logs a failed read: a configuration fault already said once, at the config's first resolution
 * (a refused config, no trusted host), adds a debug line on each read, not an error.
 */
export function reportReadFailure(config: AuthConfigInput, error: unknown): void {
  if (isReportedFault(error) || error instanceof UntrustedHost) loggerOf(config).debug("SessionReadFailed", error instanceof Error ? error.message : error);
  else loggerOf(config).error("SessionReadFailed", error);
}

/** The facts of a `Request`, for the readers. */
export function sessionRequestOf(request: Request): SessionRequest {
  return { url: request.url, headers: request.headers, cookies: parseCookies(request.headers.get("cookie")) };
}

/**
 * The context `GET {basePath}/session` would have on the request's origin: what the router builds
 * for that route, without building the request. The `Request` itself is made only if something asks
 * for it (an inspector describing the context); the session flows do not.
 */
export function sessionContext(rt: Runtime, request: SessionRequest): RequestContext {
  const origin = trustedOrigin(rt, request, new URL(request.url));
  const baseUrl = `${origin}${rt.basePath === "/" ? "" : rt.basePath}`;
  const url = new URL(`${baseUrl}/session`);
  const secure = rt.useSecureCookies ?? origin.startsWith("https:");
  let built: Request | undefined;
  return {
    get request(): Request {
      return (built ??= new Request(url));
    },
    method: "GET",
    action: "session",
    url,
    origin,
    baseUrl,
    query: url.searchParams,
    body: {},
    jar: request.cookies,
    cookies: rt.cookies(secure),
    secure,
    returnRedirect: false,
  };
}

/**
 * The session as JSON would carry it, which is what a read answered before it was done in-process
 * (and what Auth.js apps expect): the session callback's object itself when it is JSON data already
 * (plain objects and arrays of strings, finite numbers, booleans and null), else a JSON round trip
 * of it (a `Date` becomes its ISO string, `undefined` fields go). Throws, as `JSON.stringify`
 * does, for a cycle.
 */
export function asJsonData(value: unknown): unknown {
  return isJsonData(value, 0) ? value : value === undefined ? null : JSON.parse(JSON.stringify(value));
}

const MAX_DEPTH = 32;

function isJsonData(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonData(value[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  if ("toJSON" in value || Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const key in value) if (!isJsonData((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

interface SessionFlows {
  jwt: BoundSessionMachine;
  database: BoundDatabaseSession;
}

/** A reader whose session flows refresh access tokens with `loadRefresh`, bound once per runtime. */
export function sessionReader(loadRefresh: TokenRefreshLoader, onReissued?: OnReissued): SessionReader {
  // This reader's own binding (its loader is part of it), kept in each runtime it reads for.
  const bindFlows = (rt: Runtime): SessionFlows => ({
    jwt: bindSessionMachine(rt, loadRefresh, onReissued),
    database: bindDatabaseSession(rt, loadRefresh),
  });
  return async (rt, request, config) => {
    try {
      const plan = await handleSession(rt, bound(rt, bindFlows), sessionContext(rt, request));
      const status = plan.status ?? 200;
      const body = status >= 200 && status < 300 ? asJsonData(plan.json) : null;
      const session = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Session) : null;
      return { session, cookies: plan.cookies ?? [], ...(status === 503 ? { unavailable: true } : {}) };
    } catch (error) {
      reportReadFailure(config, error);
      return { session: null, cookies: [] };
    }
  };
}

/**
 * Resolves `config` once for the read — a lazy config is called with `configRequest()`, the
 * request as the application's config function expects it — and reads with `read`. Never throws.
 */
export async function resolveAndRead(
  read: SessionReader,
  request: SessionRequest,
  config: AuthConfigInput,
  configRequest: () => Request | undefined,
): Promise<SessionRead> {
  let rt: Runtime;
  try {
    rt = await runtimeOf(typeof config === "function" ? configRequest() : undefined, config);
  } catch (error) {
    reportReadFailure(config, error);
    return { session: null, cookies: [] };
  }
  return read(rt, request, config);
}
