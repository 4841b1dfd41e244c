/**
 * Sign in with WordPress.com: OAuth 2.
 *
 * - Endpoints: `https://public-api.wordpress.com/oauth2/authorize`, `.../oauth2/token` (client id
 *   and secret in the form body: `client_secret_post`) and
 *   `GET https://public-api.wordpress.com/rest/v1/me`.
 * - Scope `auth` (the token then serves `/me` and nothing else). WordPress.com documents `state`
 *   and no PKCE.
 *
 * @see https://developer.wordpress.com/docs/oauth2/
 * @see https://developer.wordpress.com/docs/api/1/get/me/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { wordpressLogo } from "../logos/wordpress.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /rest/v1/me` (the fields sign-in uses). */
export interface WordPressProfile extends Profile {
  /** The numeric user id. */
  ID?: number;
  display_name?: string;
  username?: string;
  email?: string;
  primary_blog?: number;
  language?: string;
  avatar_URL?: string;
  profile_URL?: string;
  verified?: boolean;
  email_verified?: boolean;
  date?: string;
  site_count?: number;
}

/**
 * WordPress.com as a sign-in provider (`AUTH_WORDPRESS_ID`, `AUTH_WORDPRESS_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function WordPress<P extends WordPressProfile = WordPressProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "wordpress",
    name: "WordPress.com",
    type: "oauth",
    authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
    token: { url: "https://public-api.wordpress.com/oauth2/token" },
    userinfo: { url: "https://public-api.wordpress.com/rest/v1/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.ID),
        name: text(profile.display_name) ?? text(profile.username),
        email: text(profile.email),
        image: httpsUrl(profile.avatar_URL),
      };
    },
    style: { brandColor: "#21759b", logo: wordpressLogo },
  };
  return withUserOptions(defaults, options);
}

export { WordPress };
