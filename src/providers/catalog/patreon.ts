/**
 * Sign in with Patreon: OAuth 2 (API v2).
 *
 * - Endpoints: `https://www.patreon.com/oauth2/authorize`, `https://www.patreon.com/api/oauth2/token`
 *   (client credentials in the body) and
 *   `GET https://www.patreon.com/api/oauth2/v2/identity?fields[user]=email,full_name,image_url`
 *   (v2 returns only the fields asked for).
 * - Scope `identity identity[email]`.
 *
 * @see https://docs.patreon.com/#oauth
 * @see https://docs.patreon.com/#get-api-oauth2-v2-identity
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { patreonLogo } from "../logos/patreon.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /api/oauth2/v2/identity` (a JSON:API document). */
export interface PatreonProfile extends Profile {
  data: {
    id: string;
    type: "user";
    attributes?: {
      email?: string;
      full_name?: string;
      first_name?: string;
      last_name?: string;
      image_url?: string;
      thumb_url?: string;
      is_email_verified?: boolean;
      vanity?: string | null;
      url?: string;
      [attribute: string]: unknown;
    };
  };
  links?: { self?: string };
}

/**
 * Patreon as a sign-in provider (`AUTH_PATREON_ID`, `AUTH_PATREON_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Patreon<P extends PatreonProfile = PatreonProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "patreon",
    name: "Patreon",
    type: "oauth",
    authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
    token: { url: "https://www.patreon.com/api/oauth2/token" },
    userinfo: {
      url: "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name,image_url,is_email_verified",
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const data = record(profile.data);
      const attributes = record(data.attributes);
      return {
        id: idOf(data.id),
        name: text(attributes.full_name),
        email: text(attributes.email),
        image: httpsUrl(attributes.image_url),
      };
    },
    style: { brandColor: "#ff424d", logo: patreonLogo },
  };
  return withUserOptions(defaults, options);
}

export { Patreon };
