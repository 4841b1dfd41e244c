/**
 * Pushed authorization requests (RFC 9126): the authorization request goes to the provider's PAR
 * endpoint from the server, with client authentication, and the browser is sent with `client_id`
 * and the single-use `request_uri` the provider gave back — nothing it could read or change.
 */
import * as oauth from "oauth4webapi";
import { InvalidConfiguration, InvalidEndpoints, OAuthSignInError } from "../errors.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { clientAuthOf } from "./client-auth.js";
import { clientOf, httpOptions } from "./client.js";
import { checkTransport } from "./transport.js";

/**
 * Whether this provider's authorization requests are pushed: as configured, else when its metadata
 * requires it (RFC 9126 §5). Turning it off for a provider that requires it is a configuration
 * error, not a redirect the provider would refuse.
 */
export function pushesAuthorizationRequests(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): boolean {
  const required = as.require_pushed_authorization_requests === true || provider.securityProfile === "fapi2";
  if (provider.pushedAuthorizationRequests === false && required) {
    throw new InvalidConfiguration(
      `providers (${provider.id}): pushedAuthorizationRequests is false, but the provider requires pushed authorization requests (require_pushed_authorization_requests).`,
    );
  }
  return provider.pushedAuthorizationRequests ?? required;
}

/**
 * Pushes the authorization request `authorizationUrl` describes (its query is the request) and
 * returns the URL the browser is sent to: the authorization endpoint with `client_id` and
 * `request_uri` only. A refusal from the provider is an `OAuthSignInError` carrying its error code.
 */
export async function pushAuthorizationRequest(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, authorizationUrl: string): Promise<string> {
  const endpoint = as.pushed_authorization_request_endpoint;
  if (!endpoint) {
    throw new InvalidEndpoints(`providers (${provider.id}): pushed authorization requests are on, but the provider names no pushed_authorization_request_endpoint.`);
  }
  checkTransport(endpoint, "pushed_authorization_request_endpoint", provider.id);
  const client = clientOf(provider);
  const url = new URL(authorizationUrl);
  let result: oauth.PushedAuthorizationResponse;
  try {
    const response = await oauth.pushedAuthorizationRequest(as, client, await clientAuthOf(provider), url.searchParams, httpOptions(provider, endpoint));
    result = await oauth.processPushedAuthorizationResponse(as, client, response);
  } catch (error) {
    if (error instanceof InvalidConfiguration) throw error;
    const code = error instanceof oauth.ResponseBodyError ? error.error : undefined;
    const refused = new OAuthSignInError(`The provider refused the pushed authorization request${code ? ` (${code})` : ""}.`, { cause: error });
    throw refused;
  }
  const front = new URL(as.authorization_endpoint!);
  front.searchParams.set("client_id", client.client_id);
  front.searchParams.set("request_uri", result.request_uri);
  return front.href;
}
