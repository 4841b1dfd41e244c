/**
 * Sign in with Keycloak: OpenID Connect against a realm, discovered from its issuer.
 *
 * - The issuer is the realm URL, `https://<host>/realms/<realm>` (Keycloak before 17 served it
 *   under `/auth/realms/<realm>`): pass it as `issuer` or set `AUTH_KEYCLOAK_ISSUER`.
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `preferred_username`,
 *   `given_name`, `family_name`, `email`, `email_verified` (and `picture` when mapped). PKCE is
 *   supported.
 *
 * @see https://www.keycloak.org/docs/latest/server_admin/#con-oidc_server_administration_guide
 * @see https://www.keycloak.org/securing-apps/oidc-layers
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { keycloakLogo } from "../logos/keycloak.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Keycloak ID token (with the default client scopes). */
export interface KeycloakProfile extends Profile {
  sub: string;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  sid?: string;
  azp?: string;
  acr?: string;
  iss?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  auth_time?: number;
}

/**
 * Keycloak as a sign-in provider (`AUTH_KEYCLOAK_ID`, `AUTH_KEYCLOAK_SECRET`,
 * `AUTH_KEYCLOAK_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function Keycloak<P extends KeycloakProfile = KeycloakProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#00b8e3", logo: keycloakLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Keycloak };
