/**
 * Sign in with PingOne (Ping Identity): OpenID Connect against a PingOne environment, discovered
 * from its issuer.
 *
 * - The issuer is `https://auth.pingone.<region>/<environment-id>/as` (region `com`, `eu`, `ca`,
 *   `asia` or `com.au`), or the custom domain's: pass it as `issuer` or set `AUTH_PING_ID_ISSUER`.
 * - Scope `openid profile email`; PKCE (S256). The client authenticates as the application's
 *   "Token Endpoint Authentication Method" says; PingOne's default is HTTP Basic.
 *
 * @see https://apidocs.pingidentity.com/pingone/auth/v1/api/#openid-connectoauth-2
 * @see https://docs.pingidentity.com/pingone/applications/p1_edit_application_oidc.html
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { pingIdLogo } from "../logos/ping-id.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a PingOne ID token with scope `openid profile email`. */
export interface PingProfile extends Profile {
  sub: string;
  sid?: string;
  env?: string;
  org?: string;
  name?: string;
  given_name?: string;
  middle_name?: string;
  family_name?: string;
  preferred_username?: string;
  nickname?: string;
  picture?: string;
  email?: string;
  email_verified?: boolean;
  locale?: string;
  zoneinfo?: string;
  updated_at?: number;
}

/**
 * PingOne as a sign-in provider (`AUTH_PING_ID_ID`, `AUTH_PING_ID_SECRET`, `AUTH_PING_ID_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function PingId<P extends PingProfile = PingProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "ping-id",
    name: "Ping Identity",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#b3282d", logo: pingIdLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { PingId };
