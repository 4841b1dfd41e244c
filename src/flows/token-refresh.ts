/**
 * The effects of the token-refresh machine (the refresh_token grant on oauth4webapi, the account
 * and lease operations of the adapter) and one refresh at a time per account within a process:
 * concurrent readers of a session whose token is due share one run of the machine, and readers
 * that arrive shortly after with the spent refresh token get that run's outcome too.
 */
import * as oauth from "oauth4webapi";
import { fromPromise } from "xstate";
import {
  refreshDue,
  tokenRefreshMachine,
  type RefreshTokens,
  type TokenRefreshOutput,
} from "../../machines/token-refresh.machine.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { bound, type Runtime } from "../config/runtime.js";
import { AdapterError, DPoPError, OAuthCallbackError, RefreshTokenError } from "../errors.js";
import { clientAuthOf, clientOf, httpOptions } from "../oauth/client.js";
import { idTokenServer, providerServers } from "../oauth/servers.js";
import { requireAdapter } from "../session/database-session.js";
import { REFRESHED_FIELDS } from "../session/session-account.js";
import type { AdapterAccount } from "../types.js";
import { normaliseTokens, oauthProvider } from "./oauth.js";
import { runFlow } from "./run.js";
import { refreshWithDPoP } from "../dpop/refresh.js";
import { dpopAlgorithmOf } from "../oauth/dpop-options.js";

/** The token fields a refresh renews (and a stored account gives back). */
const TOKEN_FIELDS = [...REFRESHED_FIELDS, "id_token"] as const;

/** How long one process holds the refresh lease of an account at most (a crashed holder's lease then frees). */
const LEASE_MS = 15_000;
/** How often a process waiting for a peer's refresh looks at the stored account. */
const PEER_POLL_MS = 50;
/**
 * How long a refusal is handed to readers that still carry the refused refresh token. A refresh's
 * new tokens are handed on longer — until they are due themselves (at most an hour): a reader whose
 * cookie could not be rewritten (a server component, say) still carries the spent refresh token.
 */
const RECENT_MS = 30_000;
const KEEP_REFRESHED_MS = 3_600_000;
/** Settled refreshes kept at most, oldest dropped first. */
const MAX_KEPT = 10_000;

/** The token fields of a stored account or a token response (a stored NULL is an absent field). */
export function tokensOf(account: Partial<AdapterAccount> | Record<string, unknown>): RefreshTokens {
  const out: Record<string, unknown> = {};
  for (const field of TOKEN_FIELDS) {
    const value = (account as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) out[field] = value;
  }
  return out as RefreshTokens;
}

const adapterOf = (rt: Runtime): ExtendedAdapter => requireAdapter(rt) as ExtendedAdapter;

/** The stored account of `ref`, or null when it is not linked or belongs to another user than `ref.userId`. */
export async function storedAccount(rt: Runtime, ref: { provider: string; providerAccountId: string; userId?: string }) {
  const account = await adapterOf(rt).getAccount!(ref.providerAccountId, ref.provider);
  // Someone else's account (or none) is never a source of tokens.
  if (!account || (ref.userId !== undefined && String(account.userId) !== ref.userId)) return null;
  return account;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function bindTokenRefresh(rt: Runtime) {
  const { serverOf, verifyIdTokenSignature } = providerServers(rt);
  return tokenRefreshMachine.provide({
    actors: {
      acquireLease: fromPromise(({ input }) => adapterOf(rt).acquireLease!(input.key, input.holder, new Date(input.expires))),
      releaseLease: fromPromise(({ input }) => adapterOf(rt).releaseLease!(input.key, input.holder)),
      readStoredTokens: fromPromise(async ({ input }) => {
        const account = await storedAccount(rt, input);
        return account ? tokensOf(account) : null;
      }),
      refreshGrant: fromPromise(async ({ input }) => {
        const provider = oauthProvider(rt, input.provider);
        const as = await serverOf(provider);
        if (!as.token_endpoint) throw new OAuthCallbackError(`${provider.id} has no token endpoint to refresh at.`);
        const client = clientOf(provider);
        // Fail closed: a DPoP provider's refresh without the key would trade bound tokens for bearer ones.
        if (dpopAlgorithmOf(provider) && !input.dpopKey) {
          throw new DPoPError("key_unavailable", `The ${provider.id} account has no DPoP key to refresh its tokens with: sign in again.`);
        }
        const send = async (DPoP?: oauth.DPoPHandle) =>
          oauth.refreshTokenGrantRequest(as, client, await clientAuthOf(provider), input.refreshToken, {
            ...httpOptions(provider, as.token_endpoint),
            ...(DPoP ? { DPoP } : {}),
          });
        const check = async (response: Response) => oauth.processRefreshTokenResponse(await idTokenServer(provider, as, response), client, response);
        let result: oauth.TokenEndpointResponse;
        try {
          // DPoP: the refresh proves possession of the sign-in's key, so the new access token is bound to it too.
          result = input.dpopKey ? await refreshWithDPoP(rt, provider.id, { client, key: input.dpopKey }, send, check) : await check(await send());
        } catch (error) {
          // The provider's answer that this refresh token is spent, revoked or expired: sign in again.
          if (error instanceof oauth.ResponseBodyError && error.error === "invalid_grant") return { granted: false as const, error };
          throw error;
        }
        if (result.id_token) await verifyIdTokenSignature(provider, as, result.id_token);
        const tokens = tokensOf(normaliseTokens(result as unknown as Record<string, unknown>, Date.now()));
        return { granted: true as const, tokens: input.dpopKey ? { ...tokens, dpop_jwk: input.dpopKey } : tokens };
      }),
      storeTokens: fromPromise(async ({ input }) => {
        const updated = await adapterOf(rt).updateAccount!({ provider: input.provider, providerAccountId: input.providerAccountId, ...input.tokens });
        if (!updated) throw new AdapterError(`The account ${input.provider}/${input.providerAccountId} to store refreshed tokens in is not linked.`);
      }),
      storeRefusal: fromPromise(async ({ input }) => {
        await adapterOf(rt).updateAccount!({ provider: input.provider, providerAccountId: input.providerAccountId, refresh_token: null });
      }),
      awaitPeer: fromPromise(async ({ input, signal }) => {
        let stored: RefreshTokens | null = null;
        while (!signal.aborted) {
          const account = await storedAccount(rt, input);
          stored = account ? tokensOf(account) : null;
          if (stored && stored.access_token !== input.previous.access_token) return stored;
          if (stored && typeof stored.refresh_token !== "string") return stored;
          if (Date.now() + PEER_POLL_MS > input.until) break;
          await sleep(PEER_POLL_MS);
        }
        return stored;
      }),
    },
  });
}

export type BoundTokenRefresh = ReturnType<typeof bindTokenRefresh>;

export interface RefreshRequest {
  provider: string;
  providerAccountId: string;
  userId?: string;
  tokens: RefreshTokens;
  now: number;
}

type Flight = { outcome: Promise<TokenRefreshOutput>; keptUntil?: number };

/** One refresh at a time per account and refresh token, within this runtime. */
export function createRefresher(rt: Runtime, machine: BoundTokenRefresh) {
  const flights = new Map<string, Flight>();

  function sweep(now: number) {
    for (const [key, flight] of flights) if (flight.keptUntil !== undefined && now > flight.keptUntil) flights.delete(key);
    // Map order is insertion order: the oldest go first.
    for (const key of flights.keys()) {
      if (flights.size <= MAX_KEPT) break;
      flights.delete(key);
    }
  }

  return {
    /** Whether the tokens of a session's account are due for a refresh (pure: no effect runs when not). */
    due(provider: string, tokens: RefreshTokens, now: number): boolean {
      const margin = rt.federation.refresh[provider];
      return margin !== undefined && refreshDue(tokens, now, margin);
    },

    refresh(request: RefreshRequest): Promise<TokenRefreshOutput> {
      const key = `${request.provider}\n${request.providerAccountId}\n${request.tokens.refresh_token ?? ""}`;
      const now = Date.now();
      const known = flights.get(key);
      if (known && (known.keptUntil === undefined || now <= known.keptUntil)) return known.outcome;
      if (flights.size > 1024) sweep(now);
      const margin = rt.federation.refresh[request.provider] ?? 0;
      const flight: Flight = {
        outcome: runFlow(rt, machine, {
          provider: request.provider,
          providerAccountId: request.providerAccountId,
          ...(request.userId !== undefined ? { userId: request.userId } : {}),
          tokens: request.tokens,
          now: request.now,
          margin,
          shared: rt.federation.leases,
          stores: rt.federation.storesTokens,
          holder: globalThis.crypto.randomUUID(),
          leaseMs: LEASE_MS,
        }),
      };
      flights.set(key, flight);
      flight.outcome.then(
        (output) => {
          // A refresh that could not be done now is tried again by the next reader.
          const settled = Date.now();
          if (output.outcome === "unavailable") flights.delete(key);
          else if (output.outcome === "refreshed" && typeof output.tokens.expires_at === "number") {
            flight.keptUntil = Math.min(settled + KEEP_REFRESHED_MS, (output.tokens.expires_at - margin) * 1000);
          } else flight.keptUntil = settled + RECENT_MS;
        },
        () => flights.delete(key),
      );
      return flight.outcome;
    },
  };
}

export type Refresher = ReturnType<typeof createRefresher>;

/** Logs what a session read's refresh ended with, when it is worth telling: a refusal, or a failure. */
export function reportRefresh(rt: Runtime, provider: string, outcome: TokenRefreshOutput): void {
  if (outcome.outcome === "refused" && outcome.failure) {
    rt.logger.warn("RefreshTokenError", `${provider} refused the refresh token: the person must sign in again.`);
  } else if (outcome.outcome === "unavailable" || (outcome.outcome === "refreshed" && outcome.failure)) {
    rt.logger.error("RefreshTokenError", new RefreshTokenError(`The access token of a ${provider} account could not be refreshed${outcome.outcome === "refreshed" ? " and stored" : ""}.`, { cause: outcome.failure?.error }));
  }
}

const makeRefresher = (rt: Runtime): Refresher => createRefresher(rt, bindTokenRefresh(rt));

/** The refresher of a runtime: its machine bound once, its flights shared by every session read. */
export function refresherOf(rt: Runtime): Refresher {
  return bound(rt, makeRefresher);
}
