/**
 * Sign in with Webex (an integration): OAuth 2.
 *
 * - Endpoints under `https://webexapis.com/v1` (Auth.js's `apiBaseUrl` moves them, e.g. for
 *   Webex for Government): `/authorize`, `/access_token` (client id and secret in the form body:
 *   `client_secret_post`) and `GET /people/me`.
 * - Scope `spark:kms spark:people_read`; Webex takes PKCE (S256) and `state`.
 * - A person has a list of `emails`; the first is the one they sign in with.
 *
 * @see https://developer.webex.com/docs/integrations
 * @see https://developer.webex.com/docs/api/v1/people/get-my-own-details
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { webexLogo } from "../logos/webex.js";
import { httpsUrl, idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** `GET /v1/people/me` (the fields sign-in uses). */
export interface WebexProfile extends Profile {
  id: string;
  emails?: string[];
  displayName?: string;
  nickName?: string;
  firstName?: string;
  lastName?: string;
  avatar?: string;
  orgId?: string;
  created?: string;
  type?: string;
}

/** Webex's options: any provider option, plus Auth.js's `apiBaseUrl`. */
export type WebexUserConfig<P extends WebexProfile = WebexProfile> = OAuthUserConfig<P> & {
  /** Where the Webex API lives; default `https://webexapis.com/v1`. */
  apiBaseUrl?: string;
};

/**
 * Webex as a sign-in provider (`AUTH_WEBEX_ID`, `AUTH_WEBEX_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Webex<P extends WebexProfile = WebexProfile>(options: WebexUserConfig<P> = {}): OAuth2Config<P> {
  const { apiBaseUrl, ...rest } = options;
  const api = withoutTrailingSlash(apiBaseUrl) ?? "https://webexapis.com/v1";
  const defaults: OAuth2Config<P> = {
    id: "webex",
    name: "Webex",
    type: "oauth",
    authorization: { url: `${api}/authorize`, params: { scope: "spark:kms spark:people_read" } },
    token: { url: `${api}/access_token` },
    userinfo: { url: `${api}/people/me` },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const emails = Array.isArray(profile.emails) ? profile.emails : [];
      return { id: idOf(profile.id), name: text(profile.displayName), email: text(emails[0]), image: httpsUrl(profile.avatar) };
    },
    style: { brandColor: "#0a6cbc", logo: webexLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { Webex };
