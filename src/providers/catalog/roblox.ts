/**
 * Sign in with Roblox: OpenID Connect, discovered from `https://apis.roblox.com/oauth/`.
 *
 * - Scope `openid profile` (Roblox accounts expose no email to apps). PKCE (S256) and `state`;
 *   the client authenticates with HTTP Basic (Roblox also takes the credentials in the body).
 * - Roblox signs its ID tokens with ES256, which its discovery document states
 *   (`id_token_signing_alg_values_supported`); the client is set to expect it.
 * - The ID token carries `name`, `nickname`, `preferred_username`, `created_at` and `profile`;
 *   the avatar (`picture`) is only in the userinfo answer, so the profile is read from userinfo
 *   (`idToken: false`; the ID token is still validated).
 *
 * @see https://create.roblox.com/docs/cloud/auth/oauth2-reference
 * @see https://create.roblox.com/docs/cloud/auth/oauth2-overview
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { robloxLogo } from "../logos/roblox.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** The userinfo answer (and ID token claims) with scope `openid profile`. */
export interface RobloxProfile extends Profile {
  /** The Roblox user id. */
  sub: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  created_at?: number;
  profile?: string;
  picture?: string | null;
}

/**
 * Roblox as a sign-in provider (`AUTH_ROBLOX_ID`, `AUTH_ROBLOX_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Roblox<P extends RobloxProfile = RobloxProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "roblox",
    name: "Roblox",
    type: "oidc",
    issuer: "https://apis.roblox.com/oauth/",
    authorization: { params: { scope: "openid profile" } },
    client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "ES256" },
    idToken: false,
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.nickname) ?? text(profile.name) ?? text(profile.preferred_username),
        email: null,
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#000000", logo: robloxLogo },
  };
  return withUserOptions(defaults, options);
}

export { Roblox };
