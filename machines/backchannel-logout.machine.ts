/**
 * Back-channel logout (POST /backchannel-logout/:provider, OpenID Connect Back-Channel Logout 1.0):
 * the OpenID Provider posts a logout token server to server, and a valid one ends the sessions it
 * names. The request is checked (§2.5), the token verified (§2.6), its `jti` claimed once through the
 * store so a replay finds it taken, then the sessions of the OP's user (`sub`) and/or of the OP's
 * session (`sid`) are deleted (§2.7). A bad request or token is refused (400 for the OP); a store or
 * provider that cannot answer is a failure (5xx), and the claim is given back so that the OP's retry
 * is not taken for a replay.
 */
import { assign, emit, not, setup } from "xstate";
import { effect, type FlowFailure } from "./shared.js";

/** The `events` member that makes a JWT a logout token (§2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** Seconds of clock difference tolerated between the OP, this server and the store. */
export const LOGOUT_TOKEN_CLOCK_SKEW = 15;

/** What a verified logout token says: who issued it, which token it is, and whose sessions end. */
export interface LogoutTokenClaims {
  iss: string;
  jti: string;
  /** Seconds since the epoch. */
  iat: number;
  /** The OP's user: every session signed in as this account ends (narrowed by `sid` when both are given). */
  sub?: string;
  /** The OP's session: the sessions signed in during it end. */
  sid?: string;
}

/** How verification ends for a token it could judge: its claims, or why it is refused. */
export type LogoutTokenVerdict = { claims: LogoutTokenClaims } | { refused: string };

export interface BackchannelLogoutInput {
  providerId: string;
  /** Seconds a logout token is accepted after its `iat`; absent when the provider does not take back-channel logout. */
  maxAge?: number;
  /** Whether the body was posted as `application/x-www-form-urlencoded` (§2.5). */
  form: boolean;
  /** Every value of the body's `logout_token` field, as posted: exactly one non-empty string is accepted. */
  logoutTokens: unknown[];
  /** Seconds since the epoch: the clock the token's `iat` and `exp` are judged by. */
  now: number;
  /** Who claims the token's `jti` (unique per request): only the holder gives the claim back. */
  holder: string;
}

export interface BackchannelLogoutContext extends BackchannelLogoutInput {
  claims?: LogoutTokenClaims;
  /** Why the request or token was refused, for the OP (`error_description`). */
  refusal?: string;
  /** How many sessions were ended. */
  count?: number;
  /** Every effect that failed on the way, in order. */
  failures: FlowFailure[];
}

export type BackchannelLogoutOutput =
  | { outcome: "loggedOut"; providerId: string; sub?: string; sid?: string; count: number }
  | { outcome: "refused"; description: string }
  | { outcome: "failed"; failures: FlowFailure[] };

export type BackchannelLogoutEmitted = { type: "backchannelLogout"; provider: string; sub?: string; sid?: string; count: number };

/** The lease that remembers a logout token until it could no longer be accepted. */
export interface LogoutTokenClaim {
  key: string;
  holder: string;
}

/** Which sessions the token ends: the adapter's `deleteSessionsByAccount` filter. */
export interface EndedSessions {
  provider: string;
  providerAccountId?: string;
  providerSessionId?: string;
}

/** `sub` and `sid` of the claims, only those present. */
function whose(claims: LogoutTokenClaims): { sub?: string; sid?: string } {
  return {
    ...(claims.sub !== undefined ? { sub: claims.sub } : {}),
    ...(claims.sid !== undefined ? { sid: claims.sid } : {}),
  };
}

function claimOf(context: BackchannelLogoutContext): LogoutTokenClaim {
  return { key: `backchannel-logout:${context.providerId}:${context.claims!.jti}`, holder: context.holder };
}

export const backchannelLogoutMachine = setup({
  types: {
    input: {} as BackchannelLogoutInput,
    context: {} as BackchannelLogoutContext,
    output: {} as BackchannelLogoutOutput,
    emitted: {} as BackchannelLogoutEmitted,
  },
  actors: {
    verifyLogoutToken: effect<LogoutTokenVerdict, { providerId: string; token: string; now: number; maxAge: number }>(
      "verifyLogoutToken",
    ),
    rememberLogoutToken: effect<boolean, LogoutTokenClaim & { expires: Date }>("rememberLogoutToken"),
    endSessions: effect<number, EndedSessions>("endSessions"),
    forgetLogoutToken: effect<void, LogoutTokenClaim>("forgetLogoutToken"),
  },
  actions: {
    refuse: assign((_, refusal: string) => ({ refusal })),
    rememberClaims: assign((_, claims: LogoutTokenClaims) => ({ claims })),
    rememberCount: assign((_, count: number) => ({ count })),
    recordFailure: assign(({ context }, params: FlowFailure) => ({ failures: [...context.failures, params] })),
    announceLogout: emit(({ context }) => ({
      type: "backchannelLogout" as const,
      provider: context.providerId,
      ...whose(context.claims!),
      count: context.count!,
    })),
  },
  guards: {
    acceptsBackchannelLogout: ({ context }) => typeof context.maxAge === "number" && context.maxAge > 0,
    isFormPost: ({ context }) => context.form,
    hasOneToken: ({ context }) =>
      context.logoutTokens.length === 1 && typeof context.logoutTokens[0] === "string" && context.logoutTokens[0].length > 0,
    isRefusal: (_, verdict: LogoutTokenVerdict) => "refused" in verdict,
    isTaken: (_, claimed: boolean) => claimed !== true,
  },
}).createMachine({
  id: "backchannelLogout",
  context: ({ input }) => ({ ...input, failures: [] }),
  initial: "checkingRequest",
  states: {
    // Each check refuses with its own reason, in order; a request that passes them all is verified.
    checkingRequest: {
      always: [
        {
          guard: not("acceptsBackchannelLogout"),
          target: "refused",
          actions: { type: "refuse", params: ({ context }) => `Provider "${context.providerId}" does not accept back-channel logout.` },
        },
        {
          guard: not("isFormPost"),
          target: "refused",
          actions: { type: "refuse", params: "The logout request must be posted as application/x-www-form-urlencoded." },
        },
        {
          guard: not("hasOneToken"),
          target: "refused",
          actions: { type: "refuse", params: "The logout request must carry exactly one logout_token." },
        },
        { target: "verifyingToken" },
      ],
    },
    verifyingToken: {
      invoke: {
        src: "verifyLogoutToken",
        input: ({ context }) => ({
          providerId: context.providerId,
          token: context.logoutTokens[0] as string,
          now: context.now,
          maxAge: context.maxAge!,
        }),
        onDone: [
          {
            guard: { type: "isRefusal", params: ({ event }) => event.output },
            target: "refused",
            actions: { type: "refuse", params: ({ event }) => (event.output as { refused: string }).refused },
          },
          {
            target: "claimingToken",
            actions: { type: "rememberClaims", params: ({ event }) => (event.output as { claims: LogoutTokenClaims }).claims },
          },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    claimingToken: {
      invoke: {
        src: "rememberLogoutToken",
        // Held until the token could no longer be accepted, even by a clock running behind.
        input: ({ context }) => ({
          ...claimOf(context),
          expires: new Date((context.claims!.iat + context.maxAge! + LOGOUT_TOKEN_CLOCK_SKEW) * 1000),
        }),
        onDone: [
          {
            guard: { type: "isTaken", params: ({ event }) => event.output },
            target: "refused",
            actions: { type: "refuse", params: "This logout token was already used." },
          },
          { target: "endingSessions" },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    endingSessions: {
      invoke: {
        src: "endSessions",
        input: ({ context }) => {
          const { sub, sid } = whose(context.claims!);
          return {
            provider: context.providerId,
            ...(sub !== undefined ? { providerAccountId: sub } : {}),
            ...(sid !== undefined ? { providerSessionId: sid } : {}),
          };
        },
        onDone: { target: "loggedOut", actions: { type: "rememberCount", params: ({ event }) => event.output } },
        onError: {
          target: "releasingClaim",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    // The sessions are still there: the OP may deliver the same token again, and it must then work.
    releasingClaim: {
      invoke: {
        src: "forgetLogoutToken",
        input: ({ context }) => claimOf(context),
        onDone: { target: "failed" },
        onError: { target: "failed", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loggedOut: {
      type: "final",
      entry: "announceLogout",
      output: ({ context }) => ({
        outcome: "loggedOut",
        providerId: context.providerId,
        ...whose(context.claims!),
        count: context.count!,
      }),
    },
    refused: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", description: context.refusal ?? "The logout request was refused." }),
    },
    failed: {
      type: "final",
      output: ({ context }) => ({ outcome: "failed", failures: context.failures }),
    },
  },
  output: ({ event }) => event.output as BackchannelLogoutOutput,
});
