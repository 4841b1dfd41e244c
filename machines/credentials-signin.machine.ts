/**
 * Credentials sign-in: the provider's `authorize` checks what the person typed, the `signIn` callback
 * may veto or divert, then a session is issued and the person is sent to the callback URL.
 * Every refusal ends in a final state that names why; only `signedIn` carries session cookies.
 */
import { assign, emit, setup } from "xstate";
import type { Account, User } from "../src/types.js";
import type { RequestContext } from "../src/request-context.js";
import { effect, type FlowFailure, type SetCookie } from "./shared.js";

export interface CredentialsSignInInput {
  providerId: string;
  /** The submitted form fields, minus `csrfToken` and `callbackUrl`. */
  credentials: Record<string, unknown>;
  /** Where the person asked to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  req: RequestContext;
}

export interface CredentialsSignInContext extends CredentialsSignInInput {
  user?: User;
  account?: Account;
  cookies: SetCookie[];
  redirectTo?: string;
  failure?: FlowFailure;
}

export type CredentialsSignInOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string }
  | { outcome: "refused"; failure: FlowFailure };

export type CredentialsSignInEmitted = { type: "signIn"; user: User; account: Account };

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
    signInCallback: effect<
      boolean | string,
      { user: User; account: Account; credentials: Record<string, unknown> }
    >("signInCallback"),
    issueSession: effect<SetCookie[], { user: User; account: Account; req: RequestContext }>("issueSession"),
    resolveRedirect: effect<string, { url: string; req: RequestContext }>("resolveRedirect"),
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    // The account of a credentials sign-in is synthetic: the user's id within the provider.
    rememberUser: assign(({ context }, user: User) => ({
      user,
      account: { provider: context.providerId, providerAccountId: String(user.id ?? ""), type: "credentials" } as Account,
    })),
    rememberCookies: assign((_, cookies: SetCookie[]) => ({ cookies })),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    announceSignIn: emit(({ context }) => ({ type: "signIn" as const, user: context.user!, account: context.account! })),
  },
  guards: {
    userReturned: (_, output: User | null) => typeof output === "object" && output !== null,
    signInAllowed: (_, output: boolean | string) => output === true,
    // An empty string is no destination: it refuses like `false`.
    signInDiverted: (_, output: boolean | string) => typeof output === "string" && output.length > 0,
  },
}).createMachine({
  id: "credentialsSignIn",
  context: ({ input }) => ({ ...input, cookies: [] }),
  initial: "authorizing",
  states: {
    authorizing: {
      invoke: {
        src: "authorize",
        input: ({ context }) => ({
          providerId: context.providerId,
          credentials: context.credentials,
          req: context.req,
        }),
        onDone: [
          {
            guard: { type: "userReturned", params: ({ event }) => event.output },
            target: "checkingSignIn",
            actions: { type: "rememberUser", params: ({ event }) => event.output as User },
          },
          {
            target: "refused",
            actions: { type: "recordFailure", params: { error: undefined, as: "CredentialsSignin" as const } },
          },
        ],
        onError: {
          target: "refused",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    checkingSignIn: {
      invoke: {
        src: "signInCallback",
        input: ({ context }) => ({ user: context.user!, account: context.account!, credentials: context.credentials }),
        onDone: [
          { guard: { type: "signInAllowed", params: ({ event }) => event.output }, target: "issuingSession" },
          {
            guard: { type: "signInDiverted", params: ({ event }) => event.output },
            target: "diverted",
            actions: { type: "rememberRedirect", params: ({ event }) => event.output as string },
          },
          { target: "denied" },
        ],
        onError: {
          target: "denied",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "AccessDenied" as const }) },
        },
      },
    },
    issuingSession: {
      invoke: {
        src: "issueSession",
        input: ({ context }) => ({ user: context.user!, account: context.account!, req: context.req }),
        onDone: { target: "resolvingRedirect", actions: { type: "rememberCookies", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    resolvingRedirect: {
      invoke: {
        src: "resolveRedirect",
        input: ({ context }) => ({ url: context.callbackUrl, req: context.req }),
        onDone: { target: "signedIn", actions: { type: "rememberRedirect", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    signedIn: {
      type: "final",
      entry: "announceSignIn",
      output: ({ context }) => ({ outcome: "signedIn", redirectTo: context.redirectTo!, cookies: context.cookies }),
    },
    diverted: {
      type: "final",
      output: ({ context }) => ({ outcome: "diverted", redirectTo: context.redirectTo! }),
    },
    denied: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure ?? { error: undefined, as: "AccessDenied" } }),
    },
    refused: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
    failed: { type: "final", output: ({ context }) => ({ outcome: "refused", failure: context.failure! }) },
  },
  // Each final state states its own output; the machine passes it on.
  output: ({ event }) => event.output as CredentialsSignInOutput,
});
