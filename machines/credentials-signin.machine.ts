/**
 * Credentials sign-in: the provider's `authorize` checks what the person typed; the shared
 * sign-in completion (signIn callback, session for either strategy) takes it from there, and the
 * person is sent to the callback URL. Every refusal ends in a final state that names why; only
 * `signedIn` carries session cookies.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, User } from "../src/types.js";
import type { RequestContext } from "../src/request-context.js";
import { effect, type FlowFailure, type SetCookie } from "./shared.js";
import {
  signInCompletionMachine,
  type CompletionEvent,
  type SignInCompletionOutput,
} from "./signin-completion.machine.js";

export interface CredentialsSignInInput {
  providerId: string;
  /** The submitted form fields, minus `csrfToken` and `callbackUrl`. */
  credentials: Record<string, unknown>;
  /** Where the person asked to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  /** Whether an adapter stores users (for the database session strategy). */
  hasAdapter: boolean;
  req: RequestContext;
}

export interface CredentialsSignInContext extends CredentialsSignInInput {
  user?: User;
  account?: Account;
  cookies: SetCookie[];
  redirectTo?: string;
  failure?: FlowFailure;
  /** What the completion reported, announced on entry to `signedIn`. */
  events: CompletionEvent[];
}

export type CredentialsSignInOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string }
  | { outcome: "refused"; failure: FlowFailure };

export type CredentialsSignInEmitted = CompletionEvent;

export const credentialsSignInMachine = setup({
  types: {
    input: {} as CredentialsSignInInput,
    context: {} as CredentialsSignInContext,
    output: {} as CredentialsSignInOutput,
    emitted: {} as CredentialsSignInEmitted,
  },
  actors: {
    authorize: effect<User | null, { providerId: string; credentials: Record<string, unknown>; req: RequestContext }>(
      "authorize",
    ),
    completeSignIn: signInCompletionMachine,
    resolveRedirect: effect<string, { url: string; req: RequestContext }>("resolveRedirect"),
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    // The account of a credentials sign-in is synthetic: the user's id within the provider.
    rememberUser: assign(({ context }, user: User) => ({
      user,
      account: { provider: context.providerId, providerAccountId: String(user.id ?? ""), type: "credentials" } as Account,
    })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) =>
      done.outcome === "signedIn"
        ? { cookies: done.cookies, events: done.events }
        : done.outcome === "diverted"
          ? { redirectTo: done.redirectTo }
          : { failure: done.failure },
    ),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    // Events go out only once the sign-in has really succeeded (its redirect resolved too).
    announce: enqueueActions(({ enqueue, context }) => {
      for (const event of context.events) enqueue.emit(event);
    }),
  },
  guards: {
    userReturned: (_, output: User | null) => typeof output === "object" && output !== null,
    completedAs: (_, params: { done: SignInCompletionOutput; outcome: SignInCompletionOutput["outcome"] }) =>
      params.done.outcome === params.outcome,
  },
}).createMachine({
  id: "credentialsSignIn",
  context: ({ input }) => ({ ...input, cookies: [], events: [] }),
  initial: "authorizing",
  states: {
    authorizing: {
      invoke: {
        src: "authorize",
        input: ({ context }) => ({ providerId: context.providerId, credentials: context.credentials, req: context.req }),
        onDone: [
          {
            guard: { type: "userReturned", params: ({ event }) => event.output },
            target: "completing",
            actions: { type: "rememberUser", params: ({ event }) => event.output as User },
          },
          {
            target: "refused",
            actions: { type: "recordFailure", params: { error: undefined, as: "CredentialsSignin" as const } },
          },
        ],
        onError: { target: "refused", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    completing: {
      invoke: {
        src: "completeSignIn",
        input: ({ context }) => ({
          provider: { id: context.providerId, type: "credentials" as const, allowDangerousEmailAccountLinking: false },
          user: context.user!,
          account: context.account!,
          emailVerified: false,
          credentials: context.credentials,
          hasAdapter: context.hasAdapter,
          req: context.req,
        }),
        onDone: [
          {
            guard: { type: "completedAs", params: ({ event }) => ({ done: event.output, outcome: "signedIn" as const }) },
            target: "resolvingRedirect",
            actions: { type: "rememberCompletion", params: ({ event }) => event.output },
          },
          {
            guard: { type: "completedAs", params: ({ event }) => ({ done: event.output, outcome: "diverted" as const }) },
            target: "diverted",
            actions: { type: "rememberCompletion", params: ({ event }) => event.output },
          },
          { target: "refused", actions: { type: "rememberCompletion", params: ({ event }) => event.output } },
        ],
        onError: { target: "refused", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    resolvingRedirect: {
      invoke: {
        src: "resolveRedirect",
        input: ({ context }) => ({ url: context.callbackUrl, req: context.req }),
        onDone: { target: "signedIn", actions: { type: "rememberRedirect", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signedIn: {
      type: "final",
      entry: "announce",
      output: ({ context }) => ({ outcome: "signedIn", redirectTo: context.redirectTo!, cookies: context.cookies }),
    },
    diverted: {
      type: "final",
      output: ({ context }) => ({ outcome: "diverted", redirectTo: context.redirectTo! }),
    },
    refused: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
    failed: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
  },
  output: ({ event }) => event.output as CredentialsSignInOutput,
});
