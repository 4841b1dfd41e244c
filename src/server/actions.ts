/**
 * Signing in, signing out and updating the session from server code (server actions, form
 * actions, loaders), for every integration. Sign-in and sign-out run the route's flow directly:
 * the context the router would build for the browser's POST, the row's checks (request ceiling,
 * CSRF token), the row's handler; a failure comes back as the flow's typed `AuthError`, success as
 * the URL to send the browser to plus the cookies to set. The integration decides how to redirect
 * and how to write cookies. (Updating the session is still a request answered in-process by `Auth()`.)
 */
import { parseCookies, type SetCookie } from "../cookies.js";
import { resolveCsrf } from "../csrf.js";
import { AuthError, CallbackRouteError, InvalidProvider, isClientSafeErrorType, MissingCSRF } from "../errors.js";
import type { Runtime } from "../config/runtime.js";
import { Auth, dispatch } from "../handler.js";
import { consoleLogger, logAuthError } from "../logger.js";
import type { AuthAction } from "../request-context.js";
import type { RouteAnswer } from "../response.js";
import { routedContext, trustedOrigin } from "../router.js";
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
  cookies: CookieState;
}

async function contextOf(request: Request, input: AuthConfigInput): Promise<Context> {
  // Resolved once: the internal calls get the resolved config, so a lazy config runs once per operation.
  const { config, rt } = await resolvedConfig(request, input);
  return {
    rt,
    request,
    handle: (internal) => Auth(internal, config),
    basePath: rt.basePath,
    origin: trustedOrigin(rt, request, new URL(request.url)),
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

/** The POST a server-side operation stands for: its route (with the query of an OAuth start) and its form. */
interface RoutePost {
  action: AuthAction;
  providerId?: string;
  query?: URLSearchParams;
  form: Record<string, string>;
}

/**
 * Runs the route `post` names as the route table serves the browser's POST (`dispatch`: the request
 * ceiling, the CSRF token, the row's handler), on the context the router would build for it.
 *
 * The CSRF check stays, and passes as it did when this was a request to our own route: the token
 * is the one the CSRF route would give this browser (its cookie kept when valid, minted otherwise,
 * the new cookie set on the way), submitted with the form. It protects nothing here — server
 * actions are the framework's same-origin calls, and the request is built on the server — but the
 * row runs unchanged, and a browser that had no CSRF cookie gets one, as before.
 */
async function runPost(ctx: Context, post: RoutePost): Promise<ActionResult> {
  const { rt, request, origin } = ctx;
  const prefix = rt.basePath === "/" ? "" : rt.basePath;
  const search = post.query?.toString();
  const path = `${prefix}/${post.action}${post.providerId !== undefined ? `/${encodeURIComponent(post.providerId)}` : ""}`;
  const jar = parseCookies(request.headers.get("cookie"));
  const form = new URLSearchParams(post.form);
  const body: Record<string, unknown> = {};
  const routed = routedContext(rt, request, {
    method: "POST",
    action: post.action,
    ...(post.providerId !== undefined ? { providerId: post.providerId } : {}),
    url: new URL(`${origin}${path}${search ? `?${search}` : ""}`),
    origin,
    body,
    form,
    jar,
    returnRedirect: true,
  });
  const csrf = await resolveCsrf(jar, routed.cookies.csrfToken, rt.secrets);
  const cookies: SetCookie[] = csrf.cookie ? [csrf.cookie] : [];
  if (csrf.cookie) jar.set(csrf.cookie.name, csrf.cookie.value);
  form.set("csrfToken", csrf.token);
  // As the router reads a form: the first value of each field.
  for (const [key, value] of form) if (!(key in body)) body[key] = value;

  let answer: RouteAnswer;
  try {
    answer = await dispatch(rt, routed);
  } catch (thrown) {
    // The provider was looked up before; what else a route throws is answered as the route answers it.
    if (thrown instanceof InvalidProvider) throw thrown;
    throw logged(rt, thrown);
  }
  if (answer instanceof AuthError) throw logged(rt, answer);
  if ("error" in answer) throw logged(rt, answer.error);
  if (answer.redirect === undefined) throw new AuthError(`Sign-in failed: /${post.action} answered without a redirect.`);
  return { url: answer.redirect, cookies: [...cookies, ...(answer.cookies ?? [])] };
}

/**
 * A flow's failure as the caller gets it, logged in full as the route logs it. Its own typed error
 * when the type is one a browser may be told (`CredentialsSignin` with its code, `RateLimited` with
 * `retryAfter`, ...); any other is a fault of the server, reported as the route reports it to the
 * browser: type `Configuration`, no detail (SolidStart sends what a server function throws to the
 * browser, and Qwik's failure value names the type).
 */
function logged(rt: Runtime, thrown: unknown): AuthError {
  const error = thrown instanceof AuthError ? thrown : new CallbackRouteError({ cause: thrown });
  logAuthError(rt.logger, error);
  if (!isClientSafeErrorType(error.type)) return new AuthError("Sign-in failed (Configuration): the server's log has the details.");
  // The message as these operations have always worded it (SolidStart sends it to the browser, where
  // client code reads the type from it); the flow's own wording stays in the log line above.
  error.message = `Sign-in failed (${error.type}): the server's log has the details.`;
  return error;
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

  const form: Record<string, string> = { ...options.fields };
  if (options.redirectTo !== undefined) form.callbackUrl = options.redirectTo;
  if (provider.type === "credentials") return runPost(ctx, { action: "callback", providerId: provider.id, form });
  const query = toParams(options.authorizationParams);
  query.delete("callbackUrl");
  return runPost(ctx, { action: "signin", providerId: provider.id, query, form });
}

/** Ends the session of `request` (removing a database session, expiring the cookie); the URL is `redirectTo`. */
export async function signOutAction(request: Request, config: AuthConfigInput, options: { redirectTo?: string } = {}): Promise<ActionResult> {
  const ctx = await contextOf(request, config);
  const form: Record<string, string> = {};
  if (options.redirectTo !== undefined) form.callbackUrl = options.redirectTo;
  return runPost(ctx, { action: "signout", form });
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
