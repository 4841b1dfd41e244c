/**
 * Signed request objects (JAR, RFC 9101): the authorization request's parameters as one JWT signed
 * with the client's key (`iss` the client, `aud` the issuer, `exp` a minute on, `nbf`, `jti`), so
 * nothing between the application and the provider can change what was asked. oauth4webapi builds
 * and signs it; this module picks the key and says what travels beside it.
 */
import * as oauth from "oauth4webapi";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { signingKeyOf } from "./client-auth.js";
import { requestObjectKeyOf } from "./fapi-profile.js";

/** Whether this provider's authorization requests travel as signed request objects. */
export function usesRequestObject(provider: OAuthProviderConfig): boolean {
  return Boolean(provider.requestObject);
}

/**
 * The parameters of an authorization request whose content is a signed request object (RFC 9101
 * §5): `client_id` and `request`, with `response_type` and `scope` repeated outside it, as OpenID
 * Connect asks (Core §6.1); a provider in strict mode (FAPI, PAR) reads only the JWT's.
 */
export async function requestObjectParams(
  provider: OAuthProviderConfig,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  params: Record<string, string>,
): Promise<Record<string, string>> {
  const key = requestObjectKeyOf(provider)!;
  const request = await oauth.issueRequestObject(as, client, params, await signingKeyOf(key));
  return {
    client_id: client.client_id,
    request,
    ...(params.response_type ? { response_type: params.response_type } : {}),
    ...(params.scope ? { scope: params.scope } : {}),
  };
}
