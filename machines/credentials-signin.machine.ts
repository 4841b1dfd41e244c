/**
 * Credentials sign-in: the rate limiter counts the attempt first (per identifier and client address,
 * per identifier from all addresses): past a limit, `authorize` is not called. Then the provider's
 * `authorize` checks what the person typed; a success clears the identifier's failures (the
 * `clearFailures` action on that edge) and the shared sign-in completion (signIn callback, session
 * for either strategy) takes it from there, and the person is sent to the callback URL. Every
 * refusal ends in a final state that names why; only `signedIn` carries session cookies.
 *
 * Clearing is an action, not an invoked step: nothing the flow decides depends on it (a store that
 * cannot clear leaves the count to expire with its window), so it needs no state of its own, and the
 * flow does not pay for a second actor on every sign-in. Its implementation starts the clear and
 * the runner waits for it before answering (src/flows/credentials-signin.ts).
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

export interface CredentialsSignInInput {
  providerId: string;
  /** The submitted form fields, minus `csrfToken` and `callbackUrl`. */
  credentials: Record<string, unknown>;
  /** Where the person asked to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  /** Whether an adapter stores users (for the database session strategy). */
  hasAdapter: boolean;
  /** The request the flow runs for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
  /** The second-factor step, handed to the completion (absent: no `twoFactor` configuration). */
  twoFactor?: TwoFactorStep;
}

export interface CredentialsSignInContext extends CredentialsSignInInput, CompletionResult {
  user?: User;
  account?: Account;
  /** What the rate limiter counted for this attempt. */
  limit?: LimitVerdict;
}

export type CredentialsSignInOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "challenged"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string }
  | { outcome: "refused"; failure: FlowFailure };

export type CredentialsSignInEmitted = CompletionEvent | RateLimitedEvent;

type AttemptInput = { providerId: string; credentials: Record<string, unknown>; request: RequestFacts };

export const credentialsSignInMachine = setup({
  types: {
    input: {} as CredentialsSignInInput,
    context: {} as CredentialsSignInContext,
    output: {} as CredentialsSignInOutput,
    emitted: {} as CredentialsSignInEmitted,
  },
  actors: {
    checkAttempt: effect<LimitVerdict, AttemptInput>("checkAttempt"),
    authorize: effect<User | null, { providerId: string; credentials: Record<string, unknown>; request: RequestFacts }>(
      "authorize",
    ),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    // The account of a credentials sign-in is synthetic: the user's id within the provider.
    rememberUser: assign(({ context }, user: User) => ({
      user,
      account: { provider: context.providerId, providerAccountId: String(user.id ?? ""), type: "credentials" } as Account,
    })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
    // Forgets the identifier's failed attempts (providerId, credentials, request in the context). Provided by `src/`.
    clearFailures(): void {
      throw new Error('The action "clearFailures" was not provided to this machine.');
    },
  },
  guards: {
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
    userReturned: (_, output: User | null) => typeof output === "object" && output !== null,
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
    completionChallenged: (_, done: SignInCompletionOutput) => endedAs(done, "challenge"),
  },
}).createMachine({
  id: "credentialsSignIn",
  context: ({ input }) => ({ ...input, sessionCookies: [], events: [] }),
  initial: "checkingAttempts",
  states: {
    // Counted before `authorize` runs: past a limit the password is never checked. A limiter that
    // cannot be reached refuses too: no password is checked without it (fails closed).
    checkingAttempts: limiterStep(
      "checkAttempt",
      ({ context }: { context: CredentialsSignInContext }) => ({
        providerId: context.providerId,
        credentials: context.credentials,
        request: context.request,
      }),
      "authorizing",
      "refused",
    ),
    authorizing: {
      invoke: {
        src: "authorize",
        input: ({ context }) => ({ providerId: context.providerId, credentials: context.credentials, request: context.request }),
        onDone: [
          {
            guard: { type: "userReturned", params: ({ event }) => event.output },
            target: "completing",
            actions: [{ type: "rememberUser", params: ({ event }) => event.output as User }, "clearFailures"],
          },
          {
            target: "refused",
            actions: { type: "recordFailure", params: { error: undefined, as: "CredentialsSignin" as const } },
          },
        ],
        onError: { target: "refused", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    completing: completionStep(
      ({ context }: { context: CredentialsSignInContext }) => ({
        provider: { id: context.providerId, type: "credentials" as const, allowDangerousEmailAccountLinking: false },
        user: context.user!,
        account: context.account!,
        emailVerified: false,
        credentials: context.credentials,
        hasAdapter: context.hasAdapter,
        callbackUrl: context.callbackUrl,
        request: context.request,
        ...(context.twoFactor ? { twoFactor: context.twoFactor } : {}),
      }),
      "refused",
    ),
    ...completionEnds<CredentialsSignInContext>(),
    limited: {
      type: "final",
      entry: "announceLimit",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure! }),
    },
    refused: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
  },
  output: ({ event }) => event.output as CredentialsSignInOutput,
});
