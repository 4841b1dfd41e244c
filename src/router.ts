/**
 * From a request to a `RequestContext`: the trusted origin, the action and provider named by the
 * path under the base path, the cookies, and the parsed body. Anything malformed is reported as a
 * typed error (UnknownAction, UntrustedHost, PayloadTooLarge), never thrown raw.
 */
import { parseCookies } from "./cookies.js";
import type { Runtime } from "./config/runtime.js";
import { BasePathMismatch, PayloadTooLarge, UnknownAction, UntrustedHost } from "./errors.js";
import { readBodyText } from "./request-body.js";
import type { AuthAction, RequestContext } from "./request-context.js";

/** What paths name: the actions served, and those whose path may name a provider (from the route table, routes.ts). */
export interface RoutePaths {
  actions: ReadonlySet<AuthAction>;
  withProvider: ReadonlySet<AuthAction>;
}

const MAX_BODY_BYTES = 1024 * 1024;

function firstHeaderValue(value: string | null): string | undefined {
  const first = value?.split(",")[0]?.trim();
  return first || undefined;
}

/** The origin to answer on: APPAUTH_URL when set; else, with a trusted host, the (forwarded) request host. */
export function trustedOrigin(rt: Runtime, request: { headers: Pick<Headers, "get"> }, url: URL): string {
  if (rt.envUrl) return rt.envUrl.origin;
  if (!rt.trustHost) {
    throw new UntrustedHost(
      `Host must be trusted. URL was: ${url.origin}. Set AUTH_TRUST_HOST=true (or trustHost: true) when the platform or proxy sets the Host header, or set AUTH_URL to the site's URL.`,
    );
  }
  const host = firstHeaderValue(request.headers.get("x-forwarded-host"));
  const proto = firstHeaderValue(request.headers.get("x-forwarded-proto"));
  if (!host && !proto) return url.origin;
  try {
    const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
    const origin = new URL(`${scheme}://${host ?? url.host}`);
    // Anything beyond a bare host[:port] in the header is refused.
    if (origin.host.toLowerCase() !== (host ?? url.host).toLowerCase()) return url.origin;
    return origin.origin;
  } catch {
    return url.origin;
  }
}

/** The action and provider id a path names, or null when it names none under `basePath`. */
export function parseAction(pathname: string, basePath: string, paths: RoutePaths): { action: AuthAction; providerId?: string } | null {
  const prefix = basePath === "/" ? "/" : `${basePath}/`;
  if (!pathname.startsWith(prefix)) return null;
  const segments = pathname.slice(prefix.length).split("/");
  if (segments[segments.length - 1] === "") segments.pop();
  const action = segments[0] as AuthAction;
  if (!paths.actions.has(action)) return null;
  if (segments.length === 1) return { action };
  if (segments.length !== 2 || !paths.withProvider.has(action)) return null;
  let providerId: string;
  try {
    providerId = decodeURIComponent(segments[1]!);
  } catch {
    return null;
  }
  return providerId ? { action, providerId } : null;
}

function underBasePath(pathname: string, basePath: string): boolean {
  return basePath === "/" || pathname === basePath || pathname.startsWith(`${basePath}/`);
}

/**
 * The body of a POST: its fields (first value wins), and for a form every value of every field.
 * Past MAX_BODY_BYTES, however it arrives, `PayloadTooLarge` (413).
 */
async function readBody(request: Request): Promise<{ body: Record<string, unknown>; form?: URLSearchParams }> {
  let text: string;
  try {
    text = await readBodyText(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof PayloadTooLarge) throw error;
    // A body the client broke off (or a stream that errored) is an empty one.
    return { body: {} };
  }
  if (text.length === 0) return { body: {} };
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (type.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return { body: parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {} };
    } catch {
      return { body: {} };
    }
  }
  // Form posts, and anything else: read as URL-encoded fields (first value wins).
  const body: Record<string, unknown> = {};
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(text);
    for (const [key, value] of form) if (!(key in body)) body[key] = value;
  } catch {
    return { body: {} };
  }
  return { body, form };
}

/**
 * Builds the context of a request to one of `paths`; throws UnknownAction or UntrustedHost for
 * requests it cannot serve. The paths are passed in, not imported: the session readers use this
 * module for `trustedOrigin`, and must not bundle the route handlers.
 */
export async function buildContext(rt: Runtime, request: Request, paths: RoutePaths): Promise<RequestContext> {
  const raw = new URL(request.url);
  const origin = trustedOrigin(rt, request, raw);
  // Joined, not resolved: a path such as "//host/auth/session" must stay a path, not name a host.
  const url = new URL(`${origin}${raw.pathname}${raw.search}`);
  const route = parseAction(url.pathname, rt.basePath, paths);
  if (!route && !underBasePath(url.pathname, rt.basePath)) {
    throw new BasePathMismatch(
      `Cannot handle ${request.method} ${url.pathname}: appauth is configured with basePath "${rt.basePath}", and this path is not under it. Mount the handler at ${rt.basePath}/*, or set \`basePath\` (or AUTH_URL's path) to where it is mounted.`,
    );
  }
  if (!route) throw new UnknownAction(`Cannot handle ${request.method} ${url.pathname}: not a route of appauth.`);
  const method = request.method === "GET" || request.method === "HEAD" ? "GET" : request.method === "POST" ? "POST" : null;
  if (!method) throw new UnknownAction(`Cannot handle ${request.method} ${url.pathname}: only GET and POST are served.`);
  const posted = method === "POST" ? await readBody(request) : { body: {} };
  return routedContext(rt, request, {
    method,
    action: route.action,
    ...(route.providerId !== undefined ? { providerId: route.providerId } : {}),
    url,
    origin,
    ...posted,
    jar: parseCookies(request.headers.get("cookie")),
    returnRedirect: request.headers.get("x-auth-return-redirect") === "1" || request.headers.get("x-auth-return-redirect") === "true",
  });
}

/** What a routed request names: its row (method, action, provider), its URL on the trusted origin, its body and cookies. */
export type RoutedRequest = Pick<RequestContext, "method" | "action" | "providerId" | "url" | "origin" | "body" | "form" | "jar" | "returnRedirect">;

/**
 * The context of a request routed to `route`, whether the router read it from `request` or a
 * server-side operation (server/actions.ts) names it directly. `request` is the one that came in:
 * the request ceiling reads the client's address from it.
 */
export function routedContext(rt: Runtime, request: Request, route: RoutedRequest): RequestContext {
  const secure = rt.useSecureCookies ?? route.origin.startsWith("https:");
  // Every field written, in one order, absent ones as undefined: every context has one shape, which
  // keeps each read of it on the request path monomorphic (a spread of `route` cost a sign-in ~7%).
  return {
    request,
    method: route.method,
    action: route.action,
    providerId: route.providerId,
    url: route.url,
    origin: route.origin,
    baseUrl: `${route.origin}${rt.basePath === "/" ? "" : rt.basePath}`,
    query: route.url.searchParams,
    body: route.body,
    form: route.form,
    jar: route.jar,
    cookies: rt.cookies(secure),
    secure,
    returnRedirect: route.returnRedirect,
  };
}
