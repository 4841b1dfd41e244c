/**
 * Sign in with OneLogin: OpenID Connect against your OneLogin account, discovered from its issuer.
 *
 * - The issuer is `https://<subdomain>.onelogin.com/oidc/2`: pass it as `issuer` or set
 *   `AUTH_ONELOGIN_ISSUER`. (A bare `https://<subdomain>.onelogin.com` is completed with `/oidc/2`.)
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `preferred_username`,
 *   `given_name`, `family_name`, `email`. PKCE is supported.
 *
 * @see https://developers.onelogin.com/openid-connect/api/authorization-code
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { oneloginLogo } from "../logos/onelogin.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a OneLogin ID token. */
export interface OneLoginProfile extends Profile {
  sub: string;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  picture?: string;
  groups?: string[];
  sid?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
}

/** Completes `https://<subdomain>.onelogin.com` to its OIDC issuer; leaves anything else alone. */
function oneloginIssuer(issuer: string | undefined): string | undefined {
  const trimmed = withoutTrailingSlash(issuer);
  if (trimmed === undefined) return undefined;
  return /^https:\/\/[^/]+\.onelogin\.com$/i.test(trimmed) ? `${trimmed}/oidc/2` : trimmed;
}

/**
 * OneLogin as a sign-in provider (`AUTH_ONELOGIN_ID`, `AUTH_ONELOGIN_SECRET`,
 * `AUTH_ONELOGIN_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function OneLogin<P extends OneLoginProfile = OneLoginProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "onelogin",
    name: "OneLogin",
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
    style: { brandColor: "#1c1f2a", logo: oneloginLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: oneloginIssuer(options.issuer) }, options);
}

export { OneLogin };
