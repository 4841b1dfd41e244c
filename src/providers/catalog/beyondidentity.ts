/**
 * Sign in with Beyond Identity (passwordless, device-bound passkeys): OpenID Connect against an
 * application of a realm.
 *
 * - The issuer is the application's:
 *   `https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<application>`
 *   (`us` or `eu`): pass it as `issuer` or set `AUTH_BEYONDIDENTITY_ISSUER`. Endpoints and keys are
 *   discovered from it.
 * - Scope `openid email`; the ID token carries `sub`, `name`, `preferred_username` and `email`
 *   (the identity's attributes). PKCE is supported.
 *
 * @see https://developer.beyondidentity.com/docs/authentication/oidc
 * @see https://developer.beyondidentity.com/docs/integrations/nextauth
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { beyondidentityLogo } from "../logos/beyondidentity.js";
import { idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Beyond Identity ID token. */
export interface BeyondIdentityProfile extends Profile {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  iss?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
}

/**
 * Beyond Identity as a sign-in provider (`AUTH_BEYONDIDENTITY_ID`, `AUTH_BEYONDIDENTITY_SECRET`,
 * `AUTH_BEYONDIDENTITY_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function BeyondIdentity<P extends BeyondIdentityProfile = BeyondIdentityProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "beyondidentity",
    name: "Beyond Identity",
    type: "oidc",
    authorization: { params: { scope: "openid email" } },
    checks: ["pkce", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#5077c5", logo: beyondidentityLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { BeyondIdentity };
