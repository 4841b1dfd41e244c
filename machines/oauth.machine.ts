/**
 * OAuth 2 / OpenID Connect sign-in, from the redirect out to the callback back: one machine that
 * spans two requests. The first request counts against the client's request ceiling (rate limit),
 * then runs until `awaitingCallback`, where it waits for an
 * event and runs nothing: the only place it is persisted (its checks, small, encrypted, bound to
 * the provider, short-lived). The callback restores it there and sends `callback.received`; the
 * response is validated (state, iss, PKCE), the code exchanged, the ID token checked, the profile
 * mapped, and the shared sign-in completion issues the session.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, Profile, User } from "../src/types.js";
import type { RequestContext } from "../src/request-context.js";
import {
  effect,
  limiterStep,
  rateLimitedEvent,
  type FlowFailure,
  type LimitVerdict,
  type RateLimitedEvent,
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
} from "./signin-completion.machine.js";

export interface OAuthInput {
  providerId: string;
  /** The provider's opt-in to linking by email (see the sign-in completion's rules). */
  allowDangerousEmailAccountLinking: boolean;
  /** Where the person asked to go afterwards (untrusted until judged by the redirect callback). */
  callbackUrl: string;
  /** Extra authorization request parameters asked for by the application (never the protocol's own). */
  authorizationParams: Record<string, string>;
  req: RequestContext;
}

/** What the callback hands the machine: the provider's answer and the request it came with. */
export type OAuthCallbackEvent = { type: "callback.received"; params: URLSearchParams; req: RequestContext };

/** The checks the callback restored from the flow cookies, and where to go afterwards. */
export interface RestoredChecks {
  codeVerifier?: string;
  nonce?: string;
  state?: string;
  callbackUrl: string;
  /** The redirect_uri the authorization request used (it differs from ours behind a redirect proxy). */
  redirectUri: string;
}

export interface OAuthContext extends OAuthInput, CompletionResult {
  authorizationUrl?: string;
  /** Cookies to set or clear: the flow cookies on the way out, their removal on the way back. */
  flowCookies: SetCookie[];
  callbackParams?: URLSearchParams;
  checks?: RestoredChecks;
  tokens?: Record<string, unknown>;
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
  | { outcome: "diverted"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "refused"; failure: FlowFailure; cookies: SetCookie[] };

export type OAuthEmitted = CompletionEvent | RateLimitedEvent;

type Mapped = { user: User; account: Account; emailVerified: boolean };

export const oauthMachine = setup({
  types: {
    input: {} as OAuthInput & { hasAdapter: boolean; updatesAccountTokens?: boolean },
    context: {} as OAuthContext,
    events: {} as OAuthCallbackEvent,
    output: {} as OAuthOutput,
    emitted: {} as OAuthEmitted,
  },
  actors: {
    checkRequestLimit: effect<LimitVerdict, { providerId: string; req: RequestContext }>("checkRequestLimit"),
    discoverEndpoints: effect<void, { providerId: string }>("discoverEndpoints"),
    createAuthorizationRequest: effect<
      { url: string; cookies: SetCookie[] },
      { providerId: string; callbackUrl: string; authorizationParams: Record<string, string>; req: RequestContext }
    >("createAuthorizationRequest"),
    restoreChecks: effect<
      { checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string },
      { providerId: string; req: RequestContext }
    >("restoreChecks"),
    validateCallback: effect<
      URLSearchParams,
      { providerId: string; params: URLSearchParams; checks: RestoredChecks }
    >("validateCallback"),
    exchangeCode: effect<
      Record<string, unknown>,
      { providerId: string; callbackParams: URLSearchParams; checks: RestoredChecks }
    >("exchangeCode"),
    fetchProfile: effect<
      Profile,
      { providerId: string; tokens: Record<string, unknown>; callbackParams: URLSearchParams }
    >("fetchProfile"),
    mapProfile: effect<Mapped, { providerId: string; profile: Profile; tokens: Record<string, unknown> }>("mapProfile"),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    rememberAuthorizationRequest: assign((_, made: { url: string; cookies: SetCookie[] }) => ({
      authorizationUrl: made.url,
      flowCookies: made.cookies,
    })),
    takeCallback: assign((_, event: OAuthCallbackEvent) => ({ callbackParams: event.params, req: event.req })),
    rememberChecks: assign(
      (_, restored: { checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string }) => ({
        checks: restored.checks,
        callbackUrl: restored.checks.callbackUrl,
        // The flow cookies are single use: every answer to the callback clears them.
        flowCookies: restored.clearCookies,
        ...(restored.currentUserId ? { currentUserId: restored.currentUserId } : {}),
      }),
    ),
    rememberValidatedParams: assign((_, callbackParams: URLSearchParams) => ({ callbackParams })),
    rememberTokens: assign((_, tokens: Record<string, unknown>) => ({ tokens })),
    rememberProfile: assign((_, profile: Profile) => ({ profile })),
    rememberUser: assign((_, mapped: Mapped) => mapped),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
  },
  guards: {
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
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
      ({ context }: { context: OAuthContext }) => ({ providerId: context.providerId, req: context.req }),
      "discovering",
      "failed",
    ),
    discovering: {
      invoke: {
        src: "discoverEndpoints",
        input: ({ context }) => ({ providerId: context.providerId }),
        onDone: { target: "preparingAuthorization" },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    preparingAuthorization: {
      invoke: {
        src: "createAuthorizationRequest",
        input: ({ context }) => ({
          providerId: context.providerId,
          callbackUrl: context.callbackUrl,
          authorizationParams: context.authorizationParams,
          req: context.req,
        }),
        onDone: {
          target: "awaitingCallback",
          actions: { type: "rememberAuthorizationRequest", params: ({ event }) => event.output },
        },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
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
        input: ({ context }) => ({ providerId: context.providerId, req: context.req }),
        onDone: { target: "validatingCallback", actions: { type: "rememberChecks", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "OAuthCallbackError" as const }) },
        },
      },
    },
    validatingCallback: {
      invoke: {
        src: "validateCallback",
        input: ({ context }) => ({ providerId: context.providerId, params: context.callbackParams!, checks: context.checks! }),
        onDone: { target: "exchangingCode", actions: { type: "rememberValidatedParams", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "OAuthCallbackError" as const }) },
        },
      },
    },
    exchangingCode: {
      invoke: {
        src: "exchangeCode",
        input: ({ context }) => ({ providerId: context.providerId, callbackParams: context.callbackParams!, checks: context.checks! }),
        onDone: { target: "fetchingProfile", actions: { type: "rememberTokens", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "OAuthCallbackError" as const }) },
        },
      },
    },
    fetchingProfile: {
      invoke: {
        src: "fetchProfile",
        input: ({ context }) => ({ providerId: context.providerId, tokens: context.tokens!, callbackParams: context.callbackParams! }),
        onDone: { target: "mappingProfile", actions: { type: "rememberProfile", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "OAuthCallbackError" as const }) },
        },
      },
    },
    mappingProfile: {
      invoke: {
        src: "mapProfile",
        input: ({ context }) => ({ providerId: context.providerId, profile: context.profile!, tokens: context.tokens! }),
        onDone: { target: "completing", actions: { type: "rememberUser", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
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
        req: context.req,
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
