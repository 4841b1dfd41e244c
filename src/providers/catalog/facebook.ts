/**
 * Sign in with Facebook (Facebook Login, manual flow): OAuth 2.
 *
 * - Endpoints: `https://www.facebook.com/dialog/oauth`, `https://graph.facebook.com/oauth/access_token`
 *   and `GET https://graph.facebook.com/me?fields=id,name,email,picture`. They are unversioned, so
 *   Graph answers with the app's default API version; pin one by overriding the URLs
 *   (`https://www.facebook.com/v23.0/dialog/oauth`, ...).
 * - Scope `email public_profile`. `email` is absent for accounts without a confirmed address.
 * - Facebook reads the client credentials from the request body (`client_secret_post`).
 *
 * @see https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 * @see https://developers.facebook.com/docs/graph-api/reference/user
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { facebookLogo } from "../logos/facebook.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /me?fields=id,name,email,picture`. */
export interface FacebookProfile extends Profile {
  /** The app-scoped user id. */
  id: string;
  name?: string;
  email?: string;
  picture?: { data?: { url?: string; height?: number; width?: number; is_silhouette?: boolean } };
}

/**
 * Facebook as a sign-in provider (`AUTH_FACEBOOK_ID`, `AUTH_FACEBOOK_SECRET`). Options win;
 * `authorization.params` merge with the default scope; `userinfo.url` may ask for more fields.
 */
export default function Facebook<P extends FacebookProfile = FacebookProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email public_profile" } },
    token: { url: "https://graph.facebook.com/oauth/access_token" },
    userinfo: { url: "https://graph.facebook.com/me?fields=id,name,email,picture" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(record(record(profile.picture).data).url),
      };
    },
    style: { brandColor: "#0866ff", logo: facebookLogo },
  };
  return withUserOptions(defaults, options);
}

export { Facebook };
