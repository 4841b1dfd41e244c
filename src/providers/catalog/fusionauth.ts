/**
 * Sign in with FusionAuth: OpenID Connect against your FusionAuth instance.
 *
 * - The issuer is the instance's URL (`https://auth.example.com`): pass it as `issuer` or set
 *   `AUTH_FUSIONAUTH_ISSUER`. The tenant's "Issuer" setting must be that same URL (a new
 *   FusionAuth tenant says `acme.com`, which no OIDC client can hold ID tokens to).
 * - Several tenants: pass `tenantId`; discovery then reads
 *   `/.well-known/openid-configuration/<tenantId>` and the authorization request names the tenant.
 * - Endpoints `/oauth2/authorize`, `/oauth2/token`, `/oauth2/userinfo`, keys at
 *   `/.well-known/jwks.json`. Scope `openid offline_access email profile`; PKCE is supported.
 * - Unless the application picks a signing key, FusionAuth signs ID tokens with HS256 keyed by the
 *   client secret: that is verified with the client secret, no setting needed.
 *
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { fusionauthLogo } from "../logos/fusionauth.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a FusionAuth ID token. */
export interface FusionAuthProfile extends StandardClaims {
  aud?: string;
  applicationId?: string;
  tid?: string;
  roles?: string[];
  auth_time?: number;
  authenticationType?: string;
  sid?: string;
}

/** FusionAuth's options: any provider option, plus `tenantId` (as in Auth.js). */
export type FusionAuthUserConfig<P extends FusionAuthProfile = FusionAuthProfile> = OAuthUserConfig<P> & {
  /** The tenant to sign into, when the instance has several. */
  tenantId?: string;
};

/**
 * FusionAuth as a sign-in provider (`AUTH_FUSIONAUTH_ID`, `_SECRET`, `_ISSUER`). Options win;
 * `authorization.params` merge with the defaults.
 */
export default function FusionAuth<P extends FusionAuthProfile = FusionAuthProfile>(options: FusionAuthUserConfig<P> = {}): OIDCConfig<P> {
  const { tenantId, ...rest } = options;
  const issuer = withoutTrailingSlash(rest.issuer);
  const defaults: OIDCConfig<P> = {
    id: "fusionauth",
    name: "FusionAuth",
    type: "oidc",
    ...(tenantId && issuer ? { wellKnown: `${issuer}/.well-known/openid-configuration/${encodeURIComponent(tenantId)}` } : {}),
    authorization: { params: { scope: "openid offline_access email profile", ...(tenantId ? { tenantId } : {}) } },
    checks: ["pkce", "state"],
    profile: (profile) => userFromStandardClaims(profile),
    style: { brandColor: "#f58320", logo: fusionauthLogo },
  };
  return withUserOptions(defaults, { ...rest, issuer }, options);
}

export { FusionAuth };
