/**
 * Sign in with Eventbrite: OAuth 2 (server-side flow).
 *
 * - Endpoints: `https://www.eventbrite.com/oauth/authorize`, `https://www.eventbrite.com/oauth/token`
 *   (client id — the API key — and client secret in the body) and
 *   `GET https://www.eventbriteapi.com/v3/users/me/`.
 * - Eventbrite documents no scope parameter (an app's token reaches what its user can); Auth.js
 *   sent `scope=user.profile`, which Eventbrite ignores. `state` guards the callback.
 * - The user has a list of `emails`; the primary verified one is used, else any verified one,
 *   never an unverified address. `image_id` names an image without a URL: no image.
 *
 * @see https://www.eventbrite.com/platform/docs/authentication
 * @see https://www.eventbrite.com/platform/api#/reference/user/retrieve-your-user
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { eventbriteLogo } from "../logos/eventbrite.js";
import { idOf, joinName, record, text, withUserOptions } from "./shared.js";

/** `GET /v3/users/me/`. */
export interface EventbriteProfile extends Profile {
  id: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  is_public?: boolean;
  image_id?: string | null;
  emails?: { email: string; verified: boolean; primary: boolean }[];
}

/** The address to keep of Eventbrite's `emails`: primary and verified, else any verified one. */
export function pickEventbriteEmail(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null;
  const verified = emails.map(record).filter((entry) => text(entry.email) !== null && entry.verified === true);
  const chosen = verified.find((entry) => entry.primary === true) ?? verified[0];
  return chosen ? (chosen.email as string) : null;
}

/**
 * Eventbrite as a sign-in provider (`AUTH_EVENTBRITE_ID`, `AUTH_EVENTBRITE_SECRET`). Options win;
 * `authorization.params` merge key by key.
 */
export default function Eventbrite<P extends EventbriteProfile = EventbriteProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "eventbrite",
    name: "Eventbrite",
    type: "oauth",
    authorization: { url: "https://www.eventbrite.com/oauth/authorize", params: {} },
    token: { url: "https://www.eventbrite.com/oauth/token" },
    userinfo: { url: "https://www.eventbriteapi.com/v3/users/me/" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? joinName(profile.first_name, profile.last_name),
        email: pickEventbriteEmail(profile.emails),
        image: null,
      };
    },
    style: { brandColor: "#f05537", logo: eventbriteLogo },
  };
  return withUserOptions(defaults, options);
}

export { Eventbrite };
