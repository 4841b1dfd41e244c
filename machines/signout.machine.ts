/**
 * Sign-out (POST /signout): read the session so the `signOut` event can say whose it was, end it
 * where it lives (nothing to do for a JWT; the record for a database session), and leave for the
 * callback URL. The cookie is cleared whatever happens on the way: sign-out never fails open.
 */
import { assign, emit, setup } from "xstate";
import type { AdapterSession, JWT } from "../src/types.js";
import type { RequestContext } from "../src/request-context.js";
import { effect, type FlowFailure } from "./shared.js";

export interface SignOutInput {
  /** The session cookie's value, joined from its chunks; absent when there is no cookie. */
  token?: string;
  /** Where to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  req: RequestContext;
}

export interface SignOutContext extends SignOutInput {
  /** Whose session it was: the decoded token (JWT strategy) or the record (database strategy). */
  ended: EndedSession;
  redirectTo?: string;
  /** Every effect that failed on the way, in order: a failed end of session must stay visible. */
  failures: FlowFailure[];
}

export type SignOutOutput = { outcome: "signedOut"; redirectTo: string; failures: FlowFailure[] };

/** The session being ended, as the `signOut` event reports it. */
export type EndedSession = { token: JWT | null } | { session: AdapterSession | null };

export type SignOutEmitted = { type: "signOut" } & EndedSession;

export const signOutMachine = setup({
  types: {
    input: {} as SignOutInput,
    context: {} as SignOutContext,
    output: {} as SignOutOutput,
    emitted: {} as SignOutEmitted,
  },
  actors: {
    readSession: effect<EndedSession, { token: string; req: RequestContext }>("readSession"),
    endSession: effect<void, { token: string; ended: EndedSession; req: RequestContext }>("endSession"),
    resolveRedirect: effect<string, { url: string; req: RequestContext }>("resolveRedirect"),
  },
  actions: {
    recordFailure: assign(({ context }, params: FlowFailure) => ({ failures: [...context.failures, params] })),
    rememberSession: assign((_, ended: EndedSession) => ({ ended })),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    announceSignOut: emit(({ context }) => ({ type: "signOut" as const, ...context.ended })),
  },
  guards: {
    hasToken: ({ context }) => typeof context.token === "string" && context.token.length > 0,
  },
}).createMachine({
  id: "signOut",
  context: ({ input }) => ({ ...input, ended: { token: null }, failures: [] }),
  initial: "checkingCookie",
  states: {
    checkingCookie: {
      always: [{ guard: "hasToken", target: "readingSession" }, { target: "resolvingRedirect" }],
    },
    readingSession: {
      invoke: {
        src: "readSession",
        input: ({ context }) => ({ token: context.token!, req: context.req }),
        onDone: { target: "endingSession", actions: { type: "rememberSession", params: ({ event }) => event.output } },
        // A session that cannot be read is still ended: the cookie goes either way.
        onError: { target: "endingSession" },
      },
    },
    endingSession: {
      entry: "announceSignOut",
      invoke: {
        src: "endSession",
        input: ({ context }) => ({ token: context.token!, ended: context.ended, req: context.req }),
        onDone: { target: "resolvingRedirect" },
        onError: {
          target: "resolvingRedirect",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    resolvingRedirect: {
      invoke: {
        src: "resolveRedirect",
        input: ({ context }) => ({ url: context.callbackUrl, req: context.req }),
        onDone: { target: "signedOut", actions: { type: "rememberRedirect", params: ({ event }) => event.output } },
        onError: {
          target: "signedOut",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    signedOut: {
      type: "final",
      output: ({ context }) => ({
        outcome: "signedOut",
        redirectTo: context.redirectTo ?? "",
        failures: context.failures,
      }),
    },
  },
  output: ({ event }) => event.output as SignOutOutput,
});
