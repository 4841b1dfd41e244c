/**
 * Sign in with HubSpot (a public app's OAuth): OAuth 2.
 *
 * - Endpoints: `https://app.hubspot.com/oauth/authorize`, `https://api.hubapi.com/oauth/v1/token`
 *   (client credentials in the body) and the token's metadata,
 *   `GET https://api.hubapi.com/oauth/v1/access-tokens/<token>`, which names the user (`user_id`,
 *   and `user`, their email) and the HubSpot account (`hub_id`, `hub_domain`).
 * - HubSpot has no user-profile scope; `oauth` is the scope every app holds and is the default.
 *   As in Auth.js the user's email is also their name. PKCE is not documented: `state` protects
 *   the callback.
 * - HubSpot deprecates its v1 OAuth endpoints on 16 February 2027 for the v3 ones, which take the
 *   token in a POST body: until then these are the ones Auth.js applications are registered with.
 *
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 * @see https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { hubspotLogo } from "../logos/hubspot.js";
import { endpointUrl, fetchJson, idOf, record, text, withUserOptions, withoutTrailingSlash, type UserinfoContext } from "./shared.js";

/** `GET /oauth/v1/access-tokens/<token>`. */
export interface HubSpotProfile extends Profile {
  token?: string;
  user: string;
  user_id: number;
  hub_id: number;
  hub_domain?: string;
  app_id?: number;
  scopes?: string[];
  token_type?: string;
  expires_in?: number;
}

/** The token's metadata: the token is the last path segment (HubSpot takes no header here). */
async function hubspotTokenMetadata(context: UserinfoContext): Promise<HubSpotProfile> {
  const base = withoutTrailingSlash(endpointUrl(context.provider.userinfo)) ?? "https://api.hubapi.com/oauth/v1/access-tokens";
  const token = context.tokens.access_token;
  if (typeof token !== "string" || token === "") throw new TypeError("hubspot: the token response has no access_token.");
  const answer = await fetchJson(context.fetch, `${base}/${encodeURIComponent(token)}`, { provider: "hubspot", headers: { Accept: "application/json" } });
  return record(answer) as HubSpotProfile;
}

/** HubSpot as a sign-in provider (`AUTH_HUBSPOT_ID`, `AUTH_HUBSPOT_SECRET`). Options win. */
export default function HubSpot<P extends HubSpotProfile = HubSpotProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "hubspot",
    name: "HubSpot",
    type: "oauth",
    authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
    token: { url: "https://api.hubapi.com/oauth/v1/token" },
    userinfo: { url: "https://api.hubapi.com/oauth/v1/access-tokens", request: hubspotTokenMetadata },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.user_id),
        name: text(profile.user),
        email: text(profile.user),
        image: null,
      };
    },
    style: { brandColor: "#ff7a59", logo: hubspotLogo },
  };
  return withUserOptions(defaults, options);
}

export { HubSpot };
