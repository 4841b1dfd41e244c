/**
 * Sign in with authentik: OpenID Connect against an OAuth2/OpenID provider of an authentik
 * application, discovered from its issuer.
 *
 * - The issuer is `https://<authentik-host>/application/o/<application-slug>/`, with the trailing
 *   slash authentik's issuer identifier has (the factory adds it when missing): pass it as `issuer`
 *   or set `AUTH_AUTHENTIK_ISSUER`.
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `preferred_username`,
 *   `nickname`, `given_name`, `email`, `email_verified`, `groups`. PKCE is supported.
 *
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { authentikLogo } from "../logos/authentik.js";
import { httpsUrl, idOf, text, withTrailingSlash, withUserOptions } from "./shared.js";

/** The claims of an authentik ID token (default property mappings). */
export interface AuthentikProfile extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  preferred_username?: string;
  nickname?: string;
  email?: string;
  email_verified?: boolean;
  groups?: string[];
  picture?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
  auth_time?: number;
  acr?: string;
}

/**
 * authentik as a sign-in provider (`AUTH_AUTHENTIK_ID`, `AUTH_AUTHENTIK_SECRET`,
 * `AUTH_AUTHENTIK_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function Authentik<P extends AuthentikProfile = AuthentikProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "authentik",
    name: "authentik",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? text(profile.nickname) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#fd4b2d", logo: authentikLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withTrailingSlash(options.issuer) }, options);
}

export { Authentik };
