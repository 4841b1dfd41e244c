/**
 * Sign-out. POST /signout: the sign-out machine ends the session; the cookies go whatever it
 * reports. A session signed in through an OpenID Provider with `rpInitiatedLogout` leaves through
 * the provider's end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0), carrying a random
 * `state`; GET /signout/:provider is where the provider sends the browser back, and only a return
 * whose `state` matches the short-lived, encrypted, provider-bound cookie minted with it goes on to
 * the callback URL the sign-out resolved, ending again a session cookie the browser got back while
 * it was away. Every other return lands on the origin, never elsewhere, and changes nothing else.
 */
import * as oauth from "oauth4webapi";
import { fromPromise } from "xstate";
import { signOutMachine, type EndedSession, type ProviderLogout } from "../../machines/signout.machine.js";
import type { Runtime } from "../config/runtime.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import { constantTimeEqual } from "../csrf.js";
import { MissingAdapterMethods, SignOutError } from "../errors.js";
import { decode, encode } from "../jwt/index.js";
import { CHECK_MAX_AGE } from "../oauth/checks.js";
import { checkTransport, clientOf } from "../oauth/client.js";
import { providerServers } from "../oauth/servers.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { normalizeUrl, requestedCallbackUrl, resolveRedirectUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { RequestFacts } from "../../machines/shared.js";
import type { ResponsePlan } from "../response.js";
import { flowRoute } from "./flow-route.js";
import { clearSessionCookies, decodeSessionToken, readSessionCookie } from "../session/jwt-session.js";
import { requireAdapter } from "../session/database-session.js";
import type { CookieOption, ProviderConfig } from "../types.js";
import { requestOf, runFlow } from "./run.js";

export function bindSignOut(rt: Runtime) {
  const resolveRedirect = fromPromise<string, { url: string; request: RequestFacts }>(({ input }) =>
    resolveRedirectUrl(input.url, input.request, rt.callbacks.redirect),
  );
  const planProviderLogout = fromPromise<
    ProviderLogout | null,
    { ended: EndedSession; callbackUrl: string | undefined; request: RequestFacts }
  >(({ input, system }) => planEndSession(rt, input, requestOf(system)));

  if (rt.session.strategy === "database") {
    return signOutMachine.provide({
      actors: {
        readSession: fromPromise(async ({ input }) => ({
          session: (await requireAdapter(rt).getSessionAndUser!(input.token))?.session ?? null,
        })),
        endSession: fromPromise(async ({ input }) => {
          await requireAdapter(rt).deleteSession!(input.token);
        }),
        resolveRedirect,
        planProviderLogout,
      },
    });
  }
  return signOutMachine.provide({
    actors: {
      readSession: fromPromise(async ({ input, system }) => ({
        token: (await decodeSessionToken(rt, requestOf(system), input.token))?.payload ?? null,
      })),
      // A JWT session lives only in the cookie, which the response clears.
      endSession: fromPromise(async () => {}),
      resolveRedirect,
      planProviderLogout,
    },
  });
}

export type BoundSignOut = ReturnType<typeof bindSignOut>;

export async function handleSignOut(rt: Runtime, machine: BoundSignOut, ctx: RequestContext): Promise<ResponsePlan> {
  const input = { token: readSessionCookie(rt, ctx), callbackUrl: requestedCallbackUrl(ctx), request: requestFacts(ctx) };
  const output = await runFlow(rt, machine, input, ctx);
  for (const failure of output.failures) rt.logger.error("SignOutError", new SignOutError({ cause: failure.error }));
  return { redirect: output.redirectTo || ctx.origin, cookies: [...clearSessionCookies(rt, ctx), ...output.cookies] };
}

/** Format version of the logout cookie's content. */
const LOGOUT_VERSION = 1;

/** What the logout cookie carries: the provider it was minted for, the `state` sent, where to go after. */
interface LogoutTicket {
  v: typeof LOGOUT_VERSION;
  p: string;
  state: string;
  to: string;
}

/**
 * The cookie that remembers an RP-initiated logout between the redirect to the provider and its
 * return: named after the OAuth state cookie (so its prefix and options follow that cookie's
 * configuration) but its own cookie, so a sign-in started meanwhile and a logout never clear or
 * overwrite each other. Its name is also the encryption salt: it never opens as an OAuth check.
 */
function logoutCookieOf(ctx: RequestContext): CookieOption {
  const { name, options } = ctx.cookies.state;
  return { name: `${name}.logout`, options };
}

/** The ID token of the ended session's OpenID Connect sign-in, with its provider; null when there is none. */
async function signedInWith(rt: Runtime, ended: EndedSession): Promise<{ providerId: string; idToken?: string } | null> {
  if ("token" in ended) {
    const account = ended.token?.account;
    if (!account || typeof account.provider !== "string") return null;
    return { providerId: account.provider, ...(typeof account.id_token === "string" ? { idToken: account.id_token } : {}) };
  }
  const session = ended.session;
  if (!session?.provider || !session.providerAccountId) return null;
  if (!rt.federation.rpInitiatedLogout.has(session.provider)) return { providerId: session.provider };
  const adapter = requireAdapter(rt);
  if (!adapter.getAccount) {
    throw new MissingAdapterMethods("adapter: rpInitiatedLogout with database sessions needs the adapter method getAccount.");
  }
  // The account keeps the ID token of its latest sign-in: that is the hint the provider knows.
  const account = await adapter.getAccount(session.providerAccountId, session.provider);
  const idToken = account?.id_token;
  return { providerId: session.provider, ...(typeof idToken === "string" ? { idToken } : {}) };
}

/**
 * The provider's end-session request for a session that has just ended (OpenID Connect
 * RP-Initiated Logout 1.0 §2, https://openid.net/specs/openid-connect-rpinitiated-1_0.html#RPLogout):
 * the endpoint (the provider option wins over discovery; https, or http on loopback) with
 * `id_token_hint`, `client_id`, `post_logout_redirect_uri` (this library's /signout/:provider) and a
 * random `state`, plus the cookie that remembers that state and the callback URL. Null when the
 * session's provider does not end sessions on sign-out or there is nothing to send it.
 */
async function planEndSession(
  rt: Runtime,
  input: { ended: EndedSession; callbackUrl: string | undefined; request: RequestFacts },
  ctx: RequestContext,
): Promise<ProviderLogout | null> {
  const { request } = input;
  const account = await signedInWith(rt, input.ended);
  const option = account && rt.federation.rpInitiatedLogout.get(account.providerId);
  const provider = account && rt.providerById.get(account.providerId);
  if (!account || !option || provider?.type !== "oidc") return null;
  if (!account.idToken) {
    rt.logger.debug("RPInitiatedLogout", `${provider.id}: the session kept no ID token; the provider's session is not ended.`);
    return null;
  }
  const oidc = provider as ProviderConfig & OAuthProviderConfig;
  const endpoint = option.endSessionEndpoint ?? (await providerServers(rt).serverOf(oidc)).end_session_endpoint;
  if (!endpoint) {
    rt.logger.warn("RPInitiatedLogout", `${provider.id}: the provider names no end_session_endpoint; its session is not ended.`);
    return null;
  }
  const url = checkTransport(endpoint, "end_session_endpoint", provider.id);
  const state = oauth.generateRandomState();
  // set(), not a new query: an endpoint may carry parameters of its own (a tenant, a policy).
  url.searchParams.set("id_token_hint", account.idToken);
  url.searchParams.set("client_id", clientOf(oidc).client_id);
  url.searchParams.set("post_logout_redirect_uri", `${request.baseUrl}/signout/${encodeURIComponent(provider.id)}`);
  url.searchParams.set("state", state);
  const ticket: LogoutTicket = { v: LOGOUT_VERSION, p: provider.id, state, to: input.callbackUrl || request.origin };
  return { url: url.href, cookies: [await logoutCookie(rt, ctx, ticket)] };
}

async function logoutCookie(rt: Runtime, ctx: RequestContext, ticket: LogoutTicket): Promise<SetCookie> {
  const { name, options } = logoutCookieOf(ctx);
  const value = await encode({ token: { ...ticket }, secret: rt.secrets, salt: name, maxAge: CHECK_MAX_AGE });
  const expires = new Date(Date.now() + CHECK_MAX_AGE * 1000);
  return { name, value, options: { ...options, maxAge: CHECK_MAX_AGE, expires } };
}

/** The ticket in the logout cookie, when it opens with our secret and is well formed; else null. */
async function openLogoutTicket(rt: Runtime, name: string, raw: string): Promise<LogoutTicket | null> {
  try {
    const payload = await decode<Partial<Record<keyof LogoutTicket, unknown>>>({ token: raw, secret: rt.secrets, salt: name });
    if (payload?.v !== LOGOUT_VERSION) return null;
    const { p, state, to } = payload;
    if (typeof p !== "string" || typeof state !== "string" || typeof to !== "string") return null;
    return { v: LOGOUT_VERSION, p, state, to };
  } catch {
    return null;
  }
}

/** The removal of the session cookie (and its chunks) when the browser sent one; none otherwise. */
function heldSessionCookies(rt: Runtime, ctx: RequestContext): SetCookie[] {
  return readSessionCookie(rt, ctx) === undefined ? [] : clearSessionCookies(rt, ctx);
}

/**
 * GET /signout/:provider, where the provider sends the browser back after ending its session. The
 * logout cookie is cleared on every answer. A return whose `state` is the one the cookie remembers
 * for this provider goes on to the callback URL resolved at sign-out (and clears a session cookie
 * the browser holds again); anything else (no cookie, a
 * tampered or expired one, another provider's, a wrong or missing state, a replay) goes to the
 * origin. The person was signed out here before leaving, so nothing is at stake but where they land.
 */
export async function handleProviderSignOutReturn(rt: Runtime, ctx: RequestContext, provider: ProviderConfig): Promise<ResponsePlan> {
  const { name, options } = logoutCookieOf(ctx);
  const raw = ctx.jar.get(name);
  const cookies = raw === undefined ? [] : [expireCookie(name, options)];
  const ticket = raw ? await openLogoutTicket(rt, name, raw) : null;
  const state = ctx.query.get("state");
  if (ticket && ticket.p === provider.id && state !== null && constantTimeEqual(state, ticket.state)) {
    // This browser's own sign-out coming back: a session cookie it holds again (a request that
    // was under way when it left, answered after) is ended too. Only this return may: any other
    // would let a link sign people out.
    return { redirect: normalizeUrl(ticket.to, ctx.origin), cookies: [...cookies, ...heldSessionCookies(rt, ctx)] };
  }
  const why = !raw ? "no logout cookie" : !ticket ? "an unreadable logout cookie" : ticket.p !== provider.id ? "another provider's logout cookie" : "a state that does not match";
  rt.logger.debug("RPInitiatedLogout", `The return from ${provider.id} came with ${why}; going to the origin.`);
  return { redirect: normalizeUrl(ctx.origin, ctx.origin), cookies };
}

/** The routes this flow serves: signing out, and the browser's return from the provider's logout. */
export const routes = { signOut: flowRoute(bindSignOut, handleSignOut), providerReturn: handleProviderSignOutReturn };
