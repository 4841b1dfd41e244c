/**
 * OAuth 2 / OpenID Connect sign-in, from the redirect out to the callback back: one machine that
 * spans two requests. The first request counts against the client's request ceiling (rate limit),
 * makes the authorization request (pushed to the provider first, with PAR), then runs until
 * `awaitingCallback`, where it waits for an
 * event and runs nothing: the only place it is persisted (its checks, small, encrypted, bound to
 * the provider, short-lived). The callback restores it there and sends `callback.received`; the
 * response is validated (state, iss, PKCE), the code exchanged (by the standard grant or the
 * provider's own request), the ID token checked, the profile read (from the ID token's claims or a
 * userinfo request) and mapped, and the shared sign-in completion issues the session. What passes
 * between the steps (tokens, claims, the raw profile) is data in the context.
 *
 * A provider with DPoP (RFC 9449) gets a key pair made just before the code exchange (its first
 * use), kept sealed in the context and stored with the account; when the token endpoint asks for a
 * nonce (`use_dpop_nonce`), the exchange is made once more with it, as a state of its own.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, Profile, User } from "../src/types.js";
import {
  effect,
  limiterStep,
  rateLimitedEvent,
  type FlowFailure,
  type LimitVerdict,
  type RateLimitedEvent,
  type RequestFacts,
  type SetCookie,
} from "./shared.js";
import {
  completionEnds,
  completionResult,
  completionStep,
  endedAs,
  signInCompletionMachine,
  type CompletionEvent,
  type CompletionResult,
  type SignInCompletionOutput,
  type TwoFactorStep,
} from "./signin-completion.machine.js";

/**
 * The provider's answer on the callback (its query, and a form_post's fields), as data: each
 * parameter with every value it came with, so a repeated one is still refused by validation.
 */
export type CallbackParams = Record<string, string[]>;

export interface OAuthInput {
  providerId: string;
  providerType: "oauth" | "oidc";
  /** The provider's opt-in to linking by email (see the sign-in completion's rules). */
  allowDangerousEmailAccountLinking: boolean;
  /** OIDC: the profile is the ID token's claims, unless the provider says `idToken: false` (then userinfo). */
  idTokenProfile: boolean;
  /** The provider exchanges the code with a request of its own (`token.request`), not the standard grant. */
  customTokenRequest: boolean;
  /** The provider reads the profile with a request of its own (`userinfo.request`). */
  customUserinfoRequest: boolean;
  /** The provider binds its tokens to a key pair of this sign-in (DPoP, RFC 9449). */
  dpop?: boolean;
  /** Where the person asked to go afterwards (untrusted until judged by the redirect callback). */
  callbackUrl: string;
  /** Extra authorization request parameters asked for by the application (never the protocol's own). */
  authorizationParams: Record<string, string>;
  /** The request the flow answers (the first one, then the callback). */
  request: RequestFacts;
  /** The second-factor step, handed to the completion (absent: no `twoFactor` configuration). */
  twoFactor?: TwoFactorStep;
}

/** What the callback hands the machine: the provider's answer. */
export type OAuthCallbackEvent = { type: "callback.received"; params: CallbackParams };

/** The checks the callback restored from the flow cookies, and where to go afterwards. */
export interface RestoredChecks {
  codeVerifier?: string;
  nonce?: string;
  state?: string;
  callbackUrl: string;
  /** The redirect_uri the authorization request used (it differs from ours behind a redirect proxy). */
  redirectUri: string;
}

/** The token endpoint refused the DPoP proof for want of a nonce it now names: the exchange is made again with it. */
export interface DPoPNonceAsked {
  dpopNonce: string;
}

/** The DPoP part of a token request: the sealed key pair of this sign-in, and the nonce asked for. */
export interface DPoPProof {
  key: string;
  nonce?: string;
}

/** What the standard code exchange returns, its answer checked by oauth4webapi. */
export interface ExchangedTokens {
  /** The token set, normalised (`token_type` lowercased, `expires_at`). */
  tokens: Record<string, unknown>;
  /** The ID token's claims, once checked (issuer, audience, expiry, nonce), when one came. */
  idTokenClaims?: Record<string, unknown>;
  /** Whether the provider publishes signing keys (`jwks_uri`): a plain OAuth 2 ID token is then verified too. */
  keysPublished: boolean;
}

/** The authorization request made on the first request; `push`: it goes to the provider's PAR endpoint first (RFC 9126). */
export interface AuthorizationRequest {
  url: string;
  cookies: SetCookie[];
  push?: boolean;
}

export interface OAuthContext extends OAuthInput, CompletionResult {
  /** Where the browser is sent: the authorization request, or (pushed) only its `client_id` and `request_uri`. */
  authorizationUrl?: string;
  /** Cookies to set or clear: the flow cookies on the way out, their removal on the way back. */
  flowCookies: SetCookie[];
  /** The provider's answer: as it came, then as validation passed it on. */
  callbackParams?: CallbackParams;
  checks?: RestoredChecks;
  tokens?: Record<string, unknown>;
  /** DPoP: this sign-in's key pair, sealed with the secret (stored with the account as `dpop_jwk`). */
  dpopKey?: string;
  /** DPoP: the nonce the token endpoint asked for. */
  dpopNonce?: string;
  /** The ID token's checked claims: an OIDC profile, and the `sub` a userinfo answer must match. */
  idTokenClaims?: Record<string, unknown>;
  /** The profile as the provider gave it, before `profile()` maps it. */
  profile?: Profile;
  user?: User;
  account?: Account;
  emailVerified: boolean;
  currentUserId?: string;
  hasAdapter: boolean;
  /** Whether the adapter can update a linked account with a returning person's new tokens. */
  updatesAccountTokens?: boolean;
  /** What the rate limiter counted for this request (the client's request ceiling). */
  limit?: LimitVerdict;
  events: CompletionEvent[];
}

export type OAuthOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "challenged"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "refused"; failure: FlowFailure; cookies: SetCookie[] };

export type OAuthEmitted = CompletionEvent | RateLimitedEvent;

type Tokens = Record<string, unknown>;

/**
 * Apple posts the person's name, on the first sign-in only, as a JSON `user` field next to the
 * code. It is not signed, so it is offered to `profile()` as `user` and never overrides a claim.
 */
function formPostUser(params: CallbackParams): { user?: unknown } {
  const raw = params.user?.[0];
  if (!raw || raw.length > 4096) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? { user: parsed } : {};
  } catch {
    return {};
  }
}

/** The account stored for this sign-in: the picked token fields, named for the provider and the person. */
function accountOf(context: OAuthContext, fields: Record<string, unknown>): Account {
  const shaped = { ...fields };
  // token_type is case-insensitive (RFC 6749 §5.1): stored lowercased, whatever account() picked.
  if (typeof shaped.token_type === "string") shaped.token_type = shaped.token_type.toLowerCase();
  // DPoP: the key the tokens are bound to goes with them, whatever account() picked.
  if (context.dpopKey) shaped.dpop_jwk = context.dpopKey;
  return { ...shaped, provider: context.providerId, type: context.providerType, providerAccountId: String(context.user!.id) } as Account;
}

/** The code exchange's input: the validated answer and checks, and with DPoP the key and any nonce asked for. */
function exchangeInput(context: OAuthContext) {
  const dpop = context.dpopKey ? { dpop: { key: context.dpopKey, ...(context.dpopNonce ? { nonce: context.dpopNonce } : {}) } } : {};
  return { providerId: context.providerId, callbackParams: context.callbackParams!, checks: context.checks!, ...dpop };
}

const asCallbackError = ({ event }: { event: { error: unknown } }) => ({ error: event.error, as: "OAuthCallbackError" as const });
const asItIs = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** Where an exchange that returned tokens goes: the ID token's signature, or straight to the profile. */
const exchanged = [
  {
    guard: { type: "idTokenToVerify", params: ({ event }: { event: { output: unknown } }) => event.output as ExchangedTokens },
    target: "verifyingIdToken",
    actions: { type: "rememberExchange", params: ({ event }: { event: { output: unknown } }) => event.output as ExchangedTokens },
  },
  {
    target: "choosingProfileSource",
    actions: { type: "rememberExchange", params: ({ event }: { event: { output: unknown } }) => event.output as ExchangedTokens },
  },
] as const;

export const oauthMachine = setup({
  types: {
    input: {} as OAuthInput & { hasAdapter: boolean; updatesAccountTokens?: boolean },
    context: {} as OAuthContext,
    events: {} as OAuthCallbackEvent,
    output: {} as OAuthOutput,
    emitted: {} as OAuthEmitted,
  },
  actors: {
    checkRequestLimit: effect<LimitVerdict, { providerId: string }>("checkRequestLimit"),
    discoverEndpoints: effect<void, { providerId: string }>("discoverEndpoints"),
    createAuthorizationRequest: effect<
      AuthorizationRequest,
      { providerId: string; callbackUrl: string; authorizationParams: Record<string, string> }
    >("createAuthorizationRequest"),
    pushAuthorizationRequest: effect<{ url: string }, { providerId: string; authorizationUrl: string }>("pushAuthorizationRequest"),
    restoreChecks: effect<
      { checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string },
      { providerId: string }
    >("restoreChecks"),
    validateCallback: effect<CallbackParams, { providerId: string; params: CallbackParams; checks: RestoredChecks }>(
      "validateCallback",
    ),
    createDPoPKey: effect<string, { providerId: string }>("createDPoPKey"),
    exchangeCode: effect<
      ExchangedTokens | DPoPNonceAsked,
      { providerId: string; callbackParams: CallbackParams; checks: RestoredChecks; dpop?: DPoPProof }
    >("exchangeCode"),
    exchangeCodeCustom: effect<Tokens, { providerId: string; callbackParams: CallbackParams; checks: RestoredChecks }>(
      "exchangeCodeCustom",
    ),
    checkIdToken: effect<Record<string, unknown>, { providerId: string; tokens: Tokens; nonce?: string }>("checkIdToken"),
    verifyIdToken: effect<void, { providerId: string; idToken: string }>("verifyIdToken"),
    fetchUserinfoCustom: effect<Profile, { providerId: string; tokens: Tokens }>("fetchUserinfoCustom"),
    fetchOidcUserinfo: effect<Profile, { providerId: string; tokens: Tokens; subject?: string }>("fetchOidcUserinfo"),
    fetchUserinfo: effect<Profile, { providerId: string; tokens: Tokens }>("fetchUserinfo"),
    mapProfile: effect<User, { providerId: string; profile: Profile; tokens: Tokens }>("mapProfile"),
    pickAccountFields: effect<Record<string, unknown>, { providerId: string; tokens: Tokens }>("pickAccountFields"),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    rememberAuthorizationRequest: assign((_, made: AuthorizationRequest) => ({
      authorizationUrl: made.url,
      flowCookies: made.cookies,
    })),
    // The pushed request's front-channel URL replaces the full one: the browser carries only the request_uri.
    rememberPushedRequest: assign((_, pushed: { url: string }) => ({ authorizationUrl: pushed.url })),
    // A request the provider refused sends nobody anywhere: no redirect, and none of its cookies set.
    dropAuthorizationRequest: assign(() => ({ authorizationUrl: undefined, flowCookies: [] })),
    takeCallback: assign((_, event: OAuthCallbackEvent) => ({ callbackParams: event.params })),
    rememberChecks: assign(
      (_, restored: { checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string }) => ({
        checks: restored.checks,
        callbackUrl: restored.checks.callbackUrl,
        // The flow cookies are single use: every answer to the callback clears them.
        flowCookies: restored.clearCookies,
        ...(restored.currentUserId ? { currentUserId: restored.currentUserId } : {}),
      }),
    ),
    rememberValidatedParams: assign((_, callbackParams: CallbackParams) => ({ callbackParams })),
    rememberExchange: assign((_, exchanged: ExchangedTokens) => ({
      tokens: exchanged.tokens,
      ...(exchanged.idTokenClaims ? { idTokenClaims: exchanged.idTokenClaims } : {}),
    })),
    rememberTokens: assign((_, tokens: Tokens) => ({ tokens })),
    rememberDPoPKey: assign((_, dpopKey: string) => ({ dpopKey })),
    rememberDPoPNonce: assign((_, asked: DPoPNonceAsked) => ({ dpopNonce: asked.dpopNonce })),
    rememberIdTokenClaims: assign((_, idTokenClaims: Record<string, unknown>) => ({ idTokenClaims })),
    readIdTokenProfile: assign(({ context }) => ({
      profile: { ...context.idTokenClaims, ...formPostUser(context.callbackParams ?? {}) } as Profile,
    })),
    rememberProfile: assign((_, profile: Profile) => ({ profile })),
    rememberUser: assign(({ context }, user: User) => {
      // Some providers (Apple) send the flag as a string.
      const verified: unknown = context.profile!.email_verified;
      return { user, emailVerified: verified === true || verified === "true" };
    }),
    rememberAccount: assign(({ context }, fields: Record<string, unknown>) => ({ account: accountOf(context, fields) })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
  },
  guards: {
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
    completionChallenged: (_, done: SignInCompletionOutput) => endedAs(done, "challenge"),
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
    // PAR (RFC 9126): configured, or required by the provider's metadata.
    requestToPush: (_, made: AuthorizationRequest) => made.push === true,
    customTokenRequest: ({ context }) => context.customTokenRequest,
    dpop: ({ context }) => context.dpop === true,
    // RFC 9449 §8: the server names the nonce to put in the proof; the exchange is retried once with it.
    dpopNonceAsked: (_, exchanged: ExchangedTokens | DPoPNonceAsked) => "dpopNonce" in exchanged,
    // OIDC: the ID token's signature is always checked. A plain OAuth 2 provider's ID token is not
    // used for the profile; it is checked when the provider publishes its keys.
    idTokenToVerify: ({ context }, exchanged: ExchangedTokens) =>
      typeof exchanged.tokens.id_token === "string" && (context.providerType === "oidc" || exchanged.keysPublished),
    // A custom exchange must not skip the ID token's checks: they run on what it returned.
    oidcIdTokenReturned: ({ context }, tokens: Tokens) => context.providerType === "oidc" && typeof tokens.id_token === "string",
    idTokenHasProfile: ({ context }) =>
      context.providerType === "oidc" && context.idTokenProfile && context.idTokenClaims !== undefined,
    customUserinfoRequest: ({ context }) => context.customUserinfoRequest,
    oidc: ({ context }) => context.providerType === "oidc",
  },
}).createMachine({
  id: "oauth",
  context: ({ input }) => ({
    ...input,
    flowCookies: [],
    emailVerified: false,
    sessionCookies: [],
    events: [],
  }),
  initial: "checkingRequestLimit",
  states: {
    // The client's request ceiling, before any discovery or authorization request.
    checkingRequestLimit: limiterStep(
      "checkRequestLimit",
      ({ context }: { context: OAuthContext }) => ({ providerId: context.providerId }),
      "discovering",
      "failed",
    ),
    discovering: {
      invoke: {
        src: "discoverEndpoints",
        input: ({ context }) => ({ providerId: context.providerId }),
        onDone: { target: "preparingAuthorization" },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    preparingAuthorization: {
      invoke: {
        src: "createAuthorizationRequest",
        input: ({ context }) => ({
          providerId: context.providerId,
          callbackUrl: context.callbackUrl,
          authorizationParams: context.authorizationParams,
        }),
        onDone: [
          {
            guard: { type: "requestToPush", params: ({ event }) => event.output },
            target: "pushingAuthorizationRequest",
            actions: { type: "rememberAuthorizationRequest", params: ({ event }) => event.output },
          },
          { target: "awaitingCallback", actions: { type: "rememberAuthorizationRequest", params: ({ event }) => event.output } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    // The request goes to the provider from the server (with client authentication); a refusal ends the flow here.
    pushingAuthorizationRequest: {
      invoke: {
        src: "pushAuthorizationRequest",
        input: ({ context }) => ({ providerId: context.providerId, authorizationUrl: context.authorizationUrl! }),
        onDone: { target: "awaitingCallback", actions: { type: "rememberPushedRequest", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: ["dropAuthorizationRequest", { type: "recordFailure", params: asItIs }] },
      },
    },
    // The flow rests here between the two requests: no invoke, no timer.
    awaitingCallback: {
      on: {
        "callback.received": {
          target: "restoringChecks",
          actions: { type: "takeCallback", params: ({ event }) => event },
        },
      },
    },
    restoringChecks: {
      invoke: {
        src: "restoreChecks",
        input: ({ context }) => ({ providerId: context.providerId }),
        onDone: { target: "validatingCallback", actions: { type: "rememberChecks", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    validatingCallback: {
      invoke: {
        src: "validateCallback",
        input: ({ context }) => ({ providerId: context.providerId, params: context.callbackParams!, checks: context.checks! }),
        onDone: [
          {
            guard: "customTokenRequest",
            target: "exchangingCodeCustom",
            actions: { type: "rememberValidatedParams", params: ({ event }) => event.output },
          },
          { guard: "dpop", target: "creatingDPoPKey", actions: { type: "rememberValidatedParams", params: ({ event }) => event.output } },
          { target: "exchangingCode", actions: { type: "rememberValidatedParams", params: ({ event }) => event.output } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // DPoP: this sign-in's key pair, made at its first use (the code exchange) and sealed.
    creatingDPoPKey: {
      invoke: {
        src: "createDPoPKey",
        input: ({ context }) => ({ providerId: context.providerId }),
        onDone: { target: "exchangingCode", actions: { type: "rememberDPoPKey", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // The standard grant; oauth4webapi checks the answer, and an ID token's claims and nonce in it.
    exchangingCode: {
      invoke: {
        src: "exchangeCode",
        input: ({ context }) => exchangeInput(context),
        onDone: [
          {
            guard: { type: "dpopNonceAsked", params: ({ event }) => event.output },
            target: "retryingWithDPoPNonce",
            actions: { type: "rememberDPoPNonce", params: ({ event }) => event.output as DPoPNonceAsked },
          },
          ...exchanged,
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // The same exchange, once more, with the nonce the token endpoint named; asked again, it is refused.
    retryingWithDPoPNonce: {
      invoke: {
        src: "exchangeCode",
        input: ({ context }) => exchangeInput(context),
        onDone: [
          {
            guard: { type: "dpopNonceAsked", params: ({ event }) => event.output },
            target: "failed",
            actions: { type: "recordFailure", params: ({ event }) => ({ error: event.output, as: "OAuthCallbackError" as const }) },
          },
          ...exchanged,
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // The provider's own token request (`token.request`), for providers that do not follow RFC 6749.
    exchangingCodeCustom: {
      invoke: {
        src: "exchangeCodeCustom",
        input: ({ context }) => ({ providerId: context.providerId, callbackParams: context.callbackParams!, checks: context.checks! }),
        onDone: [
          {
            guard: { type: "oidcIdTokenReturned", params: ({ event }) => event.output },
            target: "checkingIdToken",
            actions: { type: "rememberTokens", params: ({ event }) => event.output },
          },
          { target: "choosingProfileSource", actions: { type: "rememberTokens", params: ({ event }) => event.output } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    checkingIdToken: {
      invoke: {
        src: "checkIdToken",
        input: ({ context }) => ({
          providerId: context.providerId,
          tokens: context.tokens!,
          ...(context.checks!.nonce ? { nonce: context.checks!.nonce } : {}),
        }),
        onDone: { target: "verifyingIdToken", actions: { type: "rememberIdTokenClaims", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    verifyingIdToken: {
      invoke: {
        src: "verifyIdToken",
        input: ({ context }) => ({ providerId: context.providerId, idToken: context.tokens!.id_token as string }),
        onDone: { target: "choosingProfileSource" },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // Where the profile comes from: the ID token's claims, or a userinfo request (the provider's own,
    // OIDC's with its subject held to the ID token's, or a plain OAuth 2 one).
    choosingProfileSource: {
      always: [
        { guard: "idTokenHasProfile", target: "readingIdToken" },
        { guard: "customUserinfoRequest", target: "fetchingUserinfoCustom" },
        { guard: "oidc", target: "fetchingOidcUserinfo" },
        { target: "fetchingUserinfo" },
      ],
    },
    readingIdToken: {
      entry: "readIdTokenProfile",
      always: { target: "mappingProfile" },
    },
    fetchingUserinfoCustom: {
      invoke: {
        src: "fetchUserinfoCustom",
        input: ({ context }) => ({ providerId: context.providerId, tokens: context.tokens! }),
        onDone: { target: "mappingProfile", actions: { type: "rememberProfile", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    fetchingOidcUserinfo: {
      invoke: {
        src: "fetchOidcUserinfo",
        input: ({ context }) => {
          const subject = context.idTokenClaims?.sub;
          return { providerId: context.providerId, tokens: context.tokens!, ...(typeof subject === "string" ? { subject } : {}) };
        },
        onDone: { target: "mappingProfile", actions: { type: "rememberProfile", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    fetchingUserinfo: {
      invoke: {
        src: "fetchUserinfo",
        input: ({ context }) => ({ providerId: context.providerId, tokens: context.tokens! }),
        onDone: { target: "mappingProfile", actions: { type: "rememberProfile", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asCallbackError } },
      },
    },
    // The application's profile() (or the default): a profile it cannot map keeps its own error.
    mappingProfile: {
      invoke: {
        src: "mapProfile",
        input: ({ context }) => ({ providerId: context.providerId, profile: context.profile!, tokens: context.tokens! }),
        onDone: { target: "pickingAccountFields", actions: { type: "rememberUser", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    // The application's account() (or the default subset): what is stored of the token set.
    pickingAccountFields: {
      invoke: {
        src: "pickAccountFields",
        input: ({ context }) => ({ providerId: context.providerId, tokens: context.tokens! }),
        onDone: { target: "completing", actions: { type: "rememberAccount", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    completing: completionStep(
      ({ context }: { context: OAuthContext }) => ({
        provider: {
          id: context.providerId,
          type: context.account!.type,
          allowDangerousEmailAccountLinking: context.allowDangerousEmailAccountLinking,
        },
        user: context.user!,
        account: context.account!,
        profile: context.profile!,
        emailVerified: context.emailVerified,
        ...(context.currentUserId ? { currentUserId: context.currentUserId } : {}),
        hasAdapter: context.hasAdapter,
        ...(context.updatesAccountTokens ? { updatesAccountTokens: true } : {}),
        callbackUrl: context.callbackUrl,
        request: context.request,
        ...(context.twoFactor ? { twoFactor: context.twoFactor } : {}),
      }),
      "failed",
    ),
    ...completionEnds<OAuthContext>((context) => context.flowCookies),
    limited: {
      type: "final",
      entry: "announceLimit",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.flowCookies }),
    },
    failed: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.flowCookies }),
    },
  },
  output: ({ event }) => event.output as OAuthOutput,
});
