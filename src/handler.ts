/**
 * `Auth(request, config)`: the whole library as one `fetch`-style function. It resolves the
 * config (cached per config object), routes the request, runs the flow's machine, and turns the
 * result into a `Response`. Nothing a request carries can make it answer 500: only a fault of the
 * server's configuration does, reported as `Configuration` and logged in full.
 */
import { bound, getRuntime, reportConfigFault, type Runtime } from "./config/runtime.js";
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
  UnknownAction,
  UntrustedHost,
} from "./errors.js";
import { keptFields, rateLimitedError, rateLimitedPlan } from "./flows/failure.js";
import { deliver } from "./flows/run.js";
import { checkRequest } from "./rate-limit/limiter.js";
import {
  errorPageUrl,
  showCsrf,
  showError,
  showProviders,
  showSignIn,
  showSignOut,
  showVerifyRequest,
  signInPageUrl,
} from "./flows/pages.js";
import type { WebAuthnConfig } from "./providers/webauthn.js";
import { bindDatabaseSession } from "./flows/database-session.js";
import { bindSessionMachine, handleSession } from "./flows/session.js";
import { loadTokenRefresh } from "./flows/token-refresh-loader.js";
import { lazy } from "./lazy.js";
import { logAuthError, reportOnce } from "./logger.js";
import { renderErrorPage } from "./pages/index.js";
import type { RequestContext } from "./request-context.js";
import { toResponse, type ResponsePlan } from "./response.js";
import { buildContext } from "./router.js";
import type { OAuthProviderConfig } from "./providers/oauth-types.js";
import type { AuthConfig, AuthConfigInput, EmailConfig, ProviderConfig } from "./types.js";

const bindSessions = (rt: Runtime) => ({ jwt: bindSessionMachine(rt, loadTokenRefresh), database: bindDatabaseSession(rt, loadTokenRefresh) });

/*
 * The other flows are imported by the first request that takes them: reading a session, the
 * request of every page load, needs neither the OAuth client nor the JOSE and WebAuthn libraries
 * (issue 19: cold start and middleware bundle).
 */
const oauthFlow = lazy(() => import("./flows/oauth.js"));
const emailFlow = lazy(() => import("./flows/email.js"));
const webAuthnFlow = lazy(() => import("./flows/webauthn.js"));
const signOutFlow = lazy(() => import("./flows/signout.js"));
const credentialsFlow = lazy(() => import("./flows/credentials-signin.js"));
const backchannelLogoutFlow = lazy(() => import("./flows/backchannel-logout.js"));

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
    ctx = await buildContext(rt, request);
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
    // The config resolution already said, once, that no host is trusted; each request adds a debug line.
    if (error instanceof UntrustedHost) rt.logger.debug(error.type, error.message);
    else rt.logger.error(error instanceof AuthError ? error.type : "Configuration", error);
    return configurationFault(request);
  }

  let plan: ResponsePlan;
  try {
    const result = await dispatch(rt, ctx);
    plan = result instanceof AuthError ? errorPlan(rt, ctx, result) : result;
  } catch (error) {
    if (error instanceof UnknownAction || error instanceof InvalidProvider) {
      rt.logger.debug(error.type, error.message);
      return typedError(rt, request, error, error instanceof InvalidProvider ? 404 : 400);
    }
    plan = errorPlan(rt, ctx, error);
  }
  return toResponse(plan, { returnRedirect: ctx.returnRedirect });
}

async function dispatch(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan | AuthError> {
  if (ctx.method === "GET") {
    switch (ctx.action) {
      case "session":
        return handleSession(rt, bound(rt, bindSessions), ctx);
      case "csrf":
        return showCsrf(rt, ctx);
      case "providers":
        return showProviders(rt, ctx);
      case "signin":
        // A GET naming a provider has nothing to do yet but show the sign-in page; an unknown one is a 404.
        if (ctx.providerId) callbackProvider(rt, ctx);
        return showSignIn(rt, ctx);
      case "signout":
        if (ctx.providerId) {
          const provider = callbackProvider(rt, ctx);
          return (await signOutFlow()).handleProviderSignOutReturn(rt, ctx, provider);
        }
        return showSignOut(rt, ctx);
      case "error":
        return showError(rt, ctx);
      case "verify-request":
        return showVerifyRequest(rt, ctx);
      case "callback": {
        const provider = callbackProvider(rt, ctx);
        if (isOAuth(provider)) return oauthCallback(rt, ctx, provider);
        if (provider.type === "email") {
          const { bindEmail, handleEmailCallback } = await emailFlow();
          return handleEmailCallback(rt, bound(rt, bindEmail), ctx, provider as EmailConfig);
        }
        return unsupportedFlow(ctx);
      }
      case "webauthn-options": {
        const provider = callbackProvider(rt, ctx);
        if (provider.type === "webauthn") {
          const { bindWebAuthn, handleWebAuthnOptions } = await webAuthnFlow();
          return handleWebAuthnOptions(rt, bound(rt, bindWebAuthn), ctx, provider as WebAuthnConfig);
        }
        return unsupportedFlow(ctx);
      }
      case "backchannel-logout":
        throw new UnknownAction(`Cannot handle GET ${ctx.url.pathname}: logout tokens are posted.`);
    }
  }

  // The client's request ceiling, before anything else: the OAuth start counts it in its own machine.
  if (!isOAuthStart(rt, ctx)) {
    const verdict = await checkRequest(rt.rateLimit, ctx.request, rt.logger);
    if (!verdict.allowed) {
      await deliver(rt, { type: "rateLimited", providerId: ctx.providerId ?? "", scope: "requests", limit: "requests", retryAfter: verdict.retryAfter });
      const error = rateLimitedError(verdict);
      return ctx.action === "session" || ctx.action === "backchannel-logout" ? rateLimitedPlan(rt, error) : error;
    }
  }

  // The OpenID Provider posts logout tokens server to server: the token's signature protects it, not CSRF.
  if (ctx.action === "backchannel-logout") {
    const provider = callbackProvider(rt, ctx);
    if (!isOAuth(provider)) return unsupportedFlow(ctx);
    const { bindBackchannelLogout, handleBackchannelLogout } = await backchannelLogoutFlow();
    return handleBackchannelLogout(rt, bound(rt, bindBackchannelLogout), ctx, provider);
  }
  if (ctx.action === "signout" && ctx.providerId) throw new UnknownAction(`Cannot handle POST ${ctx.url.pathname}.`);

  // Every POST the library serves changes state, so each one needs the CSRF token.
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets, ctx.body.csrfToken);
  const csrfOk = csrf.verified || rt.skipCSRFCheck;
  switch (ctx.action) {
    case "session":
      if (!csrfOk) {
        rt.logger.debug("MissingCSRF", "POST /session without a valid CSRF token");
        return { json: null, status: 400 };
      }
      return handleSession(rt, bound(rt, bindSessions), ctx);
    case "signout": {
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action signout.");
      const { bindSignOut, handleSignOut } = await signOutFlow();
      return handleSignOut(rt, bound(rt, bindSignOut), ctx);
    }
    case "signin": {
      if (!ctx.providerId) throw new UnknownAction("POST /signin needs a provider: /signin/:provider.");
      const provider = callbackProvider(rt, ctx);
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action signin.");
      // Credentials are posted to /callback/:provider; a POST here only asks for the form.
      if (provider.type === "credentials") return { redirect: signInPageUrl(rt, ctx) };
      if (isOAuth(provider)) {
        const { bindOAuth, handleOAuthSignIn } = await oauthFlow();
        return handleOAuthSignIn(rt, bound(rt, bindOAuth), ctx, provider);
      }
      if (provider.type === "email") {
        const { bindEmail, handleEmailSignIn } = await emailFlow();
        return handleEmailSignIn(rt, bound(rt, bindEmail), ctx, provider as EmailConfig);
      }
      return unsupportedFlow(ctx);
    }
    case "callback": {
      const provider = callbackProvider(rt, ctx);
      // A provider's form_post callback carries no CSRF token: its state and PKCE checks protect it.
      if (isOAuth(provider)) return oauthCallback(rt, ctx, provider);
      if (provider.type !== "credentials" && provider.type !== "webauthn") return unsupportedFlow(ctx);
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action callback.");
      if (provider.type === "webauthn") {
        const { bindWebAuthn, handleWebAuthnCallback } = await webAuthnFlow();
        const result = await handleWebAuthnCallback(rt, bound(rt, bindWebAuthn), ctx, provider as WebAuthnConfig);
        if ("plan" in result) return result.plan;
        const plan = errorPlan(rt, ctx, result.error);
        return { ...plan, cookies: [...(plan.cookies ?? []), ...result.cookies] };
      }
      const { bindCredentialsSignIn, handleCredentialsCallback } = await credentialsFlow();
      return handleCredentialsCallback(rt, bound(rt, bindCredentialsSignIn), ctx, provider.id);
    }
    default:
      throw new UnknownAction(`Cannot handle POST ${ctx.url.pathname}.`);
  }
}

function isOAuthStart(rt: Runtime, ctx: RequestContext): boolean {
  const provider = ctx.action === "signin" && ctx.providerId ? rt.providerById.get(ctx.providerId) : undefined;
  return provider !== undefined && isOAuth(provider);
}

function isOAuth(provider: ProviderConfig): provider is ProviderConfig & OAuthProviderConfig {
  return provider.type === "oauth" || provider.type === "oidc";
}

async function oauthCallback(rt: Runtime, ctx: RequestContext, provider: OAuthProviderConfig): Promise<ResponsePlan> {
  const { bindOAuth, handleOAuthCallback } = await oauthFlow();
  const result = await handleOAuthCallback(rt, bound(rt, bindOAuth), ctx, provider);
  if ("plan" in result) return result.plan;
  const plan = errorPlan(rt, ctx, result.error);
  return { ...plan, cookies: [...(plan.cookies ?? []), ...result.cookies] };
}

/** The provider a /signin/:id or /callback/:id route names; InvalidProvider when there is none. */
function callbackProvider(rt: Runtime, ctx: RequestContext) {
  const provider = ctx.providerId ? rt.providerById.get(ctx.providerId) : undefined;
  if (!provider) throw new InvalidProvider(`No provider with id "${ctx.providerId ?? ""}" is configured.`);
  return provider;
}

function unsupportedFlow(ctx: RequestContext): never {
  throw new UnknownAction(`${ctx.method} ${ctx.url.pathname} is not supported for this provider.`);
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
  if (safe && isSignInError(error)) {
    for (const [name, value] of keptFields(rt, ctx, error)) params.set(name, value);
    return { redirect: signInPageUrl(rt, ctx, params) };
  }
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
