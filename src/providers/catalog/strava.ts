/**
 * Sign in with Strava: OAuth 2.
 *
 * - Endpoints: `https://www.strava.com/oauth/authorize`, `https://www.strava.com/oauth/token`
 *   (client credentials in the body) and `GET https://www.strava.com/api/v3/athlete`.
 * - Scope `read` (Strava separates scopes with commas), `approval_prompt=auto`.
 * - Strava shares no email. An athlete without a photo has a relative placeholder path in
 *   `profile`, which is not used as an image.
 *
 * @see https://developers.strava.com/docs/authentication/
 * @see https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { stravaLogo } from "../logos/strava.js";
import { httpsUrl, idOf, joinName, text, withUserOptions } from "./shared.js";

/** `GET /api/v3/athlete` (summary fields). */
export interface StravaProfile extends Profile {
  /** Strava sends the numeric athlete id; `Profile` types ids as strings, so read it through `String()`. */
  id?: string | null;
  username?: string | null;
  resource_state?: number;
  firstname?: string;
  lastname?: string;
  bio?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  sex?: "M" | "F" | null;
  premium?: boolean;
  summit?: boolean;
  created_at?: string;
  updated_at?: string;
  /** Photo URL (124×124), or a relative placeholder path. */
  profile?: string;
  profile_medium?: string;
}

/**
 * Strava as a sign-in provider (`AUTH_STRAVA_ID`, `AUTH_STRAVA_SECRET`). Options win;
 * `authorization.params` merge with the defaults (`scope`, `approval_prompt`).
 */
export default function Strava<P extends StravaProfile = StravaProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "strava",
    name: "Strava",
    type: "oauth",
    authorization: { url: "https://www.strava.com/oauth/authorize", params: { scope: "read", approval_prompt: "auto" } },
    token: { url: "https://www.strava.com/oauth/token" },
    userinfo: { url: "https://www.strava.com/api/v3/athlete" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: joinName(profile.firstname, profile.lastname) ?? text(profile.username),
        email: null,
        image: httpsUrl(profile.profile) ?? httpsUrl(profile.profile_medium),
      };
    },
    style: { brandColor: "#fc4c02", logo: stravaLogo },
  };
  return withUserOptions(defaults, options);
}

export { Strava };
