/**
 * Token refresh: renewing the access token of the OAuth/OIDC account a session was signed in with,
 * when it has expired or expires within `margin` seconds. With a store shared by several processes
 * the refresh is leased first, so only one process spends the (usually single-use, rotated) refresh
 * token; the others wait for the tokens it stores, or adopt tokens a peer stored a moment earlier.
 * A refused refresh token is recorded so the session says so (sign in again) instead of retrying.
 *
 * One refresh at a time per account within a process is the caller's part: it runs this machine
 * once per refresh token and hands the outcome to every concurrent reader.
 */
import { assign, setup } from "xstate";
import { effect, type FlowFailure } from "./shared.js";

/** The renewable part of an account's token set. */
export interface RefreshTokens {
  access_token?: string;
  refresh_token?: string;
  /** Seconds since the epoch. */
  expires_at?: number;
  token_type?: string;
  scope?: string;
  id_token?: string;
  /** DPoP: the sealed key pair the tokens are bound to; the refresh proves possession of it, and keeps it. */
  dpop_jwk?: string;
}

export interface TokenRefreshInput {
  provider: string;
  providerAccountId: string;
  /** The user the session belongs to: a stored account of anyone else is never adopted. */
  userId?: string;
  tokens: RefreshTokens;
  /** Milliseconds since the epoch when the session was read. */
  now: number;
  /** Seconds before `expires_at` at which the access token counts as expired. */
  margin: number;
  /** Whether refreshes are leased and their tokens stored through a store other processes share. */
  shared: boolean;
  /** Whether refreshed tokens are written to the stored account. */
  stores: boolean;
  /** Who takes the lease (a random id per run, chosen by the caller). */
  holder: string;
  /** Milliseconds a lease lasts: a crashed holder's lease is free again after it. */
  leaseMs: number;
}

type Result = "refreshed" | "refused" | "unavailable";

export interface TokenRefreshContext extends TokenRefreshInput {
  leased: boolean;
  result?: Result;
  /** How the new tokens were obtained: our own grant, or a peer's (adopted from the store). */
  source?: "grant" | "peer";
  failure?: FlowFailure;
}

export type TokenRefreshOutput =
  | { outcome: "fresh" }
  | { outcome: "refreshed"; tokens: RefreshTokens; source: "grant" | "peer"; failure?: FlowFailure }
  | { outcome: "refused"; failure?: FlowFailure }
  | { outcome: "unavailable"; failure?: FlowFailure };

/** What the refresh_token grant ended with: new tokens, or the provider's refusal (`invalid_grant`). */
export type GrantResult = { granted: true; tokens: RefreshTokens } | { granted: false; error: unknown };

type AccountRef = { provider: string; providerAccountId: string; userId?: string };

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Whether `tokens`' access token is expired, or expires within `margin` seconds of `now`. */
export function refreshDue(tokens: RefreshTokens, now: number, margin: number): boolean {
  return typeof tokens.expires_at === "number" && seconds(now) >= tokens.expires_at - margin;
}

export const tokenRefreshMachine = setup({
  types: {
    input: {} as TokenRefreshInput,
    context: {} as TokenRefreshContext,
    output: {} as TokenRefreshOutput,
  },
  actors: {
    acquireLease: effect<boolean, { key: string; holder: string; expires: number }>("acquireLease"),
    readStoredTokens: effect<RefreshTokens | null, AccountRef>("readStoredTokens"),
    refreshGrant: effect<GrantResult, { provider: string; refreshToken: string; dpopKey?: string }>("refreshGrant"),
    storeTokens: effect<void, AccountRef & { tokens: RefreshTokens }>("storeTokens"),
    storeRefusal: effect<void, AccountRef>("storeRefusal"),
    awaitPeer: effect<RefreshTokens | null, AccountRef & { previous: RefreshTokens; until: number }>("awaitPeer"),
    releaseLease: effect<void, { key: string; holder: string }>("releaseLease"),
  },
  actions: {
    recordFailure: assign((_, failure: FlowFailure) => ({ failure })),
    settle: assign((_, result: Result) => ({ result })),
    takeLease: assign({ leased: true }),
    adoptTokens: assign(({ context }, tokens: RefreshTokens) => ({
      tokens: { ...context.tokens, ...tokens },
      result: "refreshed" as const,
      source: "peer" as const,
    })),
    startFromStored: assign(({ context }, tokens: RefreshTokens) => ({ tokens: { ...context.tokens, ...tokens } })),
    keepGrantedTokens: assign(({ context }, granted: GrantResult) => ({
      // A provider that does not rotate sends no new refresh token: the old one stays valid.
      tokens: granted.granted ? { ...context.tokens, ...granted.tokens } : context.tokens,
      result: "refreshed" as const,
      source: "grant" as const,
    })),
    noteRefusal: assign((_, granted: GrantResult) => ({
      result: "refused" as const,
      failure: { error: granted.granted ? undefined : granted.error, as: "SessionTokenError" as const },
    })),
  },
  guards: {
    notDue: ({ context }) => !refreshDue(context.tokens, context.now, context.margin),
    noRefreshToken: ({ context }) => typeof context.tokens.refresh_token !== "string" || context.tokens.refresh_token === "",
    shared: ({ context }) => context.shared,
    stores: ({ context }) => context.stores,
    leaseTaken: (_, taken: boolean) => taken === true,
    // A peer refreshed just before we took the lease: its stored tokens are newer and not due.
    peerRefreshed: ({ context }, stored: RefreshTokens | null) =>
      stored !== null && stored.access_token !== context.tokens.access_token && !refreshDue(stored, context.now, context.margin),
    // The store holds a newer refresh token than the session (a peer rotated it, the session missed it).
    storedNewer: ({ context }, stored: RefreshTokens | null) =>
      stored !== null && typeof stored.refresh_token === "string" && stored.refresh_token !== context.tokens.refresh_token,
    peerRefused: (_, stored: RefreshTokens | null) => stored !== null && typeof stored.refresh_token !== "string",
    granted: (_, result: GrantResult) => result.granted,
    leased: ({ context }) => context.leased,
    resultIs: ({ context }, result: Result) => context.result === result,
  },
}).createMachine({
  id: "tokenRefresh",
  context: ({ input }) => ({ ...input, leased: false }),
  initial: "checkingExpiry",
  states: {
    checkingExpiry: {
      always: [
        { guard: "notDue", target: "fresh" },
        { guard: "noRefreshToken", target: "refused" },
        { guard: "shared", target: "leasing" },
        { target: "granting" },
      ],
    },
    leasing: {
      invoke: {
        src: "acquireLease",
        input: ({ context }) => ({
          key: `refresh:${context.provider}:${context.providerAccountId}`,
          holder: context.holder,
          expires: context.now + context.leaseMs,
        }),
        onDone: [
          {
            guard: { type: "leaseTaken", params: ({ event }) => event.output },
            target: "rereading",
            actions: "takeLease",
          },
          { target: "awaitingPeer" },
        ],
        onError: {
          target: "settling",
          actions: [
            { type: "settle", params: "unavailable" },
            { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    rereading: {
      invoke: {
        src: "readStoredTokens",
        input: ({ context }) => ({ provider: context.provider, providerAccountId: context.providerAccountId, userId: context.userId }),
        onDone: [
          {
            guard: { type: "peerRefreshed", params: ({ event }) => event.output },
            target: "finishing",
            actions: { type: "adoptTokens", params: ({ event }) => event.output! },
          },
          {
            guard: { type: "storedNewer", params: ({ event }) => event.output },
            target: "granting",
            actions: { type: "startFromStored", params: ({ event }) => event.output! },
          },
          { target: "granting" },
        ],
        onError: {
          target: "finishing",
          actions: [
            { type: "settle", params: "unavailable" },
            { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    granting: {
      invoke: {
        src: "refreshGrant",
        input: ({ context }) => ({
          provider: context.provider,
          refreshToken: context.tokens.refresh_token!,
          ...(context.tokens.dpop_jwk ? { dpopKey: context.tokens.dpop_jwk } : {}),
        }),
        onDone: [
          {
            guard: { type: "granted", params: ({ event }) => event.output },
            target: "checkingStore",
            actions: { type: "keepGrantedTokens", params: ({ event }) => event.output },
          },
          { target: "checkingRefusalStore", actions: { type: "noteRefusal", params: ({ event }) => event.output } },
        ],
        onError: {
          target: "finishing",
          actions: [
            { type: "settle", params: "unavailable" },
            { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    checkingStore: {
      always: [{ guard: "stores", target: "storing" }, { target: "finishing" }],
    },
    storing: {
      invoke: {
        src: "storeTokens",
        input: ({ context }) => ({
          provider: context.provider,
          providerAccountId: context.providerAccountId,
          userId: context.userId,
          tokens: context.tokens,
        }),
        onDone: { target: "finishing" },
        // The grant spent the old refresh token: the new tokens are still this read's, and reported.
        onError: { target: "finishing", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingRefusalStore: {
      always: [{ guard: "stores", target: "storingRefusal" }, { target: "finishing" }],
    },
    storingRefusal: {
      invoke: {
        src: "storeRefusal",
        input: ({ context }) => ({ provider: context.provider, providerAccountId: context.providerAccountId, userId: context.userId }),
        onDone: { target: "finishing" },
        onError: { target: "finishing" },
      },
    },
    awaitingPeer: {
      invoke: {
        src: "awaitPeer",
        input: ({ context }) => ({
          provider: context.provider,
          providerAccountId: context.providerAccountId,
          userId: context.userId,
          previous: context.tokens,
          until: context.now + context.leaseMs,
        }),
        onDone: [
          {
            guard: { type: "peerRefreshed", params: ({ event }) => event.output },
            target: "settling",
            actions: { type: "adoptTokens", params: ({ event }) => event.output! },
          },
          { guard: { type: "peerRefused", params: ({ event }) => event.output }, target: "settling", actions: { type: "settle", params: "refused" } },
          { target: "settling", actions: { type: "settle", params: "unavailable" } },
        ],
        onError: {
          target: "settling",
          actions: [
            { type: "settle", params: "unavailable" },
            { type: "recordFailure", params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    finishing: {
      always: [{ guard: "leased", target: "releasing" }, { target: "settling" }],
    },
    releasing: {
      invoke: {
        src: "releaseLease",
        input: ({ context }) => ({ key: `refresh:${context.provider}:${context.providerAccountId}`, holder: context.holder }),
        // A lease that cannot be given back expires on its own.
        onDone: { target: "settling" },
        onError: { target: "settling" },
      },
    },
    settling: {
      always: [
        { guard: { type: "resultIs", params: "refreshed" }, target: "refreshed" },
        { guard: { type: "resultIs", params: "refused" }, target: "refused" },
        { target: "unavailable" },
      ],
    },
    fresh: { type: "final", output: () => ({ outcome: "fresh" as const }) },
    refreshed: {
      type: "final",
      output: ({ context }) => ({
        outcome: "refreshed" as const,
        tokens: context.tokens,
        source: context.source ?? "grant",
        ...(context.failure ? { failure: context.failure } : {}),
      }),
    },
    refused: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused" as const, ...(context.failure ? { failure: context.failure } : {}) }),
    },
    unavailable: {
      type: "final",
      output: ({ context }) => ({ outcome: "unavailable" as const, ...(context.failure ? { failure: context.failure } : {}) }),
    },
  },
  output: ({ event }) => event.output as TokenRefreshOutput,
});
