/**
 * Sign in with Zoom (a user-managed general app): OAuth 2 with PKCE.
 *
 * - Endpoints: `https://zoom.us/oauth/authorize`, `https://zoom.us/oauth/token` (client
 *   credentials in HTTP Basic) and `GET https://api.zoom.us/v2/users/me`.
 * - No scope parameter by default: Zoom grants the scopes configured on the app, and sign-in needs
 *   `user:read:user` (granular; `user:read` on older apps).
 *
 * @see https://developers.zoom.us/docs/integrations/oauth/
 * @see https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { zoomLogo } from "../logos/zoom.js";
import { httpsUrl, idOf, joinName, text, withUserOptions } from "./shared.js";

/** `GET /v2/users/me` (the fields sign-in uses). */
export interface ZoomProfile extends Profile {
  id: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  email?: string;
  type?: number;
  role_name?: string;
  pmi?: number;
  timezone?: string;
  verified?: number;
  dept?: string;
  pic_url?: string;
  language?: string;
  status?: string;
  account_id?: string;
}

/**
 * Zoom as a sign-in provider (`AUTH_ZOOM_ID`, `AUTH_ZOOM_SECRET`). Options win;
 * `authorization.params` merge with the defaults.
 */
export default function Zoom<P extends ZoomProfile = ZoomProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: { url: "https://zoom.us/oauth/authorize" },
    token: { url: "https://zoom.us/oauth/token" },
    userinfo: { url: "https://api.zoom.us/v2/users/me" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.display_name) ?? joinName(profile.first_name, profile.last_name),
        email: text(profile.email),
        image: httpsUrl(profile.pic_url),
      };
    },
    style: { brandColor: "#0b5cff", logo: zoomLogo },
  };
  return withUserOptions(defaults, options);
}

export { Zoom };
