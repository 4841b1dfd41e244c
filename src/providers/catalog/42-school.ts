/**
 * Sign in with 42 (the 42 network's intranet): OAuth 2, the "web application flow" of the 42 API.
 *
 * - Endpoints: `https://api.intra.42.fr/oauth/authorize`, `https://api.intra.42.fr/oauth/token`
 *   (client id and secret in the body) and `GET https://api.intra.42.fr/v2/me`.
 * - Scope `public` (the API's base scope; without one, 42 grants an empty list). `state` is the
 *   documented protection against cross-site request forgery.
 * - The profile: the numeric `id`, `login`, `email`, `usual_full_name` (the name the student goes
 *   by) or `displayname`, and the photo in `image.link` (older answers: `image_url`).
 *
 * @see https://api.intra.42.fr/apidoc/guides/web_application_flow
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { fortyTwoSchoolLogo } from "../logos/42-school.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /v2/me` (the fields sign-in uses; 42 sends the whole intranet record). */
export interface FortyTwoProfile extends Profile {
  /** 42 sends the numeric user id; `Profile` types ids as strings, so read it through `String()`. */
  id?: string | null;
  email?: string;
  login?: string;
  first_name?: string;
  last_name?: string;
  usual_full_name?: string | null;
  usual_first_name?: string | null;
  displayname?: string;
  url?: string;
  phone?: string;
  /** The photo and its sizes. */
  image?: { link?: string | null; versions?: { large?: string; medium?: string; small?: string; micro?: string } };
  /** The photo, in older answers. */
  image_url?: string;
  "staff?"?: boolean;
  pool_month?: string;
  pool_year?: string;
  campus?: unknown[];
  cursus_users?: unknown[];
}

/**
 * 42 as a sign-in provider (`AUTH_42_SCHOOL_ID`, `AUTH_42_SCHOOL_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function FortyTwoSchool<P extends FortyTwoProfile = FortyTwoProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "42-school",
    name: "42 School",
    type: "oauth",
    authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
    token: { url: "https://api.intra.42.fr/oauth/token" },
    userinfo: { url: "https://api.intra.42.fr/v2/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.usual_full_name) ?? text(profile.displayname) ?? text(profile.login),
        email: text(profile.email),
        image: httpsUrl(record(profile.image).link) ?? httpsUrl(profile.image_url),
      };
    },
    style: { brandColor: "#000000", logo: fortyTwoSchoolLogo },
  };
  return withUserOptions(defaults, options);
}

export { FortyTwoSchool };
