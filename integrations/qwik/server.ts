/**
 * The server half of `appauth/qwik`: everything `ResumableAuth$` does on a request, as plain
 * functions of Qwik City's request event. Loaded lazily by the Qwik entry (index.qwik.mts), so a
 * component that imports `useSession` never pulls the engine into the browser's graph.
 *
 * Two rules shape it. The library's own routes keep the core's CSRF check: Qwik City's origin
 * check runs only where a route file matches, and nothing under `basePath` has one. And a request
 * that does not ask for the session pays nothing: the session is read when a loader, an action or
 * a guard asks, once per request (memoised in `sharedMap`), and a re-issued cookie is written back.
 * Every step reads the request as the browser will send it next (response-cookies.ts), so the
 * loaders that run after an action see what the action did to the session and never undo it.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { EnvGetter } from "@builder.io/qwik-city/middleware/request-handler";
import type { SetCookie } from "../../src/cookies.js";
import { MissingSecret } from "../../src/errors.js";
import { Auth } from "../../src/handler.js";
import { setClientAddress } from "../../src/rate-limit/client-address.js";
import { signInAction, signOutAction, updateSessionAction, type AuthorizationParams } from "../../src/server/actions.js";
import { listSessionsAction, revokeAllSessions as revokeAllOfUser, revokeSessionsAction, type RevokeRequest, type SessionInfo } from "../../src/server/sessions.js";
import { isAuthPath, signInRedirectUrl } from "../../src/server/guard.js";
import { runtimeOf } from "../../src/server/runtime.js";
import { recentSecondFactorRedirect, type RecentSecondFactorOptions } from "../../src/server/step-up.js";
import { readSession } from "../../src/server/session.js";
import { setCookiesOf } from "../../src/server/set-cookie.js";
import type { AuthConfig, Session } from "../../src/types.js";
import { setEnvDefaults, type ResumableAuthConfig } from "./env.js";
import { requestAsSent, writeCookies } from "./response-cookies.js";

/** Integration B's default base path: the routes answered by `onRequest`. */
export const DEFAULT_BASE_PATH = "/auth";

export type { ResumableAuthConfig } from "./env.js";

/** What a guard gets: the session (or `null`) and the cookies reading it wrote (already handed to Qwik's cookie API). */
export interface GetSessionResult {
  /** The cookies reading the session wrote (a renewed or cleared session cookie). */
  cookie: SetCookie[];
  /** The session, or `null` when signed out. */
  data: Session | null;
  /** Set when the store could not be reached (StoreUnavailable): `data` is `null` then, failing closed, but nobody was signed out. */
  unavailable?: true;
}

/** The part of Qwik City's request event this module uses (loaders, actions and handlers all have it). */
export type AuthRequestEvent = Pick<RequestEventBase, "request" | "url" | "env" | "sharedMap" | "cookie" | "headers"> &
  Partial<Pick<RequestEventBase, "clientConn">>;

/** How the config of the current request is obtained: the user's `ResumableAuth$` function, resolved. */
export type ConfigSource = (event: AuthRequestEvent) => Promise<ResumableAuthConfig>;

const CONFIG_SOURCE = "appauth.configSource";
const CONFIG = "appauth.config";
const SESSION = "appauth.session";

/** The core config for each config object the user's function returns: made once, so the core's per-config cache holds. */
const coreConfigs = new WeakMap<ResumableAuthConfig, AuthConfig>();

function toCoreConfig(config: ResumableAuthConfig, env: EnvGetter): AuthConfig {
  if (config === null || typeof config !== "object") {
    throw new TypeError("ResumableAuth$: the function must return a configuration object.");
  }
  let core = coreConfigs.get(config);
  if (!core) {
    core = { ...config } as AuthConfig;
    setEnvDefaults(env, core);
    core.basePath ??= DEFAULT_BASE_PATH;
    // The core would look for NODE_ENV in process.env, which edge adapters do not have.
    if (core.secret === undefined && env.get("NODE_ENV") === "production") {
      throw new MissingSecret("ResumableAuth$: set AUTH_SECRET (or APPAUTH_SECRET) in the environment, or `secret` in the config.");
    }
    coreConfigs.set(config, core);
  }
  return core;
}

function memo<T>(event: AuthRequestEvent, key: string, make: () => Promise<T>): Promise<T> {
  let value = event.sharedMap.get(key) as Promise<T> | undefined;
  if (!value) {
    value = make();
    event.sharedMap.set(key, value);
  }
  return value;
}

/** Makes `source` the config of this request, for the loaders, actions and guards that run after `onRequest`. */
export function registerConfig(event: AuthRequestEvent, source: ConfigSource): void {
  event.sharedMap.set(CONFIG_SOURCE, source);
}

/** The core config of this request, resolved once. */
export function configOf(event: AuthRequestEvent, source?: ConfigSource): Promise<AuthConfig> {
  return memo(event, CONFIG, async () => {
    const registered = source ?? (event.sharedMap.get(CONFIG_SOURCE) as ConfigSource | undefined);
    if (!registered) {
      throw new Error("appauth/qwik: no configuration for this request. Export `onRequest` from ResumableAuth$ in src/routes/plugin@auth.ts.");
    }
    return toCoreConfig(await registered(event), event.env);
  });
}

function basePathOf(config: AuthConfig): string {
  return config.basePath ?? DEFAULT_BASE_PATH;
}

/** Whether `pathname` is under the library's base path. */
export function underBasePath(config: AuthConfig, pathname: string): boolean {
  const base = basePathOf(config);
  const prefix = base === "/" ? "" : base;
  return pathname === base || pathname.startsWith(`${prefix}/`);
}

/** The page the request is for: Qwik City's `event.url` (no `/q-data.json`) without its own query parameters. */
export function pageUrl(event: AuthRequestEvent): URL {
  const url = new URL(event.url.href);
  for (const name of ["qaction", "qdata", "qfunc", "qloaders"]) url.searchParams.delete(name);
  return url;
}

/** Whether the request is Qwik's data fetch (a `<Form>` or link with JavaScript on), not a page load. */
export function isDataRequest(event: AuthRequestEvent): boolean {
  return new URL(event.request.url).pathname.endsWith("/q-data.json");
}

/** The event's request, carrying the connection's address for the rate limiter's per-client limits. */
function requestOf(event: AuthRequestEvent): Request {
  return setClientAddress(event.request, event.clientConn?.ip);
}

/** The request as the browser will send it next (the cookies written so far applied), with the connection's address. */
function sentRequestOf(event: AuthRequestEvent): Request {
  return setClientAddress(requestAsSent(event), event.clientConn?.ip);
}

/**
 * Answers a request under `basePath` with the core, or returns `undefined` for any other request.
 * The core's CSRF check stays on; its cookies go through Qwik's cookie API and the rest of its
 * response is sent as is.
 */
export async function handleAuthRoute(event: AuthRequestEvent, source: ConfigSource): Promise<Response | undefined> {
  const config = await configOf(event, source);
  const { pathname } = new URL(event.request.url);
  if (!underBasePath(config, pathname)) return undefined;
  if (pathname.endsWith("/q-data.json")) {
    // Qwik's client follows an action's or guard's redirect to one of our pages by asking for its
    // data: send it to the page itself, which it then loads as a document.
    const page = new URL(event.request.url);
    page.pathname = pathname.slice(0, -"/q-data.json".length);
    return new Response(null, { status: 303, headers: { location: `${page.pathname}${page.search}` } });
  }
  const response = await Auth(requestOf(event), config);
  writeCookies(event, setCookiesOf(response), "operation");
  const headers = new Headers(response.headers);
  headers.delete("set-cookie");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The session of this request, read once however many loaders and guards ask; re-issued cookies are written. */
export function sessionOf(event: AuthRequestEvent): Promise<GetSessionResult> {
  return memo(event, SESSION, async () => {
    let config: AuthConfig;
    try {
      config = await configOf(event);
    } catch (error) {
      // Fail closed, as every session read does: no configuration, no session.
      console.error("[appauth] could not read the session:", error);
      return { cookie: [], data: null };
    }
    // The cookies as this response leaves them: after a sign-out in the same request (the loaders
    // that run after an action) there is no session to read, and nothing to re-issue.
    const { session, cookies, unavailable } = await readSession(requestAsSent(event), config);
    const written = writeCookies(event, cookies, "read");
    return { cookie: written, data: session, ...(unavailable ? { unavailable: true as const } : {}) };
  });
}

/** Forgets the memoised session (after a sign-in, sign-out or update changed it during this request). */
function forgetSession(event: AuthRequestEvent): void {
  event.sharedMap.delete(SESSION);
}

/** Where the browser goes next, and how Qwik should get it there. */
export type Navigation =
  /** A page of the app: `throw event.redirect(303, path)`, which Qwik follows without a reload when JavaScript is on. */
  | { kind: "page"; path: string }
  /** Another origin, or one of the library's own pages: the browser must load it as a document. */
  | { kind: "document"; url: string };

/** How to reach `target` from this request. */
export function navigationTo(event: AuthRequestEvent, config: AuthConfig, target: string): Navigation {
  const url = new URL(target, event.url);
  const sameOrigin = url.origin === event.url.origin;
  if (sameOrigin && !underBasePath(config, url.pathname)) return { kind: "page", path: `${url.pathname}${url.search}${url.hash}` };
  return { kind: "document", url: sameOrigin ? `${url.pathname}${url.search}${url.hash}` : url.href };
}

export interface SignInInput {
  /** The provider to sign in with. */
  providerId?: string;
  /** Where to land after signing in. */
  redirectTo?: string;
  /** Options of the sign-in (`redirectTo`, the provider's fields). */
  options?: Record<string, unknown>;
  /** Extra parameters for the provider's authorization request. */
  authorizationParams?: AuthorizationParams;
  /** Any other field of the form: the credentials, the email address, ... */
  [field: string]: unknown;
}

/** Form fields as the strings the core's routes take; objects and empty values are left out. */
function formFields(source: Record<string, unknown> | undefined, skip: ReadonlySet<string>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(source ?? {})) {
    if (skip.has(key)) continue;
    if (typeof value === "string") fields[key] = value;
    else if (typeof value === "number" || typeof value === "boolean") fields[key] = String(value);
  }
  return fields;
}

const SIGN_IN_KEYS = new Set(["providerId", "redirectTo", "options", "authorizationParams", "redirect", "csrfToken", "callbackUrl"]);

/** Signs in from an action; resolves with where to go, the cookies already written. Throws the core's `AuthError` on failure. */
export async function signIn(event: AuthRequestEvent, input: SignInInput): Promise<Navigation> {
  const config = await configOf(event);
  const page = pageUrl(event);
  const redirectTo = input.redirectTo ?? (input.options?.redirectTo as string | undefined) ?? `${page.pathname}${page.search}`;
  const fields = { ...formFields(input, SIGN_IN_KEYS), ...formFields(input.options, SIGN_IN_KEYS) };
  const result = await signInAction(sentRequestOf(event), config, {
    ...(input.providerId ? { provider: input.providerId } : {}),
    fields,
    redirectTo,
    ...(input.authorizationParams !== undefined ? { authorizationParams: input.authorizationParams } : {}),
  });
  writeCookies(event, result.cookies, "operation");
  forgetSession(event);
  return navigationTo(event, config, result.url);
}

/** Signs out from an action (the core's sign-out, CSRF token and all); resolves with where to go. */
export async function signOut(event: AuthRequestEvent, input: { redirectTo?: string }): Promise<Navigation> {
  const config = await configOf(event);
  const page = pageUrl(event);
  const result = await signOutAction(sentRequestOf(event), config, { redirectTo: input.redirectTo ?? `${page.pathname}${page.search}` });
  writeCookies(event, result.cookies, "operation");
  forgetSession(event);
  return navigationTo(event, config, result.url);
}

/** Updates the session with `data` (jwt callback `trigger: "update"`); the new session, or `null`. */
export async function updateSession(event: AuthRequestEvent, data: Record<string, unknown>): Promise<Session | null> {
  const config = await configOf(event);
  const { session, cookies } = await updateSessionAction(sentRequestOf(event), config, data);
  writeCookies(event, cookies, "operation");
  event.sharedMap.set(SESSION, Promise.resolve({ cookie: cookies, data: session }));
  return session;
}

/** The signed-in person's sessions ("Your devices"), theirs marked `current`; `null` when signed out. */
export async function listSessions(event: AuthRequestEvent): Promise<SessionInfo[] | null> {
  return listSessionsAction(sentRequestOf(event), await configOf(event));
}

/** Ends what `what` names of the signed-in person's sessions; how many, or `null` when signed out or not theirs. */
export async function revokeSessions(event: AuthRequestEvent, what: RevokeRequest): Promise<number | null> {
  const result = await revokeSessionsAction(sentRequestOf(event), await configOf(event), what);
  if (!result) return null;
  writeCookies(event, result.cookies, "operation");
  if (result.cookies.length) forgetSession(event);
  return result.revoked;
}

/** The application ends every session of `userId` (a password change, a ban); how many ended. */
export async function revokeAllSessionsOf(event: AuthRequestEvent, userId: string): Promise<number> {
  return revokeAllOfUser(await configOf(event), userId);
}

/**
 * For a guard: `null` when the visitor may see the page (signed in, or the page is one of the
 * library's), else the sign-in page to send them to, with `callbackUrl` the full URL they asked for.
 */
export async function signInRequired(event: AuthRequestEvent): Promise<{ session: Session | null; signIn: Navigation | null }> {
  const { data: session } = await sessionOf(event);
  if (session?.user) return { session, signIn: null };
  const config = await configOf(event);
  const page = pageUrl(event);
  const asked = new Request(page.href, { headers: event.request.headers });
  const rt = await runtimeOf(asked, config);
  if (isAuthPath(rt, page.origin, page.pathname)) return { session, signIn: null };
  return { session, signIn: navigationTo(event, config, signInRedirectUrl(rt, asked)) };
}

/**
 * For a step-up guard: `null` when the session proved a second factor in the last `maxAge` seconds,
 * else where to send the browser (the step-up page, or sign-in when signed out), coming back to
 * `redirectTo` (default: the page asked for).
 */
export async function stepUpRequired(event: AuthRequestEvent, options: RecentSecondFactorOptions): Promise<Navigation | null> {
  const config = await configOf(event);
  const page = pageUrl(event);
  const asked = new Request(page.href, { headers: sentRequestOf(event).headers });
  const target = await recentSecondFactorRedirect(asked, config, options);
  return target === null ? null : navigationTo(event, config, target);
}
