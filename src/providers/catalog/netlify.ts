/**
 * Sign in with Netlify: OAuth 2.
 *
 * - Endpoints: `https://app.netlify.com/authorize`, `https://api.netlify.com/oauth/token` and the
 *   API's `GET https://api.netlify.com/api/v1/user`.
 * - Netlify has no scopes: a token acts for the user on everything they can reach, so the
 *   authorization request sends none. No PKCE is documented: `state` protects the callback.
 *
 * @see https://docs.netlify.com/api/get-started/#authentication
 * @see https://open-api.netlify.com/#tag/user/operation/getCurrentUser
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { netlifyLogo } from "../logos/netlify.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /api/v1/user`. */
export interface NetlifyProfile extends Profile {
  id: string;
  uid?: string;
  full_name?: string | null;
  avatar_url?: string | null;
  email?: string;
  affiliate_id?: string;
  site_count?: number;
  created_at?: string;
  last_login?: string;
  login_providers?: string[];
}

/** Netlify as a sign-in provider (`AUTH_NETLIFY_ID`, `AUTH_NETLIFY_SECRET`). Options win. */
export default function Netlify<P extends NetlifyProfile = NetlifyProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "netlify",
    name: "Netlify",
    type: "oauth",
    authorization: { url: "https://app.netlify.com/authorize" },
    token: { url: "https://api.netlify.com/oauth/token" },
    userinfo: { url: "https://api.netlify.com/api/v1/user" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.full_name),
        email: text(profile.email),
        image: httpsUrl(profile.avatar_url),
      };
    },
    style: { brandColor: "#00ad9f", logo: netlifyLogo },
  };
  return withUserOptions(defaults, options);
}

export { Netlify };
