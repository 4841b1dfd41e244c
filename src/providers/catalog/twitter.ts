/**
 * Sign in with X (formerly Twitter): OAuth 2.0 authorization code flow with PKCE (X API v2).
 *
 * - Endpoints: `https://x.com/i/oauth2/authorize`, `https://api.x.com/2/oauth2/token` and
 *   `GET https://api.x.com/2/users/me?user.fields=profile_image_url`.
 * - Scope `users.read tweet.read offline.access` (`users.read` needs `tweet.read`; `offline.access`
 *   returns a refresh token). A confidential client authenticates with HTTP Basic.
 * - X shares an email only with the `users.email` scope, asked for as the `confirmed_email` user
 *   field: `{ authorization: { params: { scope: "users.read tweet.read users.email" } }, userinfo:
 *   "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email" }`.
 *
 * @see https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 * @see https://docs.x.com/x-api/users/user-lookup-me
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { twitterLogo } from "../logos/twitter.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /2/users/me` — the user is under `data`. */
export interface TwitterProfile extends Profile {
  data: {
    id: string;
    name?: string;
    username: string;
    profile_image_url?: string;
    /** With the `users.email` scope and the `confirmed_email` field. */
    confirmed_email?: string;
    [field: string]: unknown;
  };
  [key: string]: unknown;
}

/**
 * X as a sign-in provider (`AUTH_TWITTER_ID`, `AUTH_TWITTER_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Twitter<P extends TwitterProfile = TwitterProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "twitter",
    name: "X",
    type: "oauth",
    authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
    token: { url: "https://api.x.com/2/oauth2/token" },
    userinfo: { url: "https://api.x.com/2/users/me?user.fields=profile_image_url" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      const user = record(profile.data);
      return {
        id: idOf(user.id),
        name: text(user.name) ?? text(user.username),
        email: text(user.confirmed_email),
        image: httpsUrl(user.profile_image_url),
      };
    },
    style: { brandColor: "#000000", logo: twitterLogo },
  };
  return withUserOptions(defaults, options);
}

export { Twitter, Twitter as X };
