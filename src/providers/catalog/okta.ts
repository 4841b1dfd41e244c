/**
 * Sign in with Okta: OpenID Connect against an Okta authorization server, discovered from its
 * issuer.
 *
 * - The issuer is `https://<your-okta-domain>/oauth2/default` (the default custom authorization
 *   server), `https://<your-okta-domain>/oauth2/<server-id>`, or `https://<your-okta-domain>` for
 *   the org authorization server: pass it as `issuer` or set `AUTH_OKTA_ISSUER`.
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `email`,
 *   `preferred_username`, `email_verified`. PKCE is supported.
 *
 * @see https://developer.okta.com/docs/guides/implement-grant-type/authcodepkce/main/
 * @see https://developer.okta.com/docs/reference/api/oidc/#id-token
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { oktaLogo } from "../logos/okta.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of an Okta ID token. */
export interface OktaProfile extends Profile {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  nickname?: string;
  given_name?: string;
  middle_name?: string;
  family_name?: string;
  picture?: string;
  locale?: string;
  zoneinfo?: string;
  updated_at?: number;
  ver?: number;
  iss?: string;
  aud?: string;
  idp?: string;
  auth_time?: number;
  amr?: string[];
}

/**
 * Okta as a sign-in provider (`AUTH_OKTA_ID`, `AUTH_OKTA_SECRET`, `AUTH_OKTA_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Okta<P extends OktaProfile = OktaProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "okta",
    name: "Okta",
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
    style: { brandColor: "#007dc1", logo: oktaLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Okta };
