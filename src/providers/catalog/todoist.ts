/**
 * Sign in with Todoist: OAuth 2 against the Todoist API v1.
 *
 * - Endpoints: `https://app.todoist.com/oauth/authorize`, `https://api.todoist.com/oauth/access_token`
 *   (client id and secret in the form body: `client_secret_post`; Todoist does not read a
 *   redirect_uri there, the app's registered one applies) and `GET https://api.todoist.com/api/v1/user`.
 * - Scope `data:read` (the narrowest one that reads the user). Todoist requires `state` and
 *   documents no PKCE.
 *
 * @see https://developer.todoist.com/api/v1/#tag/Authorization
 * @see https://developer.todoist.com/api/v1/#tag/User
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { todoistLogo } from "../logos/todoist.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /api/v1/user` (the fields sign-in uses). */
export interface TodoistProfile extends Profile {
  id: string;
  email?: string;
  full_name?: string;
  avatar_big?: string | null;
  avatar_medium?: string | null;
  avatar_small?: string | null;
  lang?: string;
  is_premium?: boolean;
  inbox_project_id?: string;
  tz_info?: Record<string, unknown>;
}

/**
 * Todoist as a sign-in provider (`AUTH_TODOIST_ID`, `AUTH_TODOIST_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Todoist<P extends TodoistProfile = TodoistProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "todoist",
    name: "Todoist",
    type: "oauth",
    authorization: { url: "https://app.todoist.com/oauth/authorize", params: { scope: "data:read" } },
    token: { url: "https://api.todoist.com/oauth/access_token" },
    userinfo: { url: "https://api.todoist.com/api/v1/user" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.full_name),
        email: text(profile.email),
        image: httpsUrl(profile.avatar_big) ?? httpsUrl(profile.avatar_medium),
      };
    },
    style: { brandColor: "#e44332", logo: todoistLogo },
  };
  return withUserOptions(defaults, options);
}

export { Todoist };
