/**
 * Sign in with Dribbble: OAuth 2 (API v2).
 *
 * - Endpoints: `https://dribbble.com/oauth/authorize`, `https://dribbble.com/oauth/token` (client
 *   id and secret in the body) and `GET https://api.dribbble.com/v2/user`.
 * - Scope `public` (read the user's public data); `upload` is the other scope (pass
 *   `scope: "public upload"`, as Auth.js's option, or `authorization.params.scope`). `state` is the
 *   documented protection against cross-site request forgery.
 * - Dribbble's user resource has no email address: the user's email is `null`.
 *
 * @see https://developer.dribbble.com/v2/oauth/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { dribbbleLogo } from "../logos/dribbble.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /v2/user`. */
export interface DribbbleProfile extends Profile {
  /** Dribbble sends the numeric user id; `Profile` types ids as strings, so read it through `String()`. */
  id?: string | null;
  name?: string;
  login?: string;
  html_url?: string;
  avatar_url?: string;
  bio?: string;
  location?: string | null;
  links?: Record<string, string>;
  can_upload_shot?: boolean;
  pro?: boolean;
  followers_count?: number;
  created_at?: string;
  type?: "Player" | "Team";
  teams?: unknown[];
}

/** Dribbble's options: any provider option, plus Auth.js's `scope`. */
export type DribbbleUserConfig<P extends DribbbleProfile = DribbbleProfile> = OAuthUserConfig<P> & {
  /** `public` (default), or `public upload`. */
  scope?: "public" | "public upload" | "upload";
};

/**
 * Dribbble as a sign-in provider (`AUTH_DRIBBBLE_ID`, `AUTH_DRIBBBLE_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Dribbble<P extends DribbbleProfile = DribbbleProfile>(options: DribbbleUserConfig<P> = {}): OAuth2Config<P> {
  const { scope, ...rest } = options;
  const defaults: OAuth2Config<P> = {
    id: "dribbble",
    name: "Dribbble",
    type: "oauth",
    authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope: scope ?? "public" } },
    token: { url: "https://dribbble.com/oauth/token" },
    userinfo: { url: "https://api.dribbble.com/v2/user" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? text(profile.login),
        email: null,
        image: httpsUrl(profile.avatar_url),
      };
    },
    style: { brandColor: "#ea4c89", logo: dribbbleLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { Dribbble };
