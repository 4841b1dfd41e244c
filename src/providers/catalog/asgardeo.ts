/**
 * Sign in with Asgardeo (WSO2's identity service): OpenID Connect against an organization.
 *
 * - An organization's OpenID Connect issuer is `https://api.asgardeo.io/t/<organization>/oauth2/token`.
 *   As in Auth.js, `issuer` (or `AUTH_ASGARDEO_ISSUER`) may be the organization's base URL,
 *   `https://api.asgardeo.io/t/<organization>`: the factory completes it. The discovery document
 *   is at `<issuer>/.well-known/openid-configuration`.
 * - Scope `openid profile email`; the ID token carries `sub`, `given_name`, `family_name`,
 *   `email`, `picture`, `username` as the app's attributes allow. PKCE is supported.
 *
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/discover-oidc-configs/
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/implement-auth-code-with-pkce/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { asgardeoLogo } from "../logos/asgardeo.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of an Asgardeo ID token (those the app's user attributes release). */
export interface AsgardeoProfile extends Profile {
  sub: string;
  given_name?: string;
  family_name?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  username?: string;
  preferred_username?: string;
  org_id?: string;
  org_name?: string;
}

/** `https://api.asgardeo.io/t/acme` → `https://api.asgardeo.io/t/acme/oauth2/token`; a complete issuer stays. */
export function asgardeoIssuer(issuer: string | undefined): string | undefined {
  const base = withoutTrailingSlash(issuer);
  if (base === undefined || base === "") return undefined;
  return base.endsWith("/oauth2/token") ? base : `${base}/oauth2/token`;
}

/**
 * Asgardeo as a sign-in provider (`AUTH_ASGARDEO_ID`, `AUTH_ASGARDEO_SECRET`, `AUTH_ASGARDEO_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Asgardeo<P extends AsgardeoProfile = AsgardeoProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "asgardeo",
    name: "Asgardeo",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile.username) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#ff7300", logo: asgardeoLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: asgardeoIssuer(options.issuer) }, options);
}

export { Asgardeo };
