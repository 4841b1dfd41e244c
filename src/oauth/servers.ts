/**
 * The authorization servers of one configuration's OAuth/OIDC providers, shared by every flow that
 * talks to them (sign-in, token refresh, logout): discovery runs once per provider, a provider's
 * keys are one set (`jwks.ts`), and an ID token's signature is checked the same way wherever it arrives.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader, errors } from "jose";
import type * as oauth from "oauth4webapi";
import { bound, type Runtime } from "../config/runtime.js";
import { OAuthCallbackError } from "../errors.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { loadAuthorizationServer } from "./client.js";
import { isUnknownKey, providerKeys, signingAlgorithms, withProviderKeys, type ProviderKeys } from "./jwks.js";

export interface ProviderServers {
  /** The provider's metadata: discovered once per configuration; a failure is retried on the next call. */
  serverOf(provider: OAuthProviderConfig): Promise<oauth.AuthorizationServer>;
  /** The providers' signing keys, for ID tokens and logout tokens alike. */
  keys: ProviderKeys;
  /**
   * Checks the signature of an ID token (whose claims oauth4webapi has checked) against the
   * provider's keys, or for HS* its client secret. A key the cached set lacks makes the set be
   * fetched again (rate-limited), so a provider's rotated key works at once.
   */
  verifyIdTokenSignature(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, idToken: string): Promise<void>;
}

/** The servers of `rt`'s providers: made by the first flow that talks to one, then kept in the runtime. */
export function providerServers(rt: Runtime): ProviderServers {
  return bound(rt, createServers);
}

function createServers(): ProviderServers {
  const servers = new Map<string, Promise<oauth.AuthorizationServer>>();
  const keys = providerKeys();

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
    keys,
    async verifyIdTokenSignature(provider, as, idToken) {
      const { alg } = decodeProtectedHeader(idToken);
      const algorithms = signingAlgorithms(provider, as);
      if (typeof alg !== "string" || !algorithms.includes(alg)) {
        throw new OAuthCallbackError(`The ID token's alg ${JSON.stringify(alg)} is not accepted (${algorithms.join(", ") || "none is"}).`);
      }
      try {
        if (alg.startsWith("HS")) {
          await compactVerify(idToken, new TextEncoder().encode(provider.clientSecret), { algorithms });
          return;
        }
        await withProviderKeys(keys, { provider, as }, (resolve) => compactVerify(idToken, resolve, { algorithms }));
      } catch (error) {
        if (isUnknownKey(error)) throw new OAuthCallbackError(`No key of ${provider.id} matches the ID token.`, { cause: error });
        if (error instanceof errors.JOSEError) throw new OAuthCallbackError(`The ID token's signature is invalid: ${error.message}`, { cause: error });
        throw error;
      }
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
