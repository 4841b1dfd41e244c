/**
 * Sign in with Box: OAuth 2 (a Platform App using user authentication).
 *
 * - Endpoints: `https://account.box.com/api/oauth2/authorize`, `https://api.box.com/oauth2/token`
 *   (client id and secret in the body) and `GET https://api.box.com/2.0/users/me`.
 * - No scope parameter by default: the app's scopes are chosen in the Box developer console.
 *   `state` is the documented protection against cross-site request forgery.
 * - The user's `login` is their email address; `avatar_url` their photo.
 * - Enterprises with Box Verified Enterprise sign in at `ent.box.com`: pass
 *   `authorization: "https://ent.box.com/api/oauth2/authorize"`.
 *
 * @see https://developer.box.com/guides/authentication/oauth2/without-sdk/
 * @see https://developer.box.com/reference/get-users-me/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { boxLogo } from "../logos/box.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /2.0/users/me` (standard fields). */
export interface BoxProfile extends Profile {
  type?: "user";
  id: string;
  name?: string;
  /** The primary email address, which is the sign-in name. */
  login?: string;
  created_at?: string;
  modified_at?: string;
  language?: string;
  timezone?: string;
  space_amount?: number;
  space_used?: number;
  max_upload_size?: number;
  status?: string;
  job_title?: string;
  phone?: string;
  address?: string;
  avatar_url?: string;
}

/**
 * Box as a sign-in provider (`AUTH_BOX_ID`, `AUTH_BOX_SECRET`). Options win; `authorization.params`
 * merge key by key.
 */
export default function Box<P extends BoxProfile = BoxProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "box",
    name: "Box",
    type: "oauth",
    authorization: { url: "https://account.box.com/api/oauth2/authorize", params: {} },
    token: { url: "https://api.box.com/oauth2/token" },
    userinfo: { url: "https://api.box.com/2.0/users/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? text(profile.login),
        email: text(profile.login),
        image: httpsUrl(profile.avatar_url),
      };
    },
    style: { brandColor: "#0061d5", logo: boxLogo },
  };
  return withUserOptions(defaults, options);
}

export { Box };
