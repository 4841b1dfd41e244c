/**
 * Sign-out (POST /signout): read the session so the `signOut` event can say whose it was, end it
 * where it lives (nothing to do for a JWT; the record for a database session), and leave for the
 * callback URL. The cookie is cleared whatever happens on the way: sign-out never fails open.
 *
 * When the session came from an OpenID Provider that ends its own session too (RP-initiated
 * logout, opt-in per provider), the way out goes through the provider's end_session_endpoint
 * instead; the provider sends the browser back, and only then on to the callback URL. That step
 * comes after the local session has ended, so nothing it does can keep anyone signed in here.
 */
import { assign, emit, setup } from "xstate";
import type { AdapterSession, JWT } from "../src/types.js";
import { effect, type FlowFailure, type SetCookie, type RequestFacts } from "./shared.js";

export interface SignOutInput {
  /** The session cookie's value, joined from its chunks; absent when there is no cookie. */
  token?: string;
  /** Where to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  /** The request the flow runs for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
}

export interface SignOutContext extends SignOutInput {
  /** Whose session it was: the decoded token (JWT strategy) or the record (database strategy). */
  ended: EndedSession;
  redirectTo?: string;
  /** The provider's end-session request, when the provider's session is to end as well. */
  providerLogout?: ProviderLogout;
  /** Every effect that failed on the way, in order: a failed end of session must stay visible. */
  failures: FlowFailure[];
}

/**
 * OpenID Connect RP-Initiated Logout: the provider's end_session_endpoint with its parameters, and
 * the cookies that remember where to go once the provider sends the browser back.
 */
export interface ProviderLogout {
  url: string;
  cookies: SetCookie[];
}

export type SignOutOutput = {
  outcome: "signedOut";
  /** The provider's end-session URL when there is one, else the resolved callback URL ("" when it could not be resolved). */
  redirectTo: string;
  /** Cookies to set besides clearing the session's (the provider logout's return ticket). */
  cookies: SetCookie[];
  failures: FlowFailure[];
};

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
    readSession: effect<EndedSession, { token: string; request: RequestFacts }>("readSession"),
    endSession: effect<void, { token: string; ended: EndedSession; request: RequestFacts }>("endSession"),
    resolveRedirect: effect<string, { url: string; request: RequestFacts }>("resolveRedirect"),
    /**
     * The provider's end-session request for the session that ended, or null when its provider does
     * not end sessions on sign-out (not opted in, no ID token kept, no end_session_endpoint).
     * `callbackUrl` is where the browser goes after the provider; undefined when it could not be resolved.
     */
    planProviderLogout: effect<
      ProviderLogout | null,
      { ended: EndedSession; callbackUrl: string | undefined; request: RequestFacts }
    >("planProviderLogout"),
  },
  actions: {
    recordFailure: assign(({ context }, params: FlowFailure) => ({ failures: [...context.failures, params] })),
    rememberSession: assign((_, ended: EndedSession) => ({ ended })),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    rememberProviderLogout: assign((_, plan: ProviderLogout | null) => (plan ? { providerLogout: plan } : {})),
    announceSignOut: emit(({ context }) => ({ type: "signOut" as const, ...context.ended })),
  },
  guards: {
    hasToken: ({ context }) => typeof context.token === "string" && context.token.length > 0,
    /** A session was read: only then is there a provider whose session may end too. */
    endedKnownSession: ({ context }) =>
      "token" in context.ended ? context.ended.token !== null : context.ended.session !== null,
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
        input: ({ context }) => ({ token: context.token!, request: context.request }),
        onDone: { target: "endingSession", actions: { type: "rememberSession", params: ({ event }) => event.output } },
        // A session that cannot be read is still ended: the cookie goes either way.
        onError: { target: "endingSession" },
      },
    },
    endingSession: {
      entry: "announceSignOut",
      invoke: {
        src: "endSession",
        input: ({ context }) => ({ token: context.token!, ended: context.ended, request: context.request }),
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
        input: ({ context }) => ({ url: context.callbackUrl, request: context.request }),
        onDone: {
          target: "checkingProvider",
          actions: { type: "rememberRedirect", params: ({ event }) => event.output },
        },
        onError: {
          target: "checkingProvider",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    checkingProvider: {
      always: [{ guard: "endedKnownSession", target: "planningProviderLogout" }, { target: "signedOut" }],
    },
    planningProviderLogout: {
      invoke: {
        src: "planProviderLogout",
        input: ({ context }) => ({ ended: context.ended, callbackUrl: context.redirectTo, request: context.request }),
        onDone: {
          target: "signedOut",
          actions: { type: "rememberProviderLogout", params: ({ event }) => event.output },
        },
        // Signed out here all the same: the browser goes to the callback URL instead of the provider.
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
        redirectTo: context.providerLogout?.url ?? context.redirectTo ?? "",
        cookies: context.providerLogout?.cookies ?? [],
        failures: context.failures,
      }),
    },
  },
  output: ({ event }) => event.output as SignOutOutput,
});
