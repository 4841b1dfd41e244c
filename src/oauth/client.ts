/**
 * The protocol side of an OAuth/OIDC provider, on oauth4webapi: its authorization server metadata
 * (discovered once per configuration, or built from explicit endpoints), its client and client
 * authentication, and the transport rules — https only, plain http only on loopback hosts, every
 * call through the provider's `[customFetch]`.
 */
import * as oauth from "oauth4webapi";
import { InvalidConfiguration, InvalidEndpoints } from "../errors.js";
import type { OAuthProviderConfig, ProviderFetch } from "../providers/oauth-types.js";
import { customFetch } from "../symbols.js";
import { checkTransport, isLoopback } from "./transport.js";

/** Issuer placeholder for plain OAuth 2 providers that name none: never compared to a response's `iss`. */
export const UNKNOWN_ISSUER = "urn:appauth:issuer-not-configured";

export { checkTransport, isLoopback };
export { clientAuthOf } from "./client-auth.js";

/** The URL of an endpoint option (a string, or an object with `url`). */
export function endpointUrl(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return endpoint;
  if (endpoint && typeof endpoint === "object" && typeof (endpoint as { url?: unknown }).url === "string") {
    return (endpoint as { url: string }).url;
  }
  return undefined;
}

export function endpointParams(endpoint: unknown): Record<string, string> {
  const params = endpoint && typeof endpoint === "object" ? (endpoint as { params?: Record<string, unknown> }).params : undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined && value !== null) out[key] = String(value);
  return out;
}


export function fetchOf(provider: OAuthProviderConfig): ProviderFetch {
  return provider[customFetch] ?? ((input, init) => fetch(input, init));
}

/** Options every oauth4webapi call of this provider takes. */
export function httpOptions(provider: OAuthProviderConfig, url: string | undefined) {
  const providerFetch = fetchOf(provider);
  const insecure = url ? new URL(url).protocol === "http:" : false;
  return {
    [oauth.customFetch]: (input: string, init: RequestInit) => providerFetch(input, init),
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** The authorization server of a provider: discovered (OIDC or `wellKnown`) and/or from explicit endpoints. */
export async function loadAuthorizationServer(provider: OAuthProviderConfig): Promise<oauth.AuthorizationServer> {
  let discovered: oauth.AuthorizationServer | undefined;
  if (provider.wellKnown || (provider.issuer && provider.type === "oidc")) {
    const issuer = provider.issuer ? checkTransport(provider.issuer, "issuer", provider.id) : undefined;
    // A multi-tenant server names a template (or another tenant) as its issuer: the provider pins
    // each ID token's issuer instead, so the document need only come from the configured origin.
    const templated = provider.type === "oidc" && typeof provider.idTokenIssuer === "function";
    if (provider.wellKnown) {
      const wellKnown = checkTransport(provider.wellKnown, "wellKnown", provider.id);
      const response = await fetchOf(provider)(wellKnown.href, { headers: { accept: "application/json" } });
      const body = (await response.json().catch(() => null)) as oauth.AuthorizationServer | null;
      if (!response.ok || !body || typeof body.issuer !== "string") {
        throw new InvalidEndpoints(`providers (${provider.id}): the discovery document at ${wellKnown.href} could not be read.`);
      }
      const expected = templated
        ? sameOriginIssuer(body.issuer, issuer ?? wellKnown, provider.id)
        : (issuer ?? checkTransport(body.issuer, "issuer", provider.id));
      discovered = await oauth.processDiscoveryResponse(expected, Response.json(body));
    } else {
      const response = await oauth.discoveryRequest(issuer!, { algorithm: "oidc", ...httpOptions(provider, issuer!.href) });
      const stated = templated ? ((await response.clone().json().catch(() => null)) as { issuer?: unknown } | null)?.issuer : undefined;
      const expected = templated && typeof stated === "string" ? sameOriginIssuer(stated, issuer!, provider.id) : issuer!;
      discovered = await oauth.processDiscoveryResponse(expected, response);
    }
  }
  const authorization = endpointUrl(provider.authorization);
  const token = endpointUrl(provider.token);
  const userinfo = endpointUrl(provider.userinfo);
  // Explicit endpoints win over discovered ones.
  const as: oauth.AuthorizationServer = {
    ...(discovered ?? { issuer: provider.issuer ?? UNKNOWN_ISSUER }),
    ...(authorization ? { authorization_endpoint: authorization } : {}),
    ...(token ? { token_endpoint: token } : {}),
    ...(userinfo ? { userinfo_endpoint: userinfo } : {}),
    ...(provider.jwks_endpoint ? { jwks_uri: provider.jwks_endpoint } : {}),
  };
  if (!as.authorization_endpoint) {
    throw new InvalidEndpoints(`providers (${provider.id}): no authorization endpoint (set \`authorization\`, \`issuer\` or \`wellKnown\`).`);
  }
  for (const [what, url] of [
    ["authorization endpoint", as.authorization_endpoint],
    ["token endpoint", as.token_endpoint],
    ["userinfo endpoint", as.userinfo_endpoint],
    ["jwks_uri", as.jwks_uri],
  ] as const) {
    if (url) checkTransport(url, what, provider.id);
  }
  return as;
}

/** The issuer a multi-tenant discovery document states, accepted when it is on `configured`'s origin. */
function sameOriginIssuer(stated: string, configured: URL, providerId: string): URL {
  const url = checkTransport(stated, "issuer", providerId);
  if (url.origin !== configured.origin) {
    throw new InvalidEndpoints(`providers (${providerId}): the discovery document names an issuer on another origin: ${stated}`);
  }
  return url;
}

export function clientOf(provider: OAuthProviderConfig): oauth.Client {
  if (!provider.clientId) {
    const key = provider.id.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
    throw new InvalidConfiguration(`providers (${provider.id}): no clientId (set it, or AUTH_${key}_ID).`);
  }
  const client: oauth.Client = { client_id: provider.clientId, [oauth.clockTolerance]: 15 };
  const alg = provider.client?.id_token_signed_response_alg;
  if (alg) client.id_token_signed_response_alg = alg;
  const jarmAlg = provider.client?.authorization_signed_response_alg;
  if (jarmAlg) client.authorization_signed_response_alg = jarmAlg;
  // RFC 8705 §5: with mTLS, token, PAR and userinfo requests go to the mtls_endpoint_aliases.
  if (provider.mtls) client.use_mtls_endpoint_aliases = true;
  return client;
}
