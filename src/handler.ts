/**
 * `Auth(request, config)`: the whole library as one `fetch`-style function. It resolves the
 * config (cached per config object), routes the request, runs the flow's machine, and turns the
 * result into a `Response`. Nothing a request carries can make it answer 500: only a fault of the
 * server's configuration does, reported as `Configuration` and logged in full.
 */
import { getRuntime, reportConfigFault, type Runtime } from "./config/runtime.js";
import { isProduction, processEnv } from "./config/env.js";
import { resolveCsrf } from "./csrf.js";
import {
  AuthError,
  BasePathMismatch,
  CallbackRouteError,
  errorCode,
  InvalidConfiguration,
  InvalidEndpoints,
  InvalidProvider,
  isClientSafeErrorType,
  isSignInError,
  MissingAdapter,
  RateLimited,
  MissingAdapterMethods,
  MissingCSRF,
  PayloadTooLarge,
  UnknownAction,
  UntrustedHost,
} from "./errors.js";
import { rateLimitedError, rateLimitedPlan } from "./flows/failure.js";
import { deliver } from "./flows/run.js";
import { checkRequest } from "./rate-limit/limiter.js";
import { errorPageUrl, signInPageUrl } from "./flows/pages.js";
import { logAuthError, reportOnce } from "./logger.js";
import { renderErrorPage } from "./pages/index.js";
import type { RequestContext } from "./request-context.js";
import { toResponse, type ResponsePlan, type RouteAnswer } from "./response.js";
import { buildContext } from "./router.js";
import { matchRoute, ROUTE_PATHS } from "./routes.js";
import type { AuthConfig, AuthConfigInput } from "./types.js";

/** Resolves a config input (object, or function of the request) to its runtime. */
export async function resolveRuntime(request: Request | undefined, input: AuthConfigInput): Promise<Runtime> {
  const config: AuthConfig = typeof input === "function" ? await input(request) : input;
  return getRuntime(config, processEnv());
}

/**
 * Handles one request to the library's routes under the base path.
 *
 * ```ts
 * const response = await Auth(request, { providers: [Credentials({ ... })], secret: process.env.AUTH_SECRET })
 * ```
 */
export async function Auth(request: Request, config: AuthConfigInput): Promise<Response> {
  let rt: Runtime;
  try {
    rt = await resolveRuntime(request, config);
  } catch (error) {
    // Once per config: a remembered failure reaches every request.
    reportConfigFault(typeof config === "object" ? config.logger : undefined, error);
    return configurationFault(request);
  }

  let ctx: RequestContext;
  try {
    ctx = await buildContext(rt, request, ROUTE_PATHS);
  } catch (error) {
    if (error instanceof BasePathMismatch) {
      // A mounting mistake, not a visitor's: every request says the same, so it is said once.
      if (!reportOnce(rt, rt.logger.warn, { code: "BasePathMismatch", message: error.message })) rt.logger.debug(error.type, error.message);
      return typedError(rt, request, error, 400);
    }
    if (error instanceof UnknownAction) {
      rt.logger.debug("UnknownAction", error.message);
      return typedError(rt, request, error, 400);
    }
    if (error instanceof PayloadTooLarge) {
      rt.logger.debug(error.type, error.message);
      return typedError(rt, request, error, 413);
    }
    // The config resolution already said, once, that no host is trusted; each request adds a debug line.
    if (error instanceof UntrustedHost) rt.logger.debug(error.type, error.message);
    else rt.logger.error(error instanceof AuthError ? error.type : "Configuration", error);
    return configurationFault(request);
  }

  let plan: ResponsePlan;
  try {
    plan = planOf(rt, ctx, await dispatch(rt, ctx));
  } catch (error) {
    if (error instanceof UnknownAction || error instanceof InvalidProvider) {
      rt.logger.debug(error.type, error.message);
      return typedError(rt, request, error, error instanceof InvalidProvider ? 404 : 400);
    }
    plan = errorPlan(rt, ctx, error);
  }
  return toResponse(plan, { returnRedirect: ctx.returnRedirect });
}

/**
 * Serves a request by its row of the route table: the request ceiling and the CSRF token as the row
 * says, then its handler. A request no row serves is refused as `matchRoute` says (UnknownAction,
 * InvalidProvider), after the ceiling when it is a POST: a flood of refused posts is still a flood.
 */
export async function dispatch(rt: Runtime, ctx: RequestContext): Promise<RouteAnswer> {
  const match = matchRoute(rt, ctx);
  const row = "route" in match ? match.route : match.like;
  if ("route" in match ? match.route.countsRequest : ctx.method === "POST") {
    const verdict = await checkRequest(rt.rateLimit, ctx.request, rt.logger);
    if (!verdict.allowed) {
      await deliver(rt, { type: "rateLimited", providerId: ctx.providerId ?? "", scope: "requests", limit: "requests", retryAfter: verdict.retryAfter });
      const error = rateLimitedError(verdict);
      return row?.json ? rateLimitedPlan(rt, error) : error;
    }
  }
  if ("refused" in match) throw match.refused;
  const { route, provider } = match;
  if (route.csrf && !rt.skipCSRFCheck && !(await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets, ctx.body.csrfToken)).verified) {
    if (!route.json) return new MissingCSRF(`CSRF token was missing during an action ${ctx.action}.`);
    rt.logger.debug("MissingCSRF", `${ctx.method} /${ctx.action} without a valid CSRF token`);
    return { json: null, status: 400 };
  }
  // Set for every row that serves providers; the others take none.
  return route.handle(rt, ctx, provider!);
}

/** The plan of a handler's answer: an error is answered by its page, which still sets the flow's cookies. */
function planOf(rt: Runtime, ctx: RequestContext, answer: RouteAnswer): ResponsePlan {
  if (answer instanceof AuthError) return errorPlan(rt, ctx, answer);
  if (!("error" in answer)) return answer;
  const plan = errorPlan(rt, ctx, answer.error);
  return { ...plan, cookies: [...(plan.cookies ?? []), ...answer.cookies] };
}

/**
 * How an error reaches the browser: sign-in errors go back to the sign-in page, every other to the
 * error page; only client-safe types are named, the rest say `Configuration`. Logged in full.
 */
export function errorPlan(rt: Runtime, ctx: RequestContext, thrown: unknown): ResponsePlan {
  const error = thrown instanceof AuthError ? thrown : new CallbackRouteError({ cause: thrown });
  // A fetch client is told to wait with a 429 and Retry-After (and where the sign-in page is).
  if (error instanceof RateLimited && ctx.returnRedirect) {
    const params = new URLSearchParams({ error: error.type, code: error.code! });
    return rateLimitedPlan(rt, error, signInPageUrl(rt, ctx, params));
  }
  const safe = isClientSafeErrorType(error.type);
  // Always logged, CredentialsSignin included (the spec asks for it): a person's mistake as a warning.
  logAuthError(rt.logger, error);
  // The error page answers 400 whatever it is asked to show, so a fault of the configuration is a
  // 500 on the request that met it (a browser's; a fetch client's {url} answer stays as it is).
  if (isConfigurationFault(error) && !ctx.returnRedirect && !rt.pages.error) {
    const page = renderErrorPage({ theme: rt.theme, error: "Configuration", signInUrl: `${ctx.baseUrl}/signin`, homeUrl: ctx.origin });
    return { status: 500, html: page.html };
  }
  const params = new URLSearchParams({ error: safe ? error.type : "Configuration" });
  const code = errorCode(error);
  if (code) params.set("code", code);
  // Only the type and code: nothing the person typed (the page-hint cookie carries what the page shows again).
  if (safe && isSignInError(error)) return { redirect: signInPageUrl(rt, ctx, params) };
  return { redirect: errorPageUrl(rt, ctx, params) };
}

/**
 * Whether a flow met a fault of the server's configuration (an endpoint it may not use, a missing
 * client secret or adapter method), as opposed to anything a request or a peer caused. An
 * `InvalidConfiguration` that wraps another error is a flow's report of an unexpected failure, not one.
 */
function isConfigurationFault(error: AuthError): boolean {
  if (error instanceof InvalidEndpoints || error instanceof MissingAdapter || error instanceof MissingAdapterMethods) return true;
  return error instanceof InvalidConfiguration && error.cause === undefined;
}

/**
 * A typed error answered directly (no redirect): for requests that name no route or provider. A
 * browser gets the error page (with the reason outside production), anything else JSON.
 */
function typedError(rt: Runtime, request: Request, error: AuthError, status: number): Response {
  if (wantsHtml(request)) {
    const prefix = rt.basePath === "/" ? "" : rt.basePath;
    const page = renderErrorPage({
      theme: rt.theme,
      error: error.type,
      signInUrl: `${prefix}/signin`,
      homeUrl: "/",
      status,
      ...(isProduction(rt.env) ? {} : { detail: error.message }),
    });
    return new Response(page.html, {
      status: page.status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache, no-store" },
    });
  }
  return new Response(JSON.stringify({ error: error.type, message: error.message }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "private, no-cache, no-store" },
  });
}

/** The answer when the server's configuration is at fault: 500, type `Configuration`, no detail. */
function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html");
}

function configurationFault(request: Request): Response {
  const message = "There is a problem with the server configuration. Check the server logs for more information.";
  if (wantsHtml(request)) {
    const page = renderErrorPage({ theme: { colorScheme: "auto" }, error: "Configuration", signInUrl: "/", homeUrl: "/" });
    return new Response(page.html, {
      status: 500,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache, no-store" },
    });
  }
  return new Response(JSON.stringify({ error: "Configuration", message }), {
    status: 500,
    headers: { "Content-Type": "application/json", "Cache-Control": "private, no-cache, no-store" },
  });
}
