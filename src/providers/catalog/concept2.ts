/**
 * Sign in with Concept2 (the Concept2 Logbook): OAuth 2.
 *
 * - Endpoints: `https://log.concept2.com/oauth/authorize`, `https://log.concept2.com/oauth/access_token`
 *   (client id and secret in the body) and `GET https://log.concept2.com/api/users/me`.
 * - Scope `user:read,results:write` (Concept2 separates scopes with commas), Auth.js's default;
 *   sign-in itself needs only `user:read`. `state` guards the callback.
 * - The user resource wraps the user in `data`.
 *
 * @see https://log.concept2.com/developers/documentation/#authentication
 * @see https://log.concept2.com/developers/documentation/#logbook-users
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { concept2Logo } from "../logos/concept2.js";
import { httpsUrl, idOf, joinName, record, text, withUserOptions } from "./shared.js";

/** `GET /api/users/me`. */
export interface Concept2Profile extends Profile {
  data: {
    /** Concept2 sends the numeric user id. */
    id: number | string;
    username?: string;
    first_name?: string;
    last_name?: string;
    gender?: string;
    dob?: string;
    email?: string;
    country?: string;
    profile_image?: string | null;
    age_restricted?: boolean;
    email_permission?: boolean | null;
    max_heart_rate?: number | null;
    weight?: number | null;
    logbook_privacy?: string | null;
  };
}

/**
 * Concept2 as a sign-in provider (`AUTH_CONCEPT2_ID`, `AUTH_CONCEPT2_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Concept2<P extends Concept2Profile = Concept2Profile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "concept2",
    name: "Concept2",
    type: "oauth",
    authorization: { url: "https://log.concept2.com/oauth/authorize", params: { scope: "user:read,results:write" } },
    token: { url: "https://log.concept2.com/oauth/access_token" },
    userinfo: { url: "https://log.concept2.com/api/users/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.data);
      return {
        id: idOf(user.id),
        name: joinName(user.first_name, user.last_name) ?? text(user.username),
        email: text(user.email),
        image: httpsUrl(user.profile_image),
      };
    },
    style: { brandColor: "#003a70", logo: concept2Logo },
  };
  return withUserOptions(defaults, options);
}

export { Concept2 };
