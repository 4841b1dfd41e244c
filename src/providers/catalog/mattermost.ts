/**
 * Sign in with Mattermost (as OAuth 2.0 service provider): OAuth 2 against your server.
 *
 * - The server's URL (`https://chat.example.com`) is the `issuer`, as in Auth.js: pass it or set
 *   `AUTH_MATTERMOST_ISSUER` and list the provider bare. Without it there are no endpoints and the
 *   sign-in is refused at start-up.
 * - Endpoints `<issuer>/oauth/authorize`, `<issuer>/oauth/access_token` (client credentials in the
 *   body) and `GET <issuer>/api/v4/users/me`. The system admin must enable "OAuth 2.0 Service
 *   Provider"; Mattermost has no scopes, and protects the callback with `state`.
 * - The profile image needs a token (`/api/v4/users/{id}/image`), so `image` is left empty.
 *
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 * @see https://api.mattermost.com/#tag/users/operation/GetUser
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { mattermostLogo } from "../logos/mattermost.js";
import { idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** `GET /api/v4/users/me` (the fields sign-in uses and a few more). */
export interface MattermostProfile extends Profile {
  id: string;
  username: string;
  email?: string;
  email_verified?: boolean;
  nickname?: string;
  first_name?: string;
  last_name?: string;
  position?: string;
  roles?: string;
  locale?: string;
  auth_service?: string;
  create_at?: number;
  update_at?: number;
  delete_at?: number;
}

/**
 * Mattermost as a sign-in provider (`AUTH_MATTERMOST_ID`, `_SECRET`, `_ISSUER`). Options win;
 * endpoints follow `issuer`.
 */
export default function Mattermost<P extends MattermostProfile = MattermostProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const issuer = withoutTrailingSlash(options.issuer);
  const defaults: OAuth2Config<P> = {
    id: "mattermost",
    name: "Mattermost",
    type: "oauth",
    ...(issuer
      ? {
          authorization: { url: `${issuer}/oauth/authorize` },
          token: { url: `${issuer}/oauth/access_token` },
          userinfo: { url: `${issuer}/api/v4/users/me` },
        }
      : { authorization: {} }),
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: joinName(profile.first_name, profile.last_name) ?? text(profile.nickname) ?? text(profile.username),
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#1e325c", logo: mattermostLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { Mattermost };
