/**
 * Sign in with Atlassian (OAuth 2.0 3LO apps for Jira and Confluence Cloud): OAuth 2.
 *
 * - Endpoints: `https://auth.atlassian.com/authorize` (with `audience=api.atlassian.com` and
 *   `prompt=consent`), `https://auth.atlassian.com/oauth/token` (client credentials in the body)
 *   and `GET https://api.atlassian.com/me`.
 * - Scope `read:me read:account`; add `offline_access` for a refresh token.
 * - Atlassian requires `state` and documents no PKCE for confidential apps.
 *
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 * @see https://developer.atlassian.com/cloud/confluence/user-identity-for-apps/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { atlassianLogo } from "../logos/atlassian.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET https://api.atlassian.com/me`. */
export interface AtlassianProfile extends Profile {
  account_id: string;
  account_type?: string;
  account_status?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  nickname?: string;
  picture?: string;
  locale?: string;
  zoneinfo?: string;
  extended_profile?: { job_title?: string; organization?: string; department?: string; location?: string };
}

/**
 * Atlassian as a sign-in provider (`AUTH_ATLASSIAN_ID`, `AUTH_ATLASSIAN_SECRET`). Options win;
 * `authorization.params` merge with the defaults (`audience`, `prompt`, `scope`).
 */
export default function Atlassian<P extends AtlassianProfile = AtlassianProfile>(
  options: OAuthUserConfig<P> = {},
): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    authorization: {
      url: "https://auth.atlassian.com/authorize",
      params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me read:account" },
    },
    token: { url: "https://auth.atlassian.com/oauth/token" },
    userinfo: { url: "https://api.atlassian.com/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.account_id),
        name: text(profile.name) ?? text(profile.nickname),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#0052cc", logo: atlassianLogo },
  };
  return withUserOptions(defaults, options);
}

export { Atlassian };
