/**
 * How the client proves who it is to the provider's token and PAR endpoints (RFC 6749 §2.3, OIDC
 * Core §9): the secret-based methods, `private_key_jwt` (RFC 7523) from a configured private key, and
 * mTLS (RFC 8705), where the certificate is the `[customFetch]`'s to present. The private key is
 * shared with signed request objects (request-object.ts), so its import lives here too.
 */
import { importJWK } from "jose";
import * as oauth from "oauth4webapi";
import { InvalidConfiguration } from "../errors.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { authMethodOf, type ConfiguredPrivateKey } from "./fapi-profile.js";

/** The JWS `alg` a JWK signs with when it names none: what its key type and curve allow. */
function defaultAlg(jwk: JsonWebKey): string {
  if (jwk.kty === "EC") return jwk.crv === "P-384" ? "ES384" : jwk.crv === "P-521" ? "ES512" : "ES256";
  if (jwk.kty === "OKP") return "EdDSA";
  return "RS256";
}

/** The key oauth4webapi signs with: the CryptoKey as it is, or the JWK imported, its `kid` kept for the JWS header. */
export async function signingKeyOf(key: ConfiguredPrivateKey): Promise<CryptoKey | oauth.PrivateKey> {
  if (typeof CryptoKey !== "undefined" && key instanceof CryptoKey) return key;
  const jwk = key as JsonWebKey & { kid?: string };
  const imported = (await importJWK(jwk, jwk.alg ?? defaultAlg(jwk))) as CryptoKey;
  return jwk.kid ? { key: imported, kid: jwk.kid } : imported;
}

/** The client authentication at the token (and PAR) endpoint (RFC 6749 §2.3, OIDC Core §9, RFC 7523, RFC 8705 §2). */
export async function clientAuthOf(provider: OAuthProviderConfig): Promise<oauth.ClientAuth> {
  const method = authMethodOf(provider);
  const secret = provider.clientSecret;
  const needSecret = (): string => {
    if (!secret) throw new InvalidConfiguration(`providers (${provider.id}): ${method} needs a clientSecret.`);
    return secret;
  };
  switch (method) {
    case "client_secret_basic":
      return oauth.ClientSecretBasic(needSecret());
    case "client_secret_post":
      return oauth.ClientSecretPost(needSecret());
    case "client_secret_jwt":
      return oauth.ClientSecretJwt(needSecret());
    case "none":
      return oauth.None();
    case "tls_client_auth":
    case "self_signed_tls_client_auth":
      // The certificate is presented by the TLS connection of the provider's [customFetch].
      return oauth.TlsClientAuth();
    case "private_key_jwt": {
      const key = provider.client?.privateKey;
      if (!key) throw new InvalidConfiguration(`providers (${provider.id}): private_key_jwt needs client.privateKey.`);
      return oauth.PrivateKeyJwt(await signingKeyOf(key));
    }
    default:
      throw new InvalidConfiguration(`providers (${provider.id}): unknown token_endpoint_auth_method "${String(method)}".`);
  }
}
