/**
 * Sign in with Pinterest: OAuth 2 against API v5.
 *
 * - Endpoints: `https://www.pinterest.com/oauth/`, `https://api.pinterest.com/v5/oauth/token`
 *   (client id and secret in HTTP Basic: `client_secret_basic`) and
 *   `GET https://api.pinterest.com/v5/user_account`.
 * - Scope `user_accounts:read`; Pinterest documents `state` and no PKCE.
 * - The account id is the `username`, as in Auth.js, so accounts linked under Auth.js keep
 *   matching. A Pinterest account has no email in the API: users sign in with `email: null`.
 *
 * @see https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/
 * @see https://developers.pinterest.com/docs/api/v5/user_account-get/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { pinterestLogo } from "../logos/pinterest.js";
import { httpsUrl, text, withUserOptions } from "./shared.js";

/** `GET /v5/user_account`. */
export interface PinterestProfile extends Profile {
  account_type?: "PINNER" | "BUSINESS";
  id?: string;
  profile_image?: string;
  website_url?: string;
  username: string;
  about?: string;
  business_name?: string | null;
  board_count?: number;
  pin_count?: number;
  follower_count?: number;
  following_count?: number;
  monthly_views?: number;
}

/**
 * Pinterest as a sign-in provider (`AUTH_PINTEREST_ID`, `AUTH_PINTEREST_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Pinterest<P extends PinterestProfile = PinterestProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "pinterest",
    name: "Pinterest",
    type: "oauth",
    authorization: { url: "https://www.pinterest.com/oauth/", params: { scope: "user_accounts:read" } },
    token: { url: "https://api.pinterest.com/v5/oauth/token" },
    userinfo: { url: "https://api.pinterest.com/v5/user_account" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      const username = text(profile.username);
      return { id: username ?? undefined, name: text(profile.business_name) ?? username, email: null, image: httpsUrl(profile.profile_image) };
    },
    style: { brandColor: "#e60023", logo: pinterestLogo },
  };
  return withUserOptions(defaults, options);
}

export { Pinterest };
