/**
 * Sign in with FreshBooks: OAuth 2.
 *
 * - Endpoints: `https://auth.freshbooks.com/oauth/authorize`,
 *   `https://api.freshbooks.com/auth/oauth/token` (client credentials in the body) and the
 *   identity endpoint `GET https://api.freshbooks.com/auth/api/v1/users/me`, whose answer wraps the
 *   identity in `response`.
 * - Scopes are chosen on the app; `user:profile:read` is the one sign-in needs and is sent. No
 *   PKCE is documented: `state` protects the callback.
 *
 * @see https://www.freshbooks.com/api/authentication
 * @see https://www.freshbooks.com/api/me_endpoint
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { freshbooksLogo } from "../logos/freshbooks.js";
import { idOf, joinName, record, text, withUserOptions } from "./shared.js";

/** `GET /auth/api/v1/users/me`. */
export interface FreshbooksProfile extends Profile {
  response: {
    id: number;
    identity_id?: number;
    identity_uuid?: string;
    first_name?: string | null;
    last_name?: string | null;
    email?: string;
    language?: string;
    confirmed_at?: string | null;
    created_at?: string;
    business_memberships?: unknown[];
    roles?: unknown[];
  };
}

/** FreshBooks as a sign-in provider (`AUTH_FRESHBOOKS_ID`, `AUTH_FRESHBOOKS_SECRET`). Options win. */
export default function Freshbooks<P extends FreshbooksProfile = FreshbooksProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "freshbooks",
    name: "FreshBooks",
    type: "oauth",
    authorization: { url: "https://auth.freshbooks.com/oauth/authorize", params: { scope: "user:profile:read" } },
    token: { url: "https://api.freshbooks.com/auth/oauth/token" },
    userinfo: { url: "https://api.freshbooks.com/auth/api/v1/users/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.response);
      return {
        id: idOf(user.id),
        name: joinName(user.first_name, user.last_name),
        email: text(user.email),
        image: null,
      };
    },
    style: { brandColor: "#0075dd", logo: freshbooksLogo },
  };
  return withUserOptions(defaults, options);
}

export { Freshbooks };
