/**
 * The authorization servers of one configuration's OAuth/OIDC providers, shared by every flow that
 * talks to them (sign-in, token refresh, logout): discovery runs once per provider, a provider's
 * JWKS is cached once, and an ID token's signature is checked the same way wherever it arrives.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader } from "jose";
import * as oauth from "oauth4webapi";
import type { Runtime } from "../config/runtime.js";
import { OAuthCallbackError } from "../errors.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { httpOptions, loadAuthorizationServer } from "./client.js";

export interface ProviderServers {
  /** The provider's metadata: discovered once per configuration; a failure is retried on the next call. */
  serverOf(provider: OAuthProviderConfig): Promise<oauth.AuthorizationServer>;
  /** The cache oauth4webapi keeps the provider's JWKS in. */
  jwksCacheOf(providerId: string): oauth.JWKSCacheInput;
  /** Checks the signature of the ID token in `response` against the provider's JWKS (or, for HS*, the client secret). */
  verifyIdTokenSignature(
    provider: OAuthProviderConfig,
    as: oauth.AuthorizationServer,
    response: Response,
    idToken: string,
  ): Promise<void>;
}

const byRuntime = new WeakMap<Runtime, ProviderServers>();

export function providerServers(rt: Runtime): ProviderServers {
  let servers = byRuntime.get(rt);
  if (!servers) {
    servers = createServers();
    byRuntime.set(rt, servers);
  }
  return servers;
}

function createServers(): ProviderServers {
  const servers = new Map<string, Promise<oauth.AuthorizationServer>>();
  const jwksCaches = new Map<string, oauth.JWKSCacheInput>();

  const jwksCacheOf = (providerId: string): oauth.JWKSCacheInput => {
    let cache = jwksCaches.get(providerId);
    if (!cache) {
      cache = {};
      jwksCaches.set(providerId, cache);
    }
    return cache;
  };

  return {
    serverOf(provider) {
      let pending = servers.get(provider.id);
      if (!pending) {
        pending = loadAuthorizationServer(provider);
        servers.set(provider.id, pending);
        pending.catch(() => servers.delete(provider.id));
      }
      return pending;
    },
    jwksCacheOf,
    async verifyIdTokenSignature(provider, as, response, idToken) {
      const header = decodeProtectedHeader(idToken);
      if (header.alg?.startsWith("HS")) {
        if (!provider.clientSecret) throw new OAuthCallbackError("An HS-signed ID token needs a client secret to verify.");
        await compactVerify(idToken, new TextEncoder().encode(provider.clientSecret));
        return;
      }
      await oauth.validateApplicationLevelSignature(as, response, {
        ...httpOptions(provider, as.jwks_uri),
        [oauth.jwksCache]: jwksCacheOf(provider.id),
      });
    },
  };
}

/**
 * The server an ID token in `response` is checked against: `as`, with the issuer the provider pins
 * for this token on a multi-tenant server (read from its claims before they are verified; the
 * verification that follows holds the token to it).
 */
export async function idTokenServer(
  provider: OAuthProviderConfig,
  as: oauth.AuthorizationServer,
  response: Response,
): Promise<oauth.AuthorizationServer> {
  if (provider.type !== "oidc" || !provider.idTokenIssuer) return as;
  const body = (await response.clone().json().catch(() => null)) as { id_token?: unknown } | null;
  if (typeof body?.id_token !== "string") return as;
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(body.id_token);
  } catch (cause) {
    throw new OAuthCallbackError("The ID token could not be decoded.", { cause });
  }
  const issuer = expectedIssuer(provider, as, claims);
  if (!issuer) throw new OAuthCallbackError(`${provider.id} refused the ID token's tenant.`);
  return { ...as, issuer };
}

/**
 * The issuer a token signed by `provider` must name: the server's, or on a multi-tenant server the
 * one the provider pins for these (not yet verified) claims; undefined when it refuses their tenant.
 * ID tokens and logout tokens are held to it alike.
 */
export function expectedIssuer(
  provider: OAuthProviderConfig,
  as: oauth.AuthorizationServer,
  claims: Record<string, unknown>,
): string | undefined {
  return provider.type === "oidc" && provider.idTokenIssuer ? provider.idTokenIssuer(claims, as.issuer) : as.issuer;
}
