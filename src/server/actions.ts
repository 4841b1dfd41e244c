/**
 * Signing in, signing out and updating the session from server code (server actions, form
 * actions, loaders), for every integration. Each is the browser's request to the library's own
 * route — with a CSRF token fetched first, as a page would — answered in-process by `Auth()` with
 * `X-Auth-Return-Redirect`, so the result is the URL to send the browser to plus the cookies to set.
 * The integration decides how to redirect and how to write cookies.
 */
import type { SetCookie } from "../cookies.js";
import {
  AccessDenied,
  AccountNotLinked,
  AuthError,
  CredentialsSignin,
  EmailSignInError,
  InvalidProvider,
  MissingCSRF,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  RateLimited,
  Verification,
  WebAuthnVerificationError,
} from "../errors.js";
import type { Runtime } from "../config/runtime.js";
import { Auth } from "../handler.js";
import { consoleLogger } from "../logger.js";
import { normalizeUrl } from "../redirect.js";
import { trustedOrigin } from "../router.js";
import type { AuthConfigInput } from "../types.js";
import { callRoute, CookieState, jsonOf } from "./internal-request.js";
import { resolvedConfig } from "./runtime.js";
import type { SessionRead } from "./session.js";

/** What an operation produced: where the browser goes next, and the cookies to set on the way. */
export interface ActionResult {
  url: string;
  cookies: SetCookie[];
}

/** Authorization request parameters in any of the shapes the spec allows. */
export type AuthorizationParams = string | URLSearchParams | Record<string, string> | Array<[string, string]>;

export interface SignInActionOptions {
  /** The provider's id; without one, the result is the sign-in page. */
  provider?: string;
  /** What the sign-in posts: credentials, the email address, ... (`csrfToken` and `callbackUrl` are set here). */
  fields?: Record<string, string>;
  /** Where to land after signing in: a relative path or a URL of the application's origin. */
  redirectTo?: string;
  /** Extra parameters of the provider's authorization request (OAuth/OIDC). */
  authorizationParams?: AuthorizationParams;
}

interface Context {
  rt: Runtime;
  request: Request;
  handle: (request: Request) => Promise<Response>;
  basePath: string;
  origin: string;
  signInPath: string;
  errorPath: string;
  cookies: CookieState;
}

async function contextOf(request: Request, input: AuthConfigInput): Promise<Context> {
  // Resolved once: the internal calls get the resolved config, so a lazy config runs once per operation.
  const { config, rt } = await resolvedConfig(request, input);
  const origin = trustedOrigin(rt, request, new URL(request.url));
  const prefix = rt.basePath === "/" ? "" : rt.basePath;
  const pagePath = (page: string | undefined, fallback: string) => new URL(page ? normalizeUrl(page, origin) : `${origin}${fallback}`).pathname;
  return {
    rt,
    request,
    handle: (internal) => Auth(internal, config),
    basePath: rt.basePath,
    origin,
    signInPath: pagePath(rt.pages.signIn, `${prefix}/signin`),
    errorPath: pagePath(rt.pages.error, `${prefix}/error`),
    cookies: new CookieState(request.headers.get("cookie")),
  };
}

/** The CSRF token for the next POST, as a page of the application would get it. */
async function csrfToken(ctx: Context): Promise<string> {
  const response = await callRoute(ctx.handle, ctx.request, { basePath: ctx.basePath, cookies: ctx.cookies, call: { method: "GET", route: "/csrf" } });
  const body = await jsonOf(response);
  const token = (body as { csrfToken?: unknown } | undefined)?.csrfToken;
  if (typeof token !== "string") throw new MissingCSRF("Could not obtain a CSRF token for a server-side operation.");
  return token;
}

/** POSTs a form to `route` and returns the URL the library would have redirected to. */
async function postForRedirect(ctx: Context, route: string, form: Record<string, string>): Promise<string> {
  const response = await callRoute(ctx.handle, ctx.request, {
    basePath: ctx.basePath,
    cookies: ctx.cookies,
    call: { method: "POST", route, body: { form }, returnRedirect: true },
  });
  const body = await jsonOf(response);
  const url = (body as { url?: unknown } | undefined)?.url;
  if (typeof url === "string") return url;
  const type = (body as { error?: unknown } | undefined)?.error;
  throw errorOfType(typeof type === "string" ? type : "Configuration", undefined, `${route} answered ${response.status}`);
}

const SIGN_IN_ERRORS: Record<string, new (message?: string) => AuthError> = {
  AccessDenied,
  AccountNotLinked,
  CredentialsSignin,
  EmailSignInError,
  InvalidProvider,
  MissingCSRF,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  Verification,
  WebAuthnVerificationError,
};

/** The error a redirect to the sign-in or error page names, as the class of that type. */
function errorOfType(type: string, code: string | undefined, detail: string): AuthError {
  // A limit's code is the seconds to wait, which the caller may show.
  if (type === "RateLimited") return new RateLimited(`Sign-in failed (${type}): ${detail}`, Number(code) || 1);
  const ErrorClass = Object.hasOwn(SIGN_IN_ERRORS, type) ? SIGN_IN_ERRORS[type]! : AuthError;
  const error = new ErrorClass(`Sign-in failed (${type}): ${detail}`);
  if (error instanceof CredentialsSignin && code) error.code = code;
  return error;
}

/** When `url` is the sign-in or error page carrying `?error=`, the failure it reports. */
function failureIn(ctx: Context, url: string): AuthError | null {
  let target: URL;
  try {
    target = new URL(url, ctx.origin);
  } catch {
    return null;
  }
  const type = target.searchParams.get("error");
  if (!type || (target.pathname !== ctx.signInPath && target.pathname !== ctx.errorPath)) return null;
  return errorOfType(type, target.searchParams.get("code") ?? undefined, "the library redirected to its error page");
}

function toParams(params: AuthorizationParams | undefined): URLSearchParams {
  if (params === undefined) return new URLSearchParams();
  if (params instanceof URLSearchParams) return new URLSearchParams(params);
  return new URLSearchParams(params as string | Record<string, string> | Array<[string, string]>);
}

/** The built-in sign-in route (which forwards to `pages.signIn` when set), coming back to `redirectTo`. */
function signInPage(ctx: Context, redirectTo: string | undefined): string {
  const prefix = ctx.basePath === "/" ? "" : ctx.basePath;
  const query = redirectTo ? `?${new URLSearchParams({ callbackUrl: redirectTo })}` : "";
  return `${ctx.origin}${prefix}/signin${query}`;
}

/**
 * Signs in with `provider` from server code. OAuth/OIDC: the URL is the provider's authorization
 * endpoint. Email: the "check your email" page. Credentials: `redirectTo` once signed in. Without a
 * provider (or for passkeys, whose ceremony runs in the browser): the sign-in page.
 *
 * @throws the `AuthError` the sign-in failed with (`CredentialsSignin` with its `code`, `AccessDenied`,
 * ...), `InvalidProvider` for an id that is not configured.
 */
export async function signInAction(request: Request, config: AuthConfigInput, options: SignInActionOptions = {}): Promise<ActionResult> {
  const ctx = await contextOf(request, config);
  if (!options.provider) return { url: signInPage(ctx, options.redirectTo), cookies: [] };
  const provider = ctx.rt.providerById.get(options.provider);
  if (!provider) throw new InvalidProvider(`signIn: no provider with id "${options.provider}" is configured.`);
  if (provider.type === "webauthn") return { url: signInPage(ctx, options.redirectTo), cookies: [] };

  const form: Record<string, string> = { ...options.fields, csrfToken: await csrfToken(ctx) };
  if (options.redirectTo !== undefined) form.callbackUrl = options.redirectTo;
  const id = encodeURIComponent(provider.id);
  let route: string;
  if (provider.type === "credentials") {
    route = `/callback/${id}`;
  } else {
    const query = toParams(options.authorizationParams);
    query.delete("callbackUrl");
    const search = query.toString();
    route = `/signin/${id}${search ? `?${search}` : ""}`;
  }
  const url = await postForRedirect(ctx, route, form);
  const failure = failureIn(ctx, url);
  if (failure) throw failure;
  return { url, cookies: ctx.cookies.written };
}

/** Ends the session of `request` (removing a database session, expiring the cookie); the URL is `redirectTo`. */
export async function signOutAction(request: Request, config: AuthConfigInput, options: { redirectTo?: string } = {}): Promise<ActionResult> {
  const ctx = await contextOf(request, config);
  const form: Record<string, string> = { csrfToken: await csrfToken(ctx) };
  if (options.redirectTo !== undefined) form.callbackUrl = options.redirectTo;
  const url = await postForRedirect(ctx, "/signout", form);
  return { url, cookies: ctx.cookies.written };
}

/**
 * Updates the session of `request` with `data` (the jwt callback sees `trigger: "update"` and
 * `session: data`; the session callback `newSession: data`) and returns the new session, or `null`
 * when there is none or the update failed. Never throws.
 */
export async function updateSessionAction(request: Request, config: AuthConfigInput, data: unknown): Promise<SessionRead> {
  try {
    const ctx = await contextOf(request, config);
    const token = await csrfToken(ctx);
    const response = await callRoute(ctx.handle, request, {
      basePath: ctx.basePath,
      cookies: ctx.cookies,
      call: { method: "POST", route: "/session", body: { json: { csrfToken: token, data } } },
    });
    const body = response.ok ? await jsonOf(response) : undefined;
    const session = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as SessionRead["session"]) : null;
    return { session, cookies: ctx.cookies.written };
  } catch (error) {
    const logger = typeof config === "object" ? config.logger?.error : undefined;
    (logger ?? consoleLogger.error)("SessionUpdateFailed", error);
    return { session: null, cookies: [] };
  }
}
