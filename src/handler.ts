/**
 * `Auth(request, config)`: the whole library as one `fetch`-style function. It resolves the
 * config (cached per config object), routes the request, runs the flow's machine, and turns the
 * result into a `Response`. Nothing a request carries can make it answer 500: only a fault of the
 * server's configuration does, reported as `Configuration` and logged in full.
 */
import { getRuntime, type Runtime } from "./config/runtime.js";
import { processEnv } from "./config/env.js";
import { resolveCsrf } from "./csrf.js";
import {
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  InvalidProvider,
  isClientSafeErrorType,
  isSignInError,
  MissingCSRF,
  UnknownAction,
} from "./errors.js";
import { bindCredentialsSignIn, handleCredentialsCallback, type BoundCredentialsSignIn } from "./flows/credentials-signin.js";
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
import { bindWebAuthn, handleWebAuthnCallback, handleWebAuthnOptions, type BoundWebAuthn } from "./flows/webauthn.js";
import type { WebAuthnConfig } from "./providers/webauthn.js";
import { bindEmail, handleEmailCallback, handleEmailSignIn, type BoundEmail } from "./flows/email.js";
import { bindDatabaseSession, type BoundDatabaseSession } from "./flows/database-session.js";
import { bindOAuth, handleOAuthCallback, handleOAuthSignIn, type BoundOAuth } from "./flows/oauth.js";
import { bindSessionMachine, handleSession, type BoundSessionMachine } from "./flows/session.js";
import { bindSignOut, handleProviderSignOutReturn, handleSignOut, type BoundSignOut } from "./flows/signout.js";
import { bindBackchannelLogout, handleBackchannelLogout, type BoundBackchannelLogout } from "./flows/backchannel-logout.js";
import { consoleLogger } from "./logger.js";
import { renderErrorPage } from "./pages/index.js";
import type { RequestContext } from "./request-context.js";
import { toResponse, type ResponsePlan } from "./response.js";
import { buildContext } from "./router.js";
import type { OAuthProviderConfig } from "./providers/oauth-types.js";
import type { AuthConfig, AuthConfigInput, EmailConfig, ProviderConfig } from "./types.js";

interface Flows {
  credentialsSignIn: BoundCredentialsSignIn;
  webauthn: BoundWebAuthn;
  email: BoundEmail;
  oauth: BoundOAuth;
  session: { jwt: BoundSessionMachine; database: BoundDatabaseSession };
  signOut: BoundSignOut;
  backchannelLogout: BoundBackchannelLogout;
}

const boundFlows = new WeakMap<Runtime, Flows>();

/** The machines of a runtime, bound to its effects once (binding costs more than a whole flow). */
function flowsOf(rt: Runtime): Flows {
  let flows = boundFlows.get(rt);
  if (!flows) {
    flows = {
      credentialsSignIn: bindCredentialsSignIn(rt),
      webauthn: bindWebAuthn(rt),
      email: bindEmail(rt),
      oauth: bindOAuth(rt),
      session: { jwt: bindSessionMachine(rt), database: bindDatabaseSession(rt) },
      signOut: bindSignOut(rt),
      backchannelLogout: bindBackchannelLogout(rt),
    };
    boundFlows.set(rt, flows);
  }
  return flows;
}

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
    const logger = typeof config === "object" ? config.logger : undefined;
    (logger?.error ?? consoleLogger.error)(error instanceof AuthError ? error.type : "Configuration", error);
    return configurationFault(request);
  }

  let ctx: RequestContext;
  try {
    ctx = await buildContext(rt, request);
  } catch (error) {
    if (error instanceof UnknownAction) {
      rt.logger.debug("UnknownAction", error.message);
      return typedError(error, 400);
    }
    rt.logger.error(error instanceof AuthError ? error.type : "Configuration", error);
    return configurationFault(request);
  }

  let plan: ResponsePlan;
  try {
    const result = await dispatch(rt, ctx);
    plan = result instanceof AuthError ? errorPlan(rt, ctx, result) : result;
  } catch (error) {
    if (error instanceof UnknownAction || error instanceof InvalidProvider) {
      rt.logger.debug(error.type, error.message);
      return typedError(error, error instanceof InvalidProvider ? 404 : 400);
    }
    plan = errorPlan(rt, ctx, error);
  }
  return toResponse(plan, { returnRedirect: ctx.returnRedirect });
}

async function dispatch(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan | AuthError> {
  const flows = flowsOf(rt);
  if (ctx.method === "GET") {
    switch (ctx.action) {
      case "session":
        return handleSession(rt, flows.session, ctx);
      case "csrf":
        return showCsrf(rt, ctx);
      case "providers":
        return showProviders(rt, ctx);
      case "signin":
        // A GET naming a provider has nothing to do yet but show the sign-in page; an unknown one is a 404.
        if (ctx.providerId) callbackProvider(rt, ctx);
        return showSignIn(rt, ctx);
      case "signout":
        if (ctx.providerId) return handleProviderSignOutReturn(rt, ctx, callbackProvider(rt, ctx));
        return showSignOut(rt, ctx);
      case "error":
        return showError(rt, ctx);
      case "verify-request":
        return showVerifyRequest(rt, ctx);
      case "callback": {
        const provider = callbackProvider(rt, ctx);
        if (isOAuth(provider)) return oauthCallback(rt, flows, ctx, provider);
        if (provider.type === "email") return handleEmailCallback(rt, flows.email, ctx, provider as EmailConfig);
        return unsupportedFlow(ctx);
      }
      case "webauthn-options": {
        const provider = callbackProvider(rt, ctx);
        if (provider.type === "webauthn") return handleWebAuthnOptions(rt, flows.webauthn, ctx, provider as WebAuthnConfig);
        return unsupportedFlow(ctx);
      }
      case "backchannel-logout":
        throw new UnknownAction(`Cannot handle GET ${ctx.url.pathname}: logout tokens are posted.`);
    }
  }

  // The OpenID Provider posts logout tokens server to server: the token's signature protects it, not CSRF.
  if (ctx.action === "backchannel-logout") {
    const provider = callbackProvider(rt, ctx);
    if (!isOAuth(provider)) return unsupportedFlow(ctx);
    return handleBackchannelLogout(rt, flows.backchannelLogout, ctx, provider);
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
      return handleSession(rt, flows.session, ctx);
    case "signout":
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action signout.");
      return handleSignOut(rt, flows.signOut, ctx);
    case "signin": {
      if (!ctx.providerId) throw new UnknownAction("POST /signin needs a provider: /signin/:provider.");
      const provider = callbackProvider(rt, ctx);
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action signin.");
      // Credentials are posted to /callback/:provider; a POST here only asks for the form.
      if (provider.type === "credentials") return { redirect: signInPageUrl(rt, ctx) };
      if (isOAuth(provider)) return handleOAuthSignIn(rt, flows.oauth, ctx, provider);
      if (provider.type === "email") return handleEmailSignIn(rt, flows.email, ctx, provider as EmailConfig);
      return unsupportedFlow(ctx);
    }
    case "callback": {
      const provider = callbackProvider(rt, ctx);
      // A provider's form_post callback carries no CSRF token: its state and PKCE checks protect it.
      if (isOAuth(provider)) return oauthCallback(rt, flows, ctx, provider);
      if (provider.type !== "credentials" && provider.type !== "webauthn") return unsupportedFlow(ctx);
      if (!csrfOk) return new MissingCSRF("CSRF token was missing during an action callback.");
      if (provider.type === "webauthn") {
        const result = await handleWebAuthnCallback(rt, flows.webauthn, ctx, provider as WebAuthnConfig);
        if ("plan" in result) return result.plan;
        const plan = errorPlan(rt, ctx, result.error);
        return { ...plan, cookies: [...(plan.cookies ?? []), ...result.cookies] };
      }
      return handleCredentialsCallback(rt, flows.credentialsSignIn, ctx, provider.id);
    }
    default:
      throw new UnknownAction(`Cannot handle POST ${ctx.url.pathname}.`);
  }
}

function isOAuth(provider: ProviderConfig): provider is ProviderConfig & OAuthProviderConfig {
  return provider.type === "oauth" || provider.type === "oidc";
}

async function oauthCallback(
  rt: Runtime,
  flows: Flows,
  ctx: RequestContext,
  provider: OAuthProviderConfig,
): Promise<ResponsePlan> {
  const result = await handleOAuthCallback(rt, flows.oauth, ctx, provider);
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
  const safe = isClientSafeErrorType(error.type);
  // The full error is always logged on the server, CredentialsSignin included (the spec asks for it).
  rt.logger.error(error.type, error);
  const params = new URLSearchParams({ error: safe ? error.type : "Configuration" });
  if (error instanceof CredentialsSignin) params.set("code", error.code);
  if (safe && isSignInError(error)) return { redirect: signInPageUrl(rt, ctx, params) };
  return { redirect: errorPageUrl(rt, ctx, params) };
}

/** A typed error answered directly (no redirect): for requests that name no route or provider. */
function typedError(error: AuthError, status: number): Response {
  return new Response(JSON.stringify({ error: error.type, message: error.message }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "private, no-cache, no-store" },
  });
}

/** The answer when the server's configuration is at fault: 500, type `Configuration`, no detail. */
function configurationFault(request: Request): Response {
  const accept = request.headers.get("accept") ?? "";
  const message = "There is a problem with the server configuration. Check the server logs for more information.";
  if (accept.includes("text/html")) {
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
