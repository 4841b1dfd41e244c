/**
 * Sign in with FACEIT: OAuth 2 (FACEIT Connect).
 *
 * - Endpoints: `https://accounts.faceit.com` (with `redirect_popup=true`, which makes FACEIT
 *   redirect back rather than answer a popup), `https://api.faceit.com/auth/v1/oauth/token`
 *   (client id and secret in HTTP Basic) and
 *   `GET https://api.faceit.com/auth/v1/resources/userinfo`.
 * - No scope parameter: the app's scopes are chosen in FACEIT's developer portal (`openid`,
 *   `email`, `profile`, `membership`). FACEIT documents the authorization code flow with PKCE;
 *   `state` guards the callback as well.
 * - The user's id is `guid`, their name `nickname`.
 *
 * @see https://docs.faceit.com/getting-started/authentication/oauth2
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { faceitLogo } from "../logos/faceit.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /auth/v1/resources/userinfo`. */
export interface FaceitProfile extends Profile {
  guid: string;
  nickname?: string;
  email?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  birthdate?: string;
  membership?: string;
  memberships?: string[];
}

/**
 * FACEIT as a sign-in provider (`AUTH_FACEIT_ID`, `AUTH_FACEIT_SECRET`). Options win;
 * `authorization.params` merge with the default `redirect_popup`.
 */
export default function Faceit<P extends FaceitProfile = FaceitProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "faceit",
    name: "FACEIT",
    type: "oauth",
    authorization: { url: "https://accounts.faceit.com", params: { redirect_popup: "true" } },
    token: { url: "https://api.faceit.com/auth/v1/oauth/token" },
    userinfo: { url: "https://api.faceit.com/auth/v1/resources/userinfo" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.guid),
        name: text(profile.nickname),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#ff5500", logo: faceitLogo },
  };
  return withUserOptions(defaults, options);
}

export { Faceit };
