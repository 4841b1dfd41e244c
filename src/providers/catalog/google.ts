/**
 * Sign in with Google: OpenID Connect, discovered from `https://accounts.google.com`.
 *
 * - Scope `openid email profile`; the profile comes from the ID token (`sub`, `name`, `email`,
 *   `email_verified`, `picture`). PKCE is supported.
 * - For a refresh token add `access_type: "offline"` and `prompt: "consent"` to
 *   `authorization.params` (they merge with the defaults).
 * - `hd` in the ID token names the Google Workspace domain; check it in the `signIn` callback when
 *   only one domain may sign in (the `hd` authorization param is a hint, not a restriction).
 *
 * @see https://developers.google.com/identity/openid-connect/openid-connect
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { googleLogo } from "../logos/google.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** The claims of a Google ID token. */
export interface GoogleProfile extends Profile {
  iss: string;
  azp?: string;
  aud: string;
  sub: string;
  email?: string;
  email_verified?: boolean;
  /** The Google Workspace domain of the account, when it has one. */
  hd?: string;
  at_hash?: string;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  iat: number;
  exp: number;
}

/**
 * Google as a sign-in provider (`AUTH_GOOGLE_ID`, `AUTH_GOOGLE_SECRET`). Options win;
 * `authorization.params` merge with the default `scope`.
 */
export default function Google<P extends GoogleProfile = GoogleProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    authorization: { params: { scope: "openid email profile" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#4285f4", logo: googleLogo },
  };
  return withUserOptions(defaults, options);
}

export { Google };
