/**
 * Sign in with Auth0: OpenID Connect against your tenant, discovered from its issuer.
 *
 * - The issuer is your Auth0 domain with a trailing slash, `https://<tenant>.<region>.auth0.com/`
 *   or a custom domain: pass it as `issuer` or set `AUTH_AUTH0_ISSUER`. The factory adds the
 *   trailing slash Auth0's issuer identifier has when the given value lacks it.
 * - Scope `openid profile email`; the ID token carries `sub` (`<connection>|<id>`), `name`,
 *   `nickname`, `email`, `email_verified`, `picture`. PKCE is supported.
 * - For an access token for your API add `audience` to `authorization.params`.
 *
 * @see https://auth0.com/docs/get-started/authentication-and-authorization-flow/authorization-code-flow-with-pkce
 * @see https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { auth0Logo } from "../logos/auth0.js";
import { httpsUrl, idOf, text, withTrailingSlash, withUserOptions } from "./shared.js";

/** The claims of an Auth0 ID token (standard OIDC claims; custom ones are namespaced URLs). */
export interface Auth0Profile extends Profile {
  sub: string;
  name?: string;
  nickname?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  locale?: string;
  updated_at?: string;
  org_id?: string;
}

/**
 * Auth0 as a sign-in provider (`AUTH_AUTH0_ID`, `AUTH_AUTH0_SECRET`, `AUTH_AUTH0_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Auth0<P extends Auth0Profile = Auth0Profile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? text(profile.nickname),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#eb5424", logo: auth0Logo },
  };
  return withUserOptions(defaults, { ...options, issuer: withTrailingSlash(options.issuer) }, options);
}

export { Auth0 };
