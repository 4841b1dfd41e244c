/**
 * The userinfo endpoint, where the profile is read when the ID token does not carry it: OpenID
 * Connect's (oauth4webapi, its answer's `sub` held to the ID token's) and a plain OAuth 2
 * provider's (a GET with the access token, whatever JSON object it answers).
 */
import * as oauth from "oauth4webapi";
import { OAuthCallbackError } from "../errors.js";
import type { OAuthProviderConfig, TokenSet } from "../providers/oauth-types.js";
import type { Profile } from "../types.js";
import { clientOf, endpointParams, fetchOf, httpOptions } from "./client.js";

/** The endpoint and the access token a userinfo request needs; a provider or answer without one cannot be asked. */
function userinfoAccess(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, tokens: TokenSet) {
  if (!as.userinfo_endpoint) throw new OAuthCallbackError(`${provider.id} has no userinfo endpoint to read the profile from.`);
  if (!tokens.access_token) throw new OAuthCallbackError("The token response carried no access token.");
  return { endpoint: as.userinfo_endpoint, accessToken: tokens.access_token };
}

/**
 * OIDC userinfo (OpenID Connect Core §5.3); `subject`, the ID token's `sub`, must be the answer's
 * (§5.3.2), and with no ID token it is not compared.
 */
export async function fetchOidcUserinfo(
  provider: OAuthProviderConfig,
  as: oauth.AuthorizationServer,
  tokens: TokenSet,
  options: { subject?: string } = {},
): Promise<Profile> {
  const { endpoint, accessToken } = userinfoAccess(provider, as, tokens);
  const client = clientOf(provider);
  const response = await oauth.userInfoRequest(as, client, accessToken, httpOptions(provider, endpoint));
  return (await oauth.processUserInfoResponse(as, client, options.subject ?? oauth.skipSubjectCheck, response)) as Profile;
}

/** A plain OAuth 2 provider's profile endpoint, with its configured query parameters. */
export async function fetchOAuthUserinfo(provider: OAuthProviderConfig, as: oauth.AuthorizationServer, tokens: TokenSet): Promise<Profile> {
  const { endpoint, accessToken } = userinfoAccess(provider, as, tokens);
  const url = new URL(endpoint);
  for (const [key, value] of Object.entries(endpointParams(provider.userinfo))) url.searchParams.set(key, value);
  const response = await fetchOf(provider)(url.href, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
  });
  return processOAuthUserinfoResponse(response);
}

/** The check of a plain OAuth 2 userinfo answer: a success carrying a JSON object. */
export async function processOAuthUserinfoResponse(response: Response): Promise<Profile> {
  if (!response.ok) throw new OAuthCallbackError(`The userinfo endpoint answered ${response.status}.`);
  const body = (await response.json()) as unknown;
  if (!body || typeof body !== "object") throw new OAuthCallbackError("The userinfo endpoint did not answer a JSON object.");
  return body as Profile;
}
