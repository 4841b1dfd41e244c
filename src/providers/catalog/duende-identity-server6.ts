/**
 * Sign in with Duende IdentityServer (v6 and later): OpenID Connect against your own server.
 *
 * - The issuer is the server's base URL (e.g. `https://demo.duendesoftware.com`): pass it as
 *   `issuer` or set `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`. Endpoints (`/connect/authorize`,
 *   `/connect/token`, `/connect/userinfo`) and keys are discovered from it.
 * - Scope `openid profile email`. IdentityServer keeps ID tokens small: unless a client sets
 *   `AlwaysIncludeUserClaimsInIdToken`, the identity claims (`name`, `email`, `picture`...) are
 *   served by the userinfo endpoint, so the profile is read there (`idToken: false`; the ID token
 *   is still validated). PKCE is supported (and required for clients by default).
 *
 * @see https://docs.duendesoftware.com/identityserver/reference/endpoints/discovery/
 * @see https://docs.duendesoftware.com/identityserver/reference/endpoints/userinfo/
 * @see https://docs.duendesoftware.com/identityserver/reference/models/client/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { duendeIdentityServer6Logo } from "../logos/duende-identity-server6.js";
import { standardClaimsUser, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The userinfo answer for the `openid profile email` scopes. */
export interface DuendeISUserProfile extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  website?: string;
}

/**
 * Duende IdentityServer as a sign-in provider (`AUTH_DUENDE_IDENTITY_SERVER6_ID`, `..._SECRET`,
 * `..._ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function DuendeIdentityServer6<P extends DuendeISUserProfile = DuendeISUserProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "duende-identity-server6",
    name: "DuendeIdentityServer6",
    type: "oidc",
    idToken: false,
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "nonce"],
    profile: (profile) => standardClaimsUser(profile),
    style: { brandColor: "#1e3a5f", logo: duendeIdentityServer6Logo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { DuendeIdentityServer6 };
