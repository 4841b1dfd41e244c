/**
 * The FAPI-related options of a provider (PAR, request objects, JARM, mTLS, private keys) as plain
 * rules, and their start-up checks, including `securityProfile: "fapi2"` (FAPI 2.0 Security Profile
 * §5.3.2): a configuration that cannot meet the profile is refused when it is resolved, naming every
 * missing piece, not at the first sign-in. No protocol library is imported here: this runs in every
 * cold start, middleware included.
 */
import { InvalidConfiguration } from "../errors.js";
import type { JwtResponseMode, OAuthProviderConfig } from "../providers/oauth-types.js";

/** A private key as the configuration gives it: a CryptoKey, or a private JWK. */
export type ConfiguredPrivateKey = CryptoKey | (JsonWebKey & { kid?: string });

export const JWT_RESPONSE_MODES: readonly JwtResponseMode[] = ["jwt", "query.jwt", "form_post.jwt"];

const SECURITY_PROFILES = ["fapi2"] as const;
const MTLS_AUTH_METHODS = new Set(["tls_client_auth", "self_signed_tls_client_auth"]);

/** The response mode the provider is configured with (`authorization.params.response_mode`), if any. */
export function configuredResponseMode(provider: OAuthProviderConfig): string | undefined {
  const { authorization } = provider;
  const mode = authorization && typeof authorization === "object" ? authorization.params?.response_mode : undefined;
  return typeof mode === "string" ? mode : undefined;
}

/** Whether this provider answers with JARM: decided by its configuration, never by the answer. */
export function usesJarm(provider: OAuthProviderConfig): boolean {
  return (JWT_RESPONSE_MODES as readonly string[]).includes(configuredResponseMode(provider) ?? "");
}

/** The method a provider authenticates with: the configured one, else `client_secret_basic` with a secret, `none` without. */
export function authMethodOf(provider: OAuthProviderConfig): string {
  return provider.client?.token_endpoint_auth_method ?? (provider.clientSecret ? "client_secret_basic" : "none");
}

/** The key request objects are signed with: the option's own, else the client's `private_key_jwt` key. */
export function requestObjectKeyOf(provider: OAuthProviderConfig): ConfiguredPrivateKey | undefined {
  const own = typeof provider.requestObject === "object" ? provider.requestObject.privateKey : undefined;
  return own ?? provider.client?.privateKey;
}

/**
 * Whether `key` can sign: a private CryptoKey, or a JWK with its private part (`d`). A public key
 * pasted where the private one belongs is then a configuration error, not a failed sign-in.
 */
export function checkPrivateKey(key: unknown, option: string, providerId: string): void {
  const where = `providers (${providerId}): ${option}`;
  if (typeof CryptoKey !== "undefined" && key instanceof CryptoKey) {
    if (key.type !== "private") throw new InvalidConfiguration(`${where} is not a private key.`);
    return;
  }
  if (!key || typeof key !== "object") throw new InvalidConfiguration(`${where}: expected a CryptoKey or a private JWK.`);
  const jwk = key as JsonWebKey;
  if (typeof jwk.kty !== "string") throw new InvalidConfiguration(`${where}: expected a JWK with "kty".`);
  if (typeof jwk.d !== "string") throw new InvalidConfiguration(`${where} is a public key (no "d"); give the private JWK.`);
}

/** Sender-constrained tokens: DPoP (the `dpop` option) or mTLS certificate binding. */
function senderConstrained(provider: OAuthProviderConfig): boolean {
  return Boolean(provider.dpop) || provider.mtls === true;
}

/** What `provider` lacks for the FAPI 2.0 Security Profile, each named by the option to set. */
export function missingForFapi2(provider: OAuthProviderConfig): string[] {
  const missing: string[] = [];
  if (provider.pushedAuthorizationRequests === false) missing.push("pushed authorization requests (pushedAuthorizationRequests must not be false)");
  const checks = (provider as { checks?: string[] }).checks;
  if (checks && !checks.includes("pkce")) missing.push('PKCE with S256 (add "pkce" to checks)');
  if (!senderConstrained(provider)) missing.push("sender-constrained tokens (dpop: true, or mtls: true with a client certificate in [customFetch])");
  const method = authMethodOf(provider);
  const strong = (method === "private_key_jwt" && provider.client?.privateKey !== undefined) || (MTLS_AUTH_METHODS.has(method) && provider.mtls === true);
  if (!strong) {
    missing.push(
      `private_key_jwt or mTLS client authentication (client.token_endpoint_auth_method "private_key_jwt" with client.privateKey, or "tls_client_auth" with mtls: true; not "${method}")`,
    );
  }
  return missing;
}

/** Validates the FAPI-related options of one OAuth/OIDC provider; throws `InvalidConfiguration` naming the option. */
export function checkFapiOptions(provider: OAuthProviderConfig): void {
  const where = `providers (${provider.id})`;
  const profile = provider.securityProfile;
  if (profile !== undefined && !(SECURITY_PROFILES as readonly string[]).includes(profile)) {
    throw new InvalidConfiguration(`${where}: securityProfile: expected "fapi2", got ${JSON.stringify(profile)}.`);
  }
  for (const option of ["pushedAuthorizationRequests", "mtls"] as const) {
    const value = provider[option];
    if (value !== undefined && typeof value !== "boolean") throw new InvalidConfiguration(`${where}: ${option}: expected true or false.`);
  }
  if (provider.client?.privateKey !== undefined) checkPrivateKey(provider.client.privateKey, "client.privateKey", provider.id);
  if (provider.requestObject) {
    const own = typeof provider.requestObject === "object" && provider.requestObject.privateKey !== undefined;
    const key = requestObjectKeyOf(provider);
    if (key === undefined) throw new InvalidConfiguration(`${where}: requestObject needs a key to sign with (requestObject.privateKey or client.privateKey).`);
    checkPrivateKey(key, own ? "requestObject.privateKey" : "client.privateKey", provider.id);
  }
  const mode = configuredResponseMode(provider);
  if (mode?.includes("jwt") && !usesJarm(provider)) {
    throw new InvalidConfiguration(`${where}: authorization.params.response_mode: expected one of ${JWT_RESPONSE_MODES.join(", ")} for JWT-secured responses, got "${mode}".`);
  }
  // A request object's audience and a JARM answer's issuer are the provider's issuer: without one, nothing could be checked.
  if ((provider.requestObject || usesJarm(provider)) && !provider.issuer && !provider.wellKnown) {
    throw new InvalidConfiguration(`${where}: requestObject and JWT response modes need the provider's issuer (set issuer or wellKnown).`);
  }
  const method = authMethodOf(provider);
  if (MTLS_AUTH_METHODS.has(method) && provider.mtls !== true) {
    throw new InvalidConfiguration(`${where}: ${method} authenticates with a client certificate; set mtls: true and present the certificate through [customFetch].`);
  }
  if (profile === "fapi2") {
    const missing = missingForFapi2(provider);
    if (missing.length) throw new InvalidConfiguration(`${where}: securityProfile "fapi2" (FAPI 2.0 Security Profile) needs ${missing.join("; ")}.`);
  }
}
