/**
 * Sign in with Frontegg (hosted login): OpenID Connect against your Frontegg workspace domain.
 *
 * - The issuer is the workspace's login domain, `https://<app>.frontegg.com` or a custom domain:
 *   pass it as `issuer` or set `AUTH_FRONTEGG_ISSUER`.
 * - Frontegg publishes its discovery document under `/oauth`
 *   (`<issuer>/oauth/.well-known/openid-configuration`) while naming the domain itself as the
 *   issuer, so the document is read from there (`wellKnown`) and held to the configured issuer.
 *   It gives `/oauth/authorize`, `/oauth/token`, `/oauth/userinfo` and `/.well-known/jwks.json`.
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `email`, `email_verified`,
 *   `profilePictureUrl` and the account (`tenantId`). PKCE is supported.
 *
 * @see https://developers.frontegg.com/guides/authentication/hosted-login
 * @see https://developers.frontegg.com/ciam/guides/authentication/oidc-endpoints
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { fronteggLogo } from "../logos/frontegg.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { httpsUrl, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Frontegg ID token. */
export interface FronteggProfile extends StandardClaims {
  profilePictureUrl?: string | null;
  tenantId?: string;
  tenantIds?: string[];
  roles?: string[];
  permissions?: string[];
}

/**
 * Frontegg as a sign-in provider (`AUTH_FRONTEGG_ID`, `_SECRET`, `_ISSUER`). Options win;
 * `authorization.params` merge with the default scope; `wellKnown` follows `issuer` unless given.
 */
export default function Frontegg<P extends FronteggProfile = FronteggProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const issuer = withoutTrailingSlash(options.issuer);
  const defaults: OIDCConfig<P> = {
    id: "frontegg",
    name: "Frontegg",
    type: "oidc",
    ...(issuer ? { wellKnown: `${issuer}/oauth/.well-known/openid-configuration` } : {}),
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state"],
    profile(profile) {
      const user = userFromStandardClaims(profile);
      return { ...user, image: user.image ?? httpsUrl(profile.profilePictureUrl) };
    },
    style: { brandColor: "#4461f2", logo: fronteggLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { Frontegg };
