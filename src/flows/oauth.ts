/**
 * POST /signin/:provider and GET|POST /callback/:provider for OAuth 2 and OpenID Connect: the
 * effects of the OAuth machine, each protocol step done with oauth4webapi, each check failing closed.
 */
import { fromEffect } from "./effect.js";
import * as oauth from "oauth4webapi";
import {
  oauthMachine,
  type CallbackParams,
  type AuthorizationRequest,
  type DPoPNonceAsked,
  type ExchangedTokens,
  type OAuthCallbackEvent,
  type OAuthContext,
  type RestoredChecks,
} from "../../machines/oauth.machine.js";
import type { Runtime } from "../config/runtime.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import type { AuthError} from "../errors.js";
import { InvalidConfiguration, InvalidEndpoints, OAuthProfileParseError } from "../errors.js";
import {
  checkCookie,
  checksOf,
  clearChecks,
  crossSite,
  proxyState,
  proxyStateOrigin,
  readCheck,
  redirectProxyOf,
} from "../oauth/checks.js";
import {
  clientAuthOf,
  clientOf,
  endpointParams,
  fetchOf,
  httpOptions,
  UNKNOWN_ISSUER,
} from "../oauth/client.js";
import type { OAuthProviderConfig, TokenSet } from "../providers/oauth-types.js";
import { requestedCallbackUrl, resolveRedirectUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { currentUser } from "../session/current-user.js";
import type { Account, Profile, User } from "../types.js";
import { refusalError } from "./failure.js";
import { requestOf, runMachine } from "./run.js";
import { checkRequest } from "../rate-limit/limiter.js";
import { bindSignInCompletion, twoFactorStep } from "./signin-completion.js";
import { signInAnswer, type SignInAnswer } from "./outcome.js";
import { flowRoute } from "./flow-route.js";
import { idTokenServer, providerServers } from "../oauth/servers.js";
import { callbackParamsOf, searchParamsOf } from "../oauth/callback-params.js";
import { fetchOAuthUserinfo, fetchOidcUserinfo } from "../oauth/userinfo.js";
import { pushAuthorizationRequest, pushesAuthorizationRequests } from "../oauth/par.js";
import { requestObjectParams, usesRequestObject } from "../oauth/request-object.js";
import { isFormPostMode, usesJarm, validateJarmAnswer } from "../oauth/jarm.js";
import { createDPoPKey, dpopTokenRequest } from "../oauth/dpop.js";
import { dpopAlgorithmOf } from "../oauth/dpop-options.js";

/** Parameters of the authorization request that belong to the protocol: never taken from the application. */
const RESERVED_PARAMS = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
]);

/** The account fields stored by default (the spec's subset). */
const DEFAULT_ACCOUNT_FIELDS = ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"];

export function oauthProvider(rt: Runtime, providerId: string): OAuthProviderConfig {
  return rt.providerById.get(providerId) as unknown as OAuthProviderConfig;
}

/** The redirect_uri of a provider: ours, or the redirect proxy's. */
export function redirectUriOf(rt: Runtime, ctx: RequestContext, provider: OAuthProviderConfig): string {
  const proxy = redirectProxyOf(rt, provider);
  const base = proxy ? proxy.replace(/\/+$/, "") : ctx.baseUrl;
  return `${base}/callback/${encodeURIComponent(provider.id)}`;
}

function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? profile.id;
  return {
    id: id === undefined || id === null ? undefined : String(id),
    name: (profile.name ?? profile.nickname ?? profile.preferred_username ?? null) as string | null,
    email: (profile.email ?? null) as string | null,
    image: (typeof profile.picture === "string" ? profile.picture : null) as string | null,
  };
}

/** The default subset of the token set that is stored with the account. */
export function defaultAccountFields(tokens: TokenSet): Partial<Account> {
  const out: Record<string, unknown> = {};
  for (const field of DEFAULT_ACCOUNT_FIELDS) if (tokens[field] !== undefined) out[field] = tokens[field];
  return out as Partial<Account>;
}

/** `token_type` lowercased (it is case-insensitive), `expires_at` computed from `expires_in`. */
export function normaliseTokens(raw: Record<string, unknown>, now: number): TokenSet {
  const tokens: TokenSet = { ...raw };
  if (typeof tokens.token_type === "string") tokens.token_type = tokens.token_type.toLowerCase();
  const expiresIn = typeof tokens.expires_in === "string" ? Number(tokens.expires_in) : tokens.expires_in;
  if (typeof expiresIn === "number" && Number.isFinite(expiresIn)) tokens.expires_at = Math.floor(now / 1000) + Math.floor(expiresIn);
  return tokens;
}

export function bindOAuth(rt: Runtime) {
  const { serverOf, verifyIdTokenSignature } = providerServers(rt);

  /** The provider's answer as oauth4webapi validates it (iss, state, no error): the only form its code exchange takes. */
  async function validatedAnswer(provider: OAuthProviderConfig, params: CallbackParams, checks: RestoredChecks): Promise<URLSearchParams> {
    const as = await serverOf(provider);
    const answer = searchParamsOf(params);
    // A provider with no known issuer cannot be held to RFC 9207's `iss`; one with an issuer must match.
    if (as.issuer === UNKNOWN_ISSUER) answer.delete("iss");
    return oauth.validateAuthResponse(as, clientOf(provider), answer, checks.state ?? oauth.skipStateCheck);
  }

  /** The callback's answer checked as the provider is configured to send it: a JARM `response` JWT, or plain parameters. */
  async function validatedCallback(provider: OAuthProviderConfig, params: CallbackParams, checks: RestoredChecks): Promise<URLSearchParams> {
    if (!usesJarm(provider)) return validatedAnswer(provider, params, checks);
    return validateJarmAnswer(provider, await serverOf(provider), searchParamsOf(params), checks.state ?? oauth.skipStateCheck);
  }

  return oauthMachine.provide({
    actors: {
      checkRequestLimit: fromEffect(({ system }) => checkRequest(rt.rateLimit, requestOf(system).request, rt.logger)),
      discoverEndpoints: fromEffect(async ({ input }) => {
        await serverOf(oauthProvider(rt, input.providerId));
      }),

      createAuthorizationRequest: fromEffect(async ({ input, system }): Promise<AuthorizationRequest> => {
        const req = requestOf(system);
        const provider = oauthProvider(rt, input.providerId);
        const as = await serverOf(provider);
        const client = clientOf(provider);
        const checks = checksOf(rt, provider, as);
        // Decided first: a provider that requires PAR, configured without it, is refused before anything is made.
        const push = pushesAuthorizationRequests(provider, as);
        const url = new URL(as.authorization_endpoint!);
        const scope = provider.type === "oidc" ? "openid profile email" : undefined;
        const params: Record<string, string> = {
          response_type: "code",
          client_id: client.client_id,
          redirect_uri: redirectUriOf(rt, req, provider),
          ...(scope ? { scope } : {}),
          ...endpointParams(provider.authorization),
        };
        const jarm = usesJarm(provider);
        for (const [key, value] of Object.entries(input.authorizationParams)) {
          // A JARM provider's response mode is its configuration's: the application cannot ask for a plain answer.
          if (!RESERVED_PARAMS.has(key) && !(jarm && key === "response_mode")) params[key] = value;
        }
        if (provider.type === "oidc" && !(params.scope ?? "").split(" ").includes("openid")) {
          params.scope = `openid ${params.scope ?? ""}`.trim();
        }
        const cookies: SetCookie[] = [];
        const formPost = isFormPostMode(params.response_mode);
        if (checks.has("pkce")) {
          const verifier = oauth.generateRandomCodeVerifier();
          params.code_challenge = await oauth.calculatePKCECodeChallenge(verifier);
          params.code_challenge_method = "S256";
          cookies.push(await checkCookie(rt, req, "pkceCodeVerifier", provider.id, verifier, formPost));
        }
        if (checks.has("state")) {
          const random = oauth.generateRandomState();
          const state = redirectProxyOf(rt, provider) ? await proxyState(rt, req.baseUrl, random) : random;
          params.state = state;
          cookies.push(await checkCookie(rt, req, "state", provider.id, state, formPost));
        }
        if (checks.has("nonce")) {
          const nonce = oauth.generateRandomNonce();
          params.nonce = nonce;
          cookies.push(await checkCookie(rt, req, "nonce", provider.id, nonce, formPost));
        }
        const sent = usesRequestObject(provider) ? await requestObjectParams(provider, as, client, params) : params;
        for (const [key, value] of Object.entries(sent)) url.searchParams.set(key, value);
        const callbackUrl = await resolveRedirectUrl(input.callbackUrl, req, rt.callbacks.redirect);
        const remember = { ...req.cookies.callbackUrl.options, ...crossSite(formPost) };
        cookies.push({ name: req.cookies.callbackUrl.name, value: callbackUrl, options: remember });
        return { url: url.href, cookies, push };
      }),

      pushAuthorizationRequest: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        return { url: await pushAuthorizationRequest(provider, await serverOf(provider), input.authorizationUrl) };
      }),

      restoreChecks: fromEffect(async ({ input, system }) => {
        const req = requestOf(system);
        const provider = oauthProvider(rt, input.providerId);
        const checks = checksOf(rt, provider, await serverOf(provider));
        const restored = {
          ...(checks.has("pkce") ? { codeVerifier: await readCheck(rt, req, "pkceCodeVerifier", provider.id) } : {}),
          ...(checks.has("state") ? { state: await readCheck(rt, req, "state", provider.id) } : {}),
          ...(checks.has("nonce") ? { nonce: await readCheck(rt, req, "nonce", provider.id) } : {}),
          callbackUrl: requestedCallbackUrl(req),
          redirectUri: redirectUriOf(rt, req, provider),
        };
        const currentUserId = await currentUser(rt, req);
        return { checks: restored, clearCookies: clearChecks(req), ...(currentUserId ? { currentUserId } : {}) };
      }),

      validateCallback: fromEffect(async ({ input }) =>
        callbackParamsOf(await validatedCallback(oauthProvider(rt, input.providerId), input.params, input.checks)),
      ),

      createDPoPKey: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        return createDPoPKey(rt, provider, await serverOf(provider));
      }),

      exchangeCode: fromEffect(async ({ input }): Promise<ExchangedTokens | DPoPNonceAsked> => {
        const provider = oauthProvider(rt, input.providerId);
        const as = await serverOf(provider);
        const { checks } = input;
        const client = clientOf(provider);
        const extra = endpointParams(provider.token);
        // oauth4webapi exchanges only an answer it validated itself (a marked object, not data): the
        // validated answer kept in the context is validated again, to the same result (for JARM, the
        // checked JWT's parameters, which carry the same state and iss).
        const send = async (DPoP?: oauth.DPoPHandle) =>
          oauth.authorizationCodeGrantRequest(
            as,
            client,
            await clientAuthOf(provider),
            await validatedAnswer(provider, input.callbackParams, checks),
            checks.redirectUri,
            checks.codeVerifier ?? oauth.nopkce,
            {
              ...httpOptions(provider, as.token_endpoint),
              ...(Object.keys(extra).length ? { additionalParameters: extra } : {}),
              ...(DPoP ? { DPoP } : {}),
            },
          );
        const check = async (response: Response) =>
          oauth.processAuthorizationCodeResponse(await idTokenServer(provider, as, response), client, response, {
            expectedNonce: checks.nonce ?? oauth.expectNoNonce,
            requireIdToken: provider.type === "oidc",
          });
        let result: oauth.TokenEndpointResponse;
        if (input.dpop) {
          const answered = await dpopTokenRequest(rt, provider.id, { client, dpop: input.dpop }, send, check);
          if ("nonce" in answered) return { dpopNonce: answered.nonce };
          result = answered.result;
        } else {
          result = await check(await send());
        }
        const claims = oauth.getValidatedIdTokenClaims(result);
        return {
          tokens: normaliseTokens(result as unknown as Record<string, unknown>, Date.now()),
          ...(claims ? { idTokenClaims: { ...claims } } : {}),
          keysPublished: Boolean(as.jwks_uri),
        };
      }),

      exchangeCodeCustom: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        const { checks } = input;
        const custom = typeof provider.token === "object" ? provider.token?.request : undefined;
        if (!custom) throw new InvalidConfiguration(`${provider.id} has no token request of its own.`);
        const { tokens } = await custom({
          provider,
          fetch: fetchOf(provider),
          params: searchParamsOf(input.callbackParams),
          ...(checks.codeVerifier ? { codeVerifier: checks.codeVerifier } : {}),
          redirectUri: checks.redirectUri,
        });
        return normaliseTokens(tokens, Date.now());
      }),

      // What a custom exchange returned is held to the ID token checks the standard grant runs.
      checkIdToken: fromEffect(async ({ input }): Promise<Record<string, unknown>> => {
        const provider = oauthProvider(rt, input.providerId);
        const response = Response.json({ token_type: "bearer", ...input.tokens });
        const server = await idTokenServer(provider, await serverOf(provider), response);
        const result = await oauth.processAuthorizationCodeResponse(server, clientOf(provider), response, {
          expectedNonce: input.nonce ?? oauth.expectNoNonce,
          requireIdToken: true,
        });
        return { ...oauth.getValidatedIdTokenClaims(result)! };
      }),

      verifyIdToken: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        await verifyIdTokenSignature(provider, await serverOf(provider), input.idToken);
      }),

      fetchUserinfoCustom: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        const custom = typeof provider.userinfo === "object" ? provider.userinfo?.request : undefined;
        if (!custom) throw new InvalidConfiguration(`${provider.id} has no userinfo request of its own.`);
        return custom({ provider, fetch: fetchOf(provider), tokens: input.tokens as TokenSet });
      }),
      fetchOidcUserinfo: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        const subject = input.subject === undefined ? {} : { subject: input.subject };
        return fetchOidcUserinfo(provider, await serverOf(provider), input.tokens as TokenSet, subject);
      }),
      fetchUserinfo: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        return fetchOAuthUserinfo(provider, await serverOf(provider), input.tokens as TokenSet);
      }),

      mapProfile: fromEffect(async ({ input }): Promise<User> => {
        const provider = oauthProvider(rt, input.providerId);
        let user: User;
        try {
          user = provider.profile ? await provider.profile(input.profile as never, input.tokens as TokenSet) : defaultProfile(input.profile);
        } catch (error) {
          throw new OAuthProfileParseError(`The profile() of ${provider.id} threw.`, { cause: error });
        }
        if (!user || typeof user !== "object" || user.id === undefined || user.id === null || String(user.id) === "") {
          throw new OAuthProfileParseError(`The profile of ${provider.id} has no id.`);
        }
        return { ...user, id: String(user.id) };
      }),
      pickAccountFields: fromEffect(async ({ input }) => {
        const provider = oauthProvider(rt, input.providerId);
        const tokens = input.tokens as TokenSet;
        const picked = provider.account ? provider.account(tokens) : defaultAccountFields(tokens);
        return { ...(picked ?? {}) };
      }),

      completeSignIn: bindSignInCompletion(rt),
    },
  });
}

export type BoundOAuth = ReturnType<typeof bindOAuth>;

function baseInput(rt: Runtime, ctx: RequestContext, provider: OAuthProviderConfig) {
  return {
    providerId: provider.id,
    providerType: provider.type,
    allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking ?? false,
    idTokenProfile: provider.type === "oidc" && provider.idToken !== false,
    customTokenRequest: typeof provider.token === "object" && typeof provider.token?.request === "function",
    customUserinfoRequest: typeof provider.userinfo === "object" && typeof provider.userinfo?.request === "function",
    dpop: dpopAlgorithmOf(provider) !== undefined,
    hasAdapter: rt.adapter !== undefined,
    updatesAccountTokens: rt.federation.storesTokens,
    request: requestFacts(ctx),
    ...twoFactorStep(rt, []),
  };
}

/** POST /signin/:provider: the redirect to the provider, with the flow's check cookies. */
export async function handleOAuthSignIn(
  rt: Runtime,
  machine: BoundOAuth,
  ctx: RequestContext,
  provider: OAuthProviderConfig,
): Promise<ResponsePlan | AuthError> {
  const authorizationParams: Record<string, string> = {};
  for (const [key, value] of ctx.query) if (key !== "callbackUrl") authorizationParams[key] = value;
  const result = await runMachine(
    rt,
    machine,
    {
      ...baseInput(rt, ctx, provider),
      callbackUrl: requestedCallbackUrl(ctx),
      authorizationParams,
    },
    { until: "awaitingCallback", request: ctx },
  );
  if (!result.done) {
    const context = result.context;
    return { redirect: context.authorizationUrl!, cookies: context.flowCookies };
  }
  const output = result.output;
  return output.outcome === "refused" ? refusalError(output.failure) : { redirect: ctx.origin };
}

/** GET|POST /callback/:provider: hands a proxied callback on, or resumes the flow where it rested. */
export async function handleOAuthCallback(
  rt: Runtime,
  machine: BoundOAuth,
  ctx: RequestContext,
  provider: OAuthProviderConfig,
): Promise<SignInAnswer> {
  const params = new URLSearchParams(ctx.query);
  if (ctx.method === "POST") {
    for (const [key, value] of Object.entries(ctx.body)) if (typeof value === "string") params.set(key, value);
  }
  // Behind a redirect proxy, the callback may belong to another deployment: hand it on.
  if (redirectProxyOf(rt, provider)) {
    const origin = await proxyStateOrigin(rt, params.get("state"));
    if (origin && origin !== ctx.baseUrl) {
      const target = new URL(`${origin}/callback/${encodeURIComponent(provider.id)}`);
      for (const [key, value] of params) target.searchParams.set(key, value);
      return { plan: { redirect: target.href } };
    }
  }
  const context: OAuthContext = {
    ...baseInput(rt, ctx, provider),
    callbackUrl: ctx.origin,
    authorizationParams: {},
    // Cleared even when restoring the checks fails (a missing or tampered cookie): every answer clears them.
    flowCookies: clearChecks(ctx),
    emailVerified: false,
    sessionCookies: [],
    events: [],
  };
  const event: OAuthCallbackEvent = { type: "callback.received", params: callbackParamsOf(params) };
  const result = await runMachine(rt, machine, undefined, { resume: { value: "awaitingCallback", context, event }, request: ctx });
  if (!result.done) throw new Error("The OAuth flow stopped before its end.");
  const output = result.output;
  // A signed-in browser forgets the callback URL it remembered for this sign-in.
  const signedIn = output.outcome === "signedIn" ? { ...output, cookies: [...output.cookies, forgetCallbackUrl(ctx)] } : output;
  return signInAnswer(ctx, signedIn, (failure) => {
    // A fault of the server's configuration (a plain-http issuer, no client secret) is not the callback's.
    const { error } = failure;
    return error instanceof InvalidEndpoints || error instanceof InvalidConfiguration ? error : refusalError(failure);
  });
}

function forgetCallbackUrl(ctx: RequestContext): SetCookie {
  return expireCookie(ctx.cookies.callbackUrl.name, ctx.cookies.callbackUrl.options);
}

/** The routes this flow serves: the sign-in that redirects to the provider, and the provider's callback. */
export const routes = { signIn: flowRoute(bindOAuth, handleOAuthSignIn), callback: flowRoute(bindOAuth, handleOAuthCallback) };
