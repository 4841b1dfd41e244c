/**
 * Sign in with Kinde: OpenID Connect against your Kinde business domain.
 *
 * - The issuer is your business's domain, `https://<business>.kinde.com` or a custom domain: pass
 *   it as `issuer` or set `AUTH_KINDE_ISSUER`. Discovery gives `/oauth2/auth`, `/oauth2/token`,
 *   `/oauth2/v2/user_profile` and the keys at `/.well-known/jwks`.
 * - Scope `openid profile email offline`; the ID token carries `sub` (`kp_...`), `given_name`,
 *   `family_name`, `name`, `email` and `picture`. Kinde supports PKCE, and wants `state`.
 * - Add `org_code` to `authorization.params` to sign a user into one organisation.
 *
 * @see https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 * @see https://docs.kinde.com/build/tokens/about-id-tokens/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { kindeLogo } from "../logos/kinde.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Kinde ID token. */
export interface KindeProfile extends StandardClaims {
  org_codes?: string[];
  auth_time?: number;
  at_hash?: string;
}

/**
 * Kinde as a sign-in provider (`AUTH_KINDE_ID`, `AUTH_KINDE_SECRET`, `AUTH_KINDE_ISSUER`). Options
 * win; `authorization.params` merge with the default scope.
 */
export default function Kinde<P extends KindeProfile = KindeProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "kinde",
    name: "Kinde",
    type: "oidc",
    authorization: { params: { scope: "openid profile email offline" } },
    checks: ["pkce", "state"],
    profile: (profile) => userFromStandardClaims(profile),
    style: { brandColor: "#0f0f0f", logo: kindeLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Kinde };
