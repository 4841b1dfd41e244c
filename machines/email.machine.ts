/**
 * Email magic-link sign-in: request a link, send it, follow it. The first request normalises and
 * validates the address, asks the rate limiter (past the mails allowed to this address or from this
 * client, nothing is sent), asks the `signIn` callback (`email.verificationRequest: true`), stores a
 * keyed hash of a random token and mails the link; if the mail cannot be sent the token is withdrawn,
 * so nothing is left half-way. The flow then rests in `awaitingLink` (its state lives in the
 * store, not in a cookie). Following the link consumes the token — once, and only together with
 * its address — and the shared sign-in completion issues the session.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, User } from "../src/types.js";
import {
  effect,
  limiterStep,
  rateLimitedEvent,
  type FlowFailure,
  type LimitVerdict,
  type RateLimitedEvent,
  type SetCookie,
  type RequestFacts,
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

export interface EmailInput {
  providerId: string;
  /** The address as typed; untrusted until normalised and validated. */
  email: string;
  /** Where the person asked to go afterwards (untrusted until judged by the redirect callback). */
  callbackUrl: string;
  /** The request the flow runs for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
  /** The second-factor step, handed to the completion (absent: no `twoFactor` configuration). */
  twoFactor?: TwoFactorStep;
}

/** The link was followed: its token and address, and the request that carried them. */
export type EmailLinkEvent = { type: "link.followed"; token: string; email: string; request: RequestFacts };

export interface EmailContext extends EmailInput, CompletionResult {
  /** The normalised address: the one the link is sent to and the one it signs in. */
  identifier?: string;
  /** The raw token, only between creating and mailing it (the store keeps a keyed hash). */
  token?: string;
  expires?: string;
  linkToken?: string;
  /** What the rate limiter counted for this request. */
  limit?: LimitVerdict;
  events: CompletionEvent[];
}

export type EmailOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "challenged"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string }
  | { outcome: "refused"; failure: FlowFailure };

export type EmailEmitted = CompletionEvent | RateLimitedEvent;

type SignInResult = boolean | string;

/**
 * The limiter's step before a mail: the shared step (`limiterStep`), plus one
 * verdict of its own — allowed, but the address was mailed in this window already (`quiet`) —
 * which rests in `awaitingLink` as if a link had been sent, with nothing judged, stored or sent.
 */
function sendLimitStep() {
  const step = limiterStep(
    "checkSendLimit",
    ({ context }: { context: EmailContext }) => ({ providerId: context.providerId, identifier: context.identifier!, request: context.request }),
    "checkingRequest",
    "failed",
  );
  const verdictOf = ({ event }: { event: { output: LimitVerdict } }) => event.output;
  const quiet = {
    guard: { type: "alreadyMailed" as const, params: verdictOf },
    target: "awaitingLink" as const,
    actions: { type: "rememberLimit" as const, params: verdictOf },
  };
  return { invoke: { ...step.invoke, onDone: [quiet, ...step.invoke.onDone] } };
}

export const emailMachine = setup({
  types: {
    input: {} as EmailInput,
    context: {} as EmailContext,
    events: {} as EmailLinkEvent,
    output: {} as EmailOutput,
    emitted: {} as EmailEmitted,
  },
  actors: {
    normalizeIdentifier: effect<string, { providerId: string; email: string }>("normalizeIdentifier"),
    checkSendLimit: effect<LimitVerdict, { providerId: string; identifier: string; request: RequestFacts }>("checkSendLimit"),
    checkVerificationRequest: effect<SignInResult, { providerId: string; identifier: string }>("checkVerificationRequest"),
    createToken: effect<{ token: string; expires: string }, { providerId: string; identifier: string }>("createToken"),
    sendLink: effect<
      void,
      { providerId: string; identifier: string; token: string; expires: string; callbackUrl: string; request: RequestFacts }
    >("sendLink"),
    withdrawToken: effect<void, { providerId: string; identifier: string; token: string }>("withdrawToken"),
    consumeToken: effect<boolean, { providerId: string; identifier: string; token: string }>("consumeToken"),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    rememberIdentifier: assign((_, identifier: string) => ({ identifier })),
    rememberToken: assign((_, made: { token: string; expires: string }) => made),
    // The raw token is not kept once it is mailed: only the link carries it from here on.
    forgetToken: assign({ token: undefined }),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    takeLink: assign((_, event: EmailLinkEvent) => ({ linkToken: event.token, email: event.email, request: event.request })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
  },
  guards: {
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
    alreadyMailed: (_, verdict: LimitVerdict) => verdict.allowed && verdict.quiet === true,
    signInAllowed: (_, result: SignInResult) => result === true,
    // An empty string is no destination: it refuses like `false`.
    signInDiverted: (_, result: SignInResult) => typeof result === "string" && result.length > 0,
    tokenValid: (_, consumed: boolean) => consumed,
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
    completionChallenged: (_, done: SignInCompletionOutput) => endedAs(done, "challenge"),
  },
}).createMachine({
  id: "email",
  context: ({ input }) => ({ ...input, sessionCookies: [], events: [] }),
  initial: "normalizing",
  states: {
    normalizing: {
      invoke: {
        src: "normalizeIdentifier",
        input: ({ context }) => ({ providerId: context.providerId, email: context.email }),
        onDone: { target: "checkingSendLimit", actions: { type: "rememberIdentifier", params: ({ event }) => event.output } },
        onError: {
          target: "refused",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "EmailSignInError" as const }) },
        },
      },
    },
    // Counted before anything is stored or sent: past a limit, no mail. A limiter that cannot be
    // reached refuses too: no mail goes out without it (fails closed). An address mailed in this
    // window already gets no second mail: the flow rests as if it had sent one (the link already in
    // the mailbox works), so a stranger's requests neither flood the person nor learn anything.
    checkingSendLimit: sendLimitStep(),
    checkingRequest: {
      invoke: {
        src: "checkVerificationRequest",
        input: ({ context }) => ({ providerId: context.providerId, identifier: context.identifier! }),
        onDone: [
          { guard: { type: "signInAllowed", params: ({ event }) => event.output }, target: "creatingToken" },
          {
            guard: { type: "signInDiverted", params: ({ event }) => event.output },
            target: "diverted",
            actions: { type: "rememberRedirect", params: ({ event }) => event.output as string },
          },
          { target: "refused", actions: { type: "recordFailure", params: { error: undefined, as: "AccessDenied" as const } } },
        ],
        onError: {
          target: "refused",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "AccessDenied" as const }) },
        },
      },
    },
    creatingToken: {
      invoke: {
        src: "createToken",
        input: ({ context }) => ({ providerId: context.providerId, identifier: context.identifier! }),
        onDone: { target: "sendingLink", actions: { type: "rememberToken", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    sendingLink: {
      invoke: {
        src: "sendLink",
        input: ({ context }) => ({
          providerId: context.providerId,
          identifier: context.identifier!,
          token: context.token!,
          expires: context.expires!,
          callbackUrl: context.callbackUrl,
          request: context.request,
        }),
        onDone: { target: "awaitingLink", actions: "forgetToken" },
        onError: {
          target: "withdrawingToken",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "Configuration" as const }) },
        },
      },
    },
    withdrawingToken: {
      invoke: {
        src: "withdrawToken",
        input: ({ context }) => ({ providerId: context.providerId, identifier: context.identifier!, token: context.token! }),
        onDone: { target: "failed", actions: "forgetToken" },
        onError: { target: "failed", actions: "forgetToken" },
      },
    },
    // The flow rests here until the link is followed: no invoke, no timer, nothing in a cookie.
    awaitingLink: {
      on: {
        "link.followed": { target: "normalizingLink", actions: { type: "takeLink", params: ({ event }) => event } },
      },
    },
    normalizingLink: {
      invoke: {
        src: "normalizeIdentifier",
        input: ({ context }) => ({ providerId: context.providerId, email: context.email }),
        onDone: { target: "consumingToken", actions: { type: "rememberIdentifier", params: ({ event }) => event.output } },
        onError: {
          target: "refused",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "Verification" as const }) },
        },
      },
    },
    consumingToken: {
      invoke: {
        src: "consumeToken",
        input: ({ context }) => ({ providerId: context.providerId, identifier: context.identifier!, token: context.linkToken! }),
        onDone: [
          { guard: { type: "tokenValid", params: ({ event }) => event.output }, target: "completing" },
          { target: "refused", actions: { type: "recordFailure", params: { error: undefined, as: "Verification" as const } } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    completing: completionStep(
      ({ context }: { context: EmailContext }) => ({
        provider: { id: context.providerId, type: "email" as const, allowDangerousEmailAccountLinking: false },
        user: { email: context.identifier! } satisfies User,
        account: { provider: context.providerId, providerAccountId: context.identifier!, type: "email" } satisfies Account,
        // Following the link proves the address.
        emailVerified: true,
        hasAdapter: true,
        callbackUrl: context.callbackUrl,
        request: context.request,
        ...(context.twoFactor ? { twoFactor: context.twoFactor } : {}),
      }),
      "failed",
    ),
    ...completionEnds<EmailContext>(),
    limited: {
      type: "final",
      entry: "announceLimit",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure! }),
    },
    refused: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
    failed: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
  },
  output: ({ event }) => event.output as EmailOutput,
});
