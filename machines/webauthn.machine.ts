/**
 * Passkeys (WebAuthn): options → browser ceremony → verification, over two requests.
 * GET /webauthn-options counts against the client's request ceiling (rate limit), normalises the email it was given (as strictly as an email sign-in does),
 * decides between registering and authenticating, refuses a signed-out registration for an address
 * that is already someone's (before any challenge exists), generates the options and rests in
 * `awaitingCredential`; the challenge is carried in an encrypted, provider-bound,
 * short-lived cookie and recorded in the store so it works once. POST /callback resumes here with
 * the browser's credential: the challenge is consumed, the response verified (origin, RP ID,
 * challenge, signature, user verification, counter), and the shared sign-in completion issues the session.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, AdapterUser, User } from "../src/types.js";
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

export type WebAuthnAction = "register" | "authenticate";

export interface WebAuthnInput {
  providerId: string;
  /** The action the page asked for, if any; else it is decided from the session and the email. */
  requestedAction?: WebAuthnAction;
  /** The email the page sent, as sent: it is normalised and checked before anything else. */
  email?: string;
  req: RequestContext;
}

/** The browser's answer to the ceremony, posted to the callback. */
export type WebAuthnCredentialEvent = {
  type: "credential.received";
  action: string;
  response: unknown;
  /** Where to go afterwards (untrusted until judged by the redirect callback). */
  callbackUrl: string;
  req: RequestContext;
};

/** What a verified ceremony says about who is signing in. */
export interface VerifiedCredential {
  user: User;
  account: Account;
  /** Authentication only: the stored user the authenticator belongs to. */
  storedUser?: AdapterUser;
}

export interface WebAuthnContext extends WebAuthnInput, CompletionResult {
  action?: WebAuthnAction;
  options?: unknown;
  challengeCookies: SetCookie[];
  response?: unknown;
  postedAction?: string;
  callbackUrl?: string;
  challenge?: { value: string; action: WebAuthnAction; email?: string; userId?: string };
  verified?: VerifiedCredential;
  /** What the rate limiter counted for this request (the client's request ceiling). */
  limit?: LimitVerdict;
  currentUserId?: string;
  /** Whether a stored user has the email (looked up only when nobody is signed in). */
  emailTaken?: boolean;
}

export type WebAuthnOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "refused"; failure: FlowFailure; cookies: SetCookie[] };

export type WebAuthnEmitted = CompletionEvent | RateLimitedEvent;

type Decided = { action: WebAuthnAction; currentUserId?: string; emailTaken?: boolean };
type Restored = { challenge: NonNullable<WebAuthnContext["challenge"]>; clearCookies: SetCookie[]; currentUserId?: string };

export const webauthnMachine = setup({
  types: {
    input: {} as WebAuthnInput,
    context: {} as WebAuthnContext,
    events: {} as WebAuthnCredentialEvent,
    output: {} as WebAuthnOutput,
    emitted: {} as WebAuthnEmitted,
  },
  actors: {
    checkRequestLimit: effect<LimitVerdict, { providerId: string; req: RequestContext }>("checkRequestLimit"),
    normalizeEmail: effect<string, { email: string }>("normalizeEmail"),
    decideAction: effect<Decided, { providerId: string; requestedAction?: WebAuthnAction; email?: string; req: RequestContext }>(
      "decideAction",
    ),
    generateOptions: effect<
      { options: unknown; cookies: SetCookie[] },
      { providerId: string; action: WebAuthnAction; email?: string; currentUserId?: string; req: RequestContext }
    >("generateOptions"),
    consumeChallenge: effect<Restored, { providerId: string; req: RequestContext }>("consumeChallenge"),
    verifyAuthentication: effect<
      VerifiedCredential,
      { providerId: string; response: unknown; challenge: string; req: RequestContext }
    >("verifyAuthentication"),
    verifyRegistration: effect<
      VerifiedCredential,
      { providerId: string; response: unknown; challenge: string; email?: string; userId?: string; req: RequestContext }
    >("verifyRegistration"),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    rememberEmail: assign((_, email: string) => ({ email })),
    rememberDecision: assign((_, decided: Decided) => ({
      action: decided.action,
      ...(decided.currentUserId ? { currentUserId: decided.currentUserId } : {}),
      ...(decided.emailTaken ? { emailTaken: true } : {}),
    })),
    rememberOptions: assign((_, made: { options: unknown; cookies: SetCookie[] }) => ({
      options: made.options,
      challengeCookies: made.cookies,
    })),
    takeCredential: assign((_, event: WebAuthnCredentialEvent) => ({
      response: event.response,
      postedAction: event.action,
      callbackUrl: event.callbackUrl,
      req: event.req,
    })),
    rememberChallenge: assign((_, restored: Restored) => ({
      challenge: restored.challenge,
      // The challenge cookie is single use: every answer to the callback clears it.
      challengeCookies: restored.clearCookies,
      ...(restored.currentUserId ? { currentUserId: restored.currentUserId } : {}),
    })),
    rememberVerified: assign((_, verified: VerifiedCredential) => ({ verified })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
  },
  guards: {
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
    namesEmail: ({ context }) => context.email !== undefined,
    // Signed out, a passkey registered under an address someone already has would either fail at the
    // end (AccountNotLinked) or, worse, wait on the account for its owner: refused before a challenge
    // is minted. Signed in, the new passkey joins the signed-in user whatever address the page sent.
    registersTakenAddress: ({ context }) =>
      context.action === "register" && context.currentUserId === undefined && context.emailTaken === true,
    // The posted action must be the one the challenge was minted for.
    registering: ({ context }) => context.challenge?.action === "register" && context.postedAction === "register",
    authenticating: ({ context }) => context.challenge?.action === "authenticate" && context.postedAction === "authenticate",
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
  },
}).createMachine({
  id: "webauthn",
  context: ({ input }) => ({ ...input, challengeCookies: [], sessionCookies: [], events: [] }),
  initial: "checkingRequestLimit",
  states: {
    // The client's request ceiling, before anything is looked up or a challenge minted.
    checkingRequestLimit: limiterStep(
      "checkRequestLimit",
      ({ context }: { context: WebAuthnContext }) => ({ providerId: context.providerId, req: context.req }),
      "checkingEmail",
      "failed",
    ),
    checkingEmail: {
      always: [{ guard: "namesEmail", target: "normalizingEmail" }, { target: "decidingAction" }],
    },
    normalizingEmail: {
      invoke: {
        src: "normalizeEmail",
        input: ({ context }) => ({ email: context.email! }),
        onDone: { target: "decidingAction", actions: { type: "rememberEmail", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "EmailSignInError" as const }) },
        },
      },
    },
    decidingAction: {
      invoke: {
        src: "decideAction",
        input: ({ context }) => ({
          providerId: context.providerId,
          ...(context.requestedAction ? { requestedAction: context.requestedAction } : {}),
          ...(context.email ? { email: context.email } : {}),
          req: context.req,
        }),
        onDone: { target: "checkingRegistration", actions: { type: "rememberDecision", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingRegistration: {
      always: [
        {
          guard: "registersTakenAddress",
          target: "failed",
          actions: { type: "recordFailure", params: { error: undefined, as: "OAuthAccountNotLinked" as const } },
        },
        { target: "generatingOptions" },
      ],
    },
    generatingOptions: {
      invoke: {
        src: "generateOptions",
        input: ({ context }) => ({
          providerId: context.providerId,
          action: context.action!,
          ...(context.email ? { email: context.email } : {}),
          ...(context.currentUserId ? { currentUserId: context.currentUserId } : {}),
          req: context.req,
        }),
        onDone: { target: "awaitingCredential", actions: { type: "rememberOptions", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // The ceremony runs in the browser: the flow rests here, its challenge in a cookie and the store.
    awaitingCredential: {
      on: {
        "credential.received": { target: "consumingChallenge", actions: { type: "takeCredential", params: ({ event }) => event } },
      },
    },
    consumingChallenge: {
      invoke: {
        src: "consumeChallenge",
        input: ({ context }) => ({ providerId: context.providerId, req: context.req }),
        onDone: { target: "choosingCeremony", actions: { type: "rememberChallenge", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "WebAuthnVerificationError" as const }) } },
      },
    },
    choosingCeremony: {
      always: [
        { guard: "authenticating", target: "verifyingAuthentication" },
        { guard: "registering", target: "verifyingRegistration" },
        { target: "failed", actions: { type: "recordFailure", params: { error: undefined, as: "WebAuthnVerificationError" as const } } },
      ],
    },
    verifyingAuthentication: {
      invoke: {
        src: "verifyAuthentication",
        input: ({ context }) => ({
          providerId: context.providerId,
          response: context.response,
          challenge: context.challenge!.value,
          req: context.req,
        }),
        onDone: { target: "completing", actions: { type: "rememberVerified", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "WebAuthnVerificationError" as const }) } },
      },
    },
    verifyingRegistration: {
      invoke: {
        src: "verifyRegistration",
        input: ({ context }) => ({
          providerId: context.providerId,
          response: context.response,
          challenge: context.challenge!.value,
          ...(context.challenge!.email ? { email: context.challenge!.email } : {}),
          ...(context.challenge!.userId ? { userId: context.challenge!.userId } : {}),
          req: context.req,
        }),
        onDone: { target: "completing", actions: { type: "rememberVerified", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "WebAuthnVerificationError" as const }) } },
      },
    },
    completing: completionStep(
      ({ context }: { context: WebAuthnContext }) => ({
        provider: { id: context.providerId, type: "webauthn" as const, allowDangerousEmailAccountLinking: false },
        user: context.verified!.user,
        account: context.verified!.account,
        emailVerified: false,
        ...(context.currentUserId ? { currentUserId: context.currentUserId } : {}),
        hasAdapter: true,
        callbackUrl: context.callbackUrl ?? context.req.origin,
        req: context.req,
      }),
      "failed",
    ),
    ...completionEnds<WebAuthnContext>((context) => context.challengeCookies),
    limited: {
      type: "final",
      entry: "announceLimit",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.challengeCookies }),
    },
    failed: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.challengeCookies }),
    },
  },
  output: ({ event }) => event.output as WebAuthnOutput,
});
