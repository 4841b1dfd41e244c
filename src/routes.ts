/**
 * Every route the library serves, as one table: method, action, the provider types a
 * `/{action}/:provider` path serves, whether the CSRF token must come with it, whether it counts
 * against the client's request ceiling, and its handler. `dispatch` (handler.ts) applies a row; the
 * router parses paths by the table, and the README's route list is checked against it.
 */
import type { Runtime } from "./config/runtime.js";
import { InvalidProvider, UnknownAction, type AuthError } from "./errors.js";
import { bindDatabaseSession } from "./flows/database-session.js";
import { flowRoute, lazyFlowRoute } from "./flows/flow-route.js";
import { showCsrf, showError, showProviders, showSignIn, showSignOut, showVerifyRequest, signInPageUrl } from "./flows/pages.js";
import { bindSessionMachine, handleSession } from "./flows/session.js";
import { touchJwtSession } from "./session/registry.js";
import { loadTokenRefresh } from "./flows/token-refresh-loader.js";
import { lazy } from "./lazy.js";
import type { AuthAction, RequestContext } from "./request-context.js";
import type { RouteAnswer } from "./response.js";
import type { RoutePaths } from "./router.js";
import type { Awaitable, ProviderConfig, ProviderType } from "./types.js";


type ProviderOf<T extends ProviderType> = Extract<ProviderConfig, { type: T }>;

interface RouteRow<T extends ProviderType> {
  method: "GET" | "POST";
  action: AuthAction;
  /** The provider types served at `/{action}/:provider`; absent when the path names no provider. */
  providers?: readonly T[];
  /** Whether the request must carry the CSRF token (double-submitted: form field and cookie). */
  csrf: boolean;
  /** Whether the request counts against the client's request ceiling (`rateLimit`'s `requests`). */
  countsRequest: boolean;
  /** Its client reads JSON, not pages: a refusal is JSON (429 with Retry-After; 400 `null` without the CSRF token). */
  json?: boolean;
  handle(rt: Runtime, ctx: RequestContext, provider: ProviderOf<T>): Awaitable<RouteAnswer>;
}

export type Route = RouteRow<ProviderType>;

/**
 * A row, its handler typed by the providers it serves (a row naming none takes none). Widened for
 * the table: `matchRoute` hands a row only a provider of a type the row lists.
 */
const route = <T extends ProviderType = never>(row: RouteRow<T>): Route => row as unknown as Route;

const OAUTH = ["oauth", "oidc"] as const satisfies readonly ProviderType[];
const ANY_PROVIDER = ["oauth", "oidc", "email", "credentials", "webauthn"] as const satisfies readonly ProviderType[];

/*
 * The flows other than the session are imported by the first request that takes them: reading a
 * session, the request of every page load, needs neither the OAuth client nor the JOSE and WebAuthn
 * libraries (issue 19: cold start and middleware bundle).
 */
const oauthFlow = lazy(() => import("./flows/oauth.js"));
const emailFlow = lazy(() => import("./flows/email.js"));
const webAuthnFlow = lazy(() => import("./flows/webauthn.js"));
const signOutFlow = lazy(() => import("./flows/signout.js"));
const credentialsFlow = lazy(() => import("./flows/credentials-signin.js"));
const backchannelLogoutFlow = lazy(() => import("./flows/backchannel-logout.js"));
const sessionsFlow = lazy(() => import("./flows/sessions.js"));
const twoFactorChallenge = lazy(() => import("./two-factor/challenge.js"));
const manageTwoFactor = lazy(() => import("./two-factor/manage.js"));
const stepUp = lazy(() => import("./two-factor/step-up.js"));

const bindSessions = (rt: Runtime) => ({ jwt: bindSessionMachine(rt, loadTokenRefresh, touchJwtSession), database: bindDatabaseSession(rt, loadTokenRefresh) });

const sessionRoute = flowRoute(bindSessions, handleSession);
const oauthCallback = lazyFlowRoute(oauthFlow, "callback");

/** The table. A provider route may take several rows, one per kind of provider: `matchRoute` picks the one listing the provider's type. */
export const ROUTES: readonly Route[] = [
  route({ method: "GET", action: "providers", csrf: false, countsRequest: false, handle: showProviders }),
  route({ method: "GET", action: "csrf", csrf: false, countsRequest: false, handle: showCsrf }),
  route({ method: "GET", action: "session", csrf: false, countsRequest: false, handle: sessionRoute }),
  route({ method: "GET", action: "signin", csrf: false, countsRequest: false, handle: showSignIn }),
  // The person's own sessions ("Your devices"); JSON for the application's page.
  route({ method: "GET", action: "sessions", csrf: false, countsRequest: false, json: true, handle: lazyFlowRoute(sessionsFlow, "sessions") }),
  // Nothing to do yet but show the sign-in page; an unknown provider is still a 404.
  route({ method: "GET", action: "signin", providers: ANY_PROVIDER, csrf: false, countsRequest: false, handle: showSignIn }),
  route({ method: "GET", action: "signout", csrf: false, countsRequest: false, handle: showSignOut }),
  // Where an OpenID Provider sends the browser back after RP-initiated logout.
  route({
    method: "GET",
    action: "signout",
    providers: ANY_PROVIDER,
    csrf: false,
    countsRequest: false,
    handle: lazyFlowRoute(signOutFlow, "providerReturn"),
  }),
  route({ method: "GET", action: "error", csrf: false, countsRequest: false, handle: showError }),
  route({ method: "GET", action: "verify-request", csrf: false, countsRequest: false, handle: showVerifyRequest }),
  // A sign-in waiting for its second factor (the pending cookie says whose).
  route({
    method: "GET",
    action: "two-factor-challenge",
    csrf: false,
    countsRequest: false,
    handle: async (rt, ctx) => (await twoFactorChallenge()).showChallenge(rt, ctx),
  }),
  // The signed-in user's own second factors: the page, or JSON for `Accept: application/json`.
  route({ method: "GET", action: "two-factor", csrf: false, countsRequest: false, handle: async (rt, ctx) => (await manageTwoFactor()).showTwoFactor(rt, ctx) }),
  // A signed-in person proves their second factor again before a sensitive action (`?callbackUrl=`).
  route({ method: "GET", action: "step-up", csrf: false, countsRequest: false, handle: async (rt, ctx) => (await stepUp()).showStepUp(rt, ctx) }),
  route({ method: "GET", action: "callback", providers: OAUTH, csrf: false, countsRequest: false, handle: oauthCallback }),
  route({
    method: "GET",
    action: "callback",
    providers: ["email"],
    csrf: false,
    countsRequest: false,
    handle: lazyFlowRoute(emailFlow, "callback"),
  }),
  route({
    method: "GET",
    action: "webauthn-options",
    providers: ["webauthn"],
    csrf: false,
    countsRequest: false,
    handle: lazyFlowRoute(webAuthnFlow, "options"),
  }),

  // Every POST changes state, so each needs the CSRF token unless something else protects it.
  route({ method: "POST", action: "session", csrf: true, countsRequest: true, json: true, handle: sessionRoute }),
  // Ends one of the person's sessions, the others, or all: a cross-site post without the token ends nothing.
  route({ method: "POST", action: "sessions", csrf: true, countsRequest: true, json: true, handle: lazyFlowRoute(sessionsFlow, "sessions") }),
  route({
    method: "POST",
    action: "signout",
    csrf: true,
    countsRequest: true,
    handle: lazyFlowRoute(signOutFlow, "signOut"),
  }),
  // The OAuth start counts the request ceiling in its own machine.
  route({
    method: "POST",
    action: "signin",
    providers: OAUTH,
    csrf: true,
    countsRequest: false,
    handle: lazyFlowRoute(oauthFlow, "signIn"),
  }),
  route({
    method: "POST",
    action: "signin",
    providers: ["email"],
    csrf: true,
    countsRequest: true,
    handle: lazyFlowRoute(emailFlow, "signIn"),
  }),
  // Credentials are posted to /callback/:provider; a POST here only asks for the form.
  route({ method: "POST", action: "signin", providers: ["credentials"], csrf: true, countsRequest: true, handle: (rt, ctx) => ({ redirect: signInPageUrl(rt, ctx) }) }),
  // A provider's form_post callback carries no CSRF token: its state and PKCE checks protect it.
  route({ method: "POST", action: "callback", providers: OAUTH, csrf: false, countsRequest: true, handle: oauthCallback }),
  route({
    method: "POST",
    action: "callback",
    providers: ["credentials"],
    csrf: true,
    countsRequest: true,
    handle: lazyFlowRoute(credentialsFlow, "callback"),
  }),
  route({
    method: "POST",
    action: "callback",
    providers: ["webauthn"],
    csrf: true,
    countsRequest: true,
    handle: lazyFlowRoute(webAuthnFlow, "callback"),
  }),
  // The code (or recovery code) of a pending sign-in; past it, the sign-in completes.
  route({
    method: "POST",
    action: "two-factor-challenge",
    csrf: true,
    countsRequest: true,
    handle: async (rt, ctx) => (await twoFactorChallenge()).answerChallenge(rt, ctx),
  }),
  // Enroll, confirm, new recovery codes, remove (`op`): a change to the session user's own factors.
  route({ method: "POST", action: "two-factor", csrf: true, countsRequest: true, handle: async (rt, ctx) => (await manageTwoFactor()).changeTwoFactor(rt, ctx) }),
  // The code (or recovery code) of a step-up; past it, the same session says a second factor was just proved.
  route({ method: "POST", action: "step-up", csrf: true, countsRequest: true, handle: async (rt, ctx) => (await stepUp()).answerStepUp(rt, ctx) }),
  // The OpenID Provider posts logout tokens server to server: the token's signature protects it, not CSRF.
  route({
    method: "POST",
    action: "backchannel-logout",
    providers: OAUTH,
    csrf: false,
    countsRequest: true,
    json: true,
    handle: lazyFlowRoute(backchannelLogoutFlow, "logout"),
  }),
];

/** The path of a row under the base path: `/callback/:provider`. */
export function routePath(row: Pick<Route, "action" | "providers">): string {
  return row.providers ? `/${row.action}/:provider` : `/${row.action}`;
}

/** What the router parses paths by: the actions, and those whose path may name a provider. */
export const ROUTE_PATHS: RoutePaths = {
  actions: new Set(ROUTES.map((row) => row.action)),
  withProvider: new Set(ROUTES.filter((row) => row.providers).map((row) => row.action)),
};

/** Near misses, refused with what was meant rather than a bare "cannot handle". */
const NEAR_MISSES: Partial<Record<`${Route["method"]} ${AuthAction}`, (path: string) => string>> = {
  "GET backchannel-logout": (path) => `Cannot handle GET ${path}: logout tokens are posted.`,
  "POST signin": () => "POST /signin needs a provider: /signin/:provider.",
};

/**
 * A request's row and provider; or, when no row serves it, the refusal (and a row of the same
 * method and action, whose kind of client the refusal of a rate-limited request follows).
 */
export type RouteMatch = { route: Route; provider?: ProviderConfig } | { refused: AuthError; like?: Route };

export function matchRoute(rt: Runtime, ctx: Pick<RequestContext, "method" | "action" | "providerId" | "url">): RouteMatch {
  const rows = ROUTES.filter((row) => row.method === ctx.method && row.action === ctx.action);
  const refuse = (refused: AuthError): RouteMatch => (rows[0] ? { refused, like: rows[0] } : { refused });
  const byProvider = rows.filter((row) => row.providers);
  const plain = rows.find((row) => !row.providers);
  if (ctx.providerId === undefined ? !plain : !byProvider.length) {
    const hint = NEAR_MISSES[`${ctx.method} ${ctx.action}`];
    if (hint) return refuse(new UnknownAction(hint(ctx.url.pathname)));
    // A provider route whose path names none names no configured provider.
    if (ctx.providerId === undefined && byProvider.length) return refuse(new InvalidProvider('No provider with id "" is configured.'));
    return refuse(new UnknownAction(`Cannot handle ${ctx.method} ${ctx.url.pathname}.`));
  }
  if (ctx.providerId === undefined) return { route: plain! };
  const provider = rt.providerById.get(ctx.providerId);
  if (!provider) return refuse(new InvalidProvider(`No provider with id "${ctx.providerId}" is configured.`));
  const served = byProvider.find((row) => row.providers!.includes(provider.type));
  if (!served) return refuse(new UnknownAction(`${ctx.method} ${ctx.url.pathname} is not supported for this provider.`));
  return { route: served, provider };
}
