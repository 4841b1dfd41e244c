/**
 * Sign in with Salesforce: OpenID Connect, discovered from `https://login.salesforce.com`.
 *
 * - Sandboxes use `issuer: "https://test.salesforce.com"`; an Experience Cloud site or My Domain
 *   login uses its own URL as `issuer`.
 * - Scope `openid profile email`; the ID token carries `sub` (the identity URL
 *   `https://login.salesforce.com/id/<org id>/<user id>`), `name`, `email`, `email_verified`,
 *   `picture`, `preferred_username`. PKCE, `state` and `nonce` are all supported and checked.
 *
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_web_server_flow.htm
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { salesforceLogo } from "../logos/salesforce.js";
import { httpsUrl, idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Salesforce ID token. */
export interface SalesforceProfile extends Profile {
  sub: string;
  user_id?: string;
  organization_id?: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  zoneinfo?: string;
  locale?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
}

/**
 * Salesforce as a sign-in provider (`AUTH_SALESFORCE_ID`, `AUTH_SALESFORCE_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Salesforce<P extends SalesforceProfile = SalesforceProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "salesforce",
    name: "Salesforce",
    type: "oidc",
    issuer: "https://login.salesforce.com",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#00a1e0", logo: salesforceLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Salesforce };
