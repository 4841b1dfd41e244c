/**
 * Sign in with an IdentityServer4 (or Duende IdentityServer) server: OpenID Connect, discovered
 * from its issuer.
 *
 * - The issuer is the server's base URL (`https://demo.duendesoftware.com`): pass it as `issuer` or
 *   set `AUTH_IDENTITY_SERVER4_ISSUER`. Discovery gives `/connect/authorize`, `/connect/token`,
 *   `/connect/userinfo` and `/.well-known/openid-configuration/jwks`.
 * - Scope `openid profile email`. IdentityServer keeps most claims out of the ID token unless the
 *   client sets `AlwaysIncludeUserClaimsInIdToken`; the profile is the ID token's claims.
 * - PKCE is supported (and required by default for code clients in Duende's templates).
 * - IdentityServer4 itself reached end of life in 2022; the same settings work with its successor.
 *
 * @see https://identityserver4.readthedocs.io/en/latest/endpoints/discovery.html
 * @see https://identityserver4.readthedocs.io/en/latest/endpoints/authorize.html
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { identityServer4Logo } from "../logos/identity-server4.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of an IdentityServer ID token (the standard ones; servers add their own). */
export interface IdentityServer4Profile extends StandardClaims {
  idp?: string;
  amr?: string[];
  auth_time?: number;
  sid?: string;
}

/**
 * IdentityServer4 as a sign-in provider (`AUTH_IDENTITY_SERVER4_ID`, `_SECRET`, `_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function IdentityServer4<P extends IdentityServer4Profile = IdentityServer4Profile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "identity-server4",
    name: "IdentityServer4",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "nonce"],
    profile: (profile) => userFromStandardClaims(profile),
    style: { brandColor: "#2d6db5", logo: identityServer4Logo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { IdentityServer4 };
