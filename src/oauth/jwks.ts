/**
 * The signing keys of each OAuth/OIDC provider of one configuration (its `jwks_uri`), which ID
 * tokens and logout tokens alike are checked with. One key set per provider, fetched through its
 * `[customFetch]` when there is none or it is older than five minutes. A token that names a key the
 * set lacks (the provider rotated its keys) makes the set be fetched again at once — so a rotated
 * key works on its first token — but a provider's set is fetched again for unknown keys at most
 * once every few seconds, and concurrent misses share that one fetch: tokens with made-up `kid`s
 * cannot make the server hammer the provider.
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type * as oauth from "oauth4webapi";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { fetchOf } from "./client.js";

/** Keys older than this (milliseconds) are fetched again before use. */
const MAX_AGE_MS = 5 * 60 * 1000;
/** At most one fetch for an unknown key per provider in this time (milliseconds). */
export const UNKNOWN_KEY_REFETCH_INTERVAL_MS = 5_000;
const JWKS_TIMEOUT_MS = 10_000;

/**
 * The algorithms a provider's ID tokens and logout tokens may be signed with (OIDC Core §3.1.3.7,
 * Back-Channel Logout §2.6): the client's registered `id_token_signed_response_alg`, else the
 * provider's `id_token_signing_alg_values_supported`, else RS256. Never `none`; HS* only with a client
 * secret to verify it.
 */
export function signingAlgorithms(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): string[] {
  const pinned = provider.client?.id_token_signed_response_alg;
  const listed = pinned ? [pinned] : (as.id_token_signing_alg_values_supported ?? ["RS256"]);
  return listed.filter((alg) => alg !== "none" && (!alg.startsWith("HS") || Boolean(provider.clientSecret)));
}

/**
 * GET the provider's `jwks_uri`, through its `[customFetch]`. A request that got no answer at all (a
 * kept-alive connection the provider closed just then) is sent once more: the GET is idempotent,
 * and a failed fetch would refuse every token until the next one is allowed.
 */
export async function jwksRequest(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<Response> {
  const uri = as.jwks_uri;
  if (!uri) throw new Error(`providers (${provider.id}): the provider names no jwks_uri to verify its tokens with.`);
  const get = () =>
    fetchOf(provider)(uri, { headers: { accept: "application/jwk-set+json, application/json" }, signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
  try {
    return await get();
  } catch (error) {
    // fetch rejects with a TypeError when no response came; a timeout (or anything else) is final.
    if (!(error instanceof TypeError)) throw error;
    return get();
  }
}

/** The key set in a `jwks_uri` response; throws when the response is not one. */
export async function processJwksResponse(response: Response): Promise<JSONWebKeySet> {
  const body = (await response.json().catch(() => null)) as { keys?: unknown } | null;
  if (!response.ok || !body || !Array.isArray(body.keys)) {
    throw new Error(`The provider's JWKS could not be read (HTTP ${response.status}).`);
  }
  return { keys: body.keys.filter((key): key is JSONWebKeySet["keys"][number] => Boolean(key) && typeof key === "object") };
}

/** One fetched key set: what a token is checked with, and when it was fetched. */
export interface KeySet {
  readonly resolve: JWTVerifyGetKey;
  readonly fetchedAt: number;
}

export interface ProviderKeys {
  /** The provider's current keys: the cached set, or a fresh one when there is none or it is stale. */
  current(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<KeySet>;
  /**
   * The keys to try again with after `missed` held no key for a token: a set fetched since `missed`
   * (by a concurrent miss, say), else a new fetch when the provider's last one for an unknown key is
   * long enough ago; undefined when it is not (the token is then refused).
   */
  afterMiss(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, missed: KeySet): Promise<KeySet | undefined>;
}

interface ProviderState {
  keys?: KeySet;
  loading?: Promise<KeySet>;
  /** When the last fetch for an unknown key started (milliseconds since the epoch). */
  lastRefetch?: number;
}

/** The key sets of one configuration's providers: nothing is shared between configurations. */
export function providerKeys(): ProviderKeys {
  const states = new Map<string, ProviderState>();
  const stateOf = (id: string): ProviderState => {
    let state = states.get(id);
    if (!state) {
      state = {};
      states.set(id, state);
    }
    return state;
  };

  /** One fetch at a time per provider; a failed fetch keeps the keys there were. */
  const load = (provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<KeySet> => {
    const state = stateOf(provider.id);
    if (!state.loading) {
      state.loading = jwksRequest(provider, as)
        .then(processJwksResponse)
        .then((jwks) => {
          const keys: KeySet = { resolve: createLocalJWKSet(jwks), fetchedAt: Date.now() };
          state.keys = keys;
          return keys;
        })
        .finally(() => {
          state.loading = undefined;
        });
    }
    return state.loading;
  };

  return {
    async current(provider, as) {
      const { keys } = stateOf(provider.id);
      if (keys && Date.now() - keys.fetchedAt < MAX_AGE_MS) return keys;
      return load(provider, as);
    },
    async afterMiss(provider, as, missed) {
      const state = stateOf(provider.id);
      if (state.keys && state.keys !== missed) return state.keys;
      if (state.loading) return state.loading;
      const now = Date.now();
      if (state.lastRefetch !== undefined && now - state.lastRefetch < UNKNOWN_KEY_REFETCH_INTERVAL_MS) return undefined;
      state.lastRefetch = now;
      return load(provider, as);
    },
  };
}

/** Whether `error` says the key set holds no key for the token (as opposed to a bad signature or token). */
export function isUnknownKey(error: unknown): boolean {
  return error instanceof errors.JWKSNoMatchingKey;
}

/**
 * Runs `check` with the provider's keys, and once more with keys fetched again when it fails for
 * want of a matching key (see `ProviderKeys.afterMiss`). What `check` throws otherwise is thrown.
 */
export async function withProviderKeys<T>(
  keys: ProviderKeys,
  target: { provider: OAuthProviderConfig; as: oauth.AuthorizationServer },
  check: (resolve: JWTVerifyGetKey) => Promise<T>,
): Promise<T> {
  const { provider, as } = target;
  const first = await keys.current(provider, as);
  try {
    return await check(first.resolve);
  } catch (error) {
    if (!isUnknownKey(error)) throw error;
    const again = await keys.afterMiss(provider, as, first);
    if (!again) throw error;
    return check(again.resolve);
  }
}
