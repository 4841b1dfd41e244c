/**
 * Sign in with ZITADEL: OpenID Connect against an instance, discovered from its issuer.
 *
 * - The issuer is the instance URL, `https://<instance>.zitadel.cloud` or your own domain: pass it
 *   as `issuer` or set `AUTH_ZITADEL_ISSUER`.
 * - Scope `openid profile email`. ZITADEL leaves profile claims out of ID tokens unless the
 *   application enables "User Info inside ID Token", so the profile is read from the userinfo
 *   endpoint (`idToken: false`; the ID token is still validated). PKCE is supported, and a
 *   client without a secret (PKCE-only "user agent"/"native" app) works too.
 * - Add `offline_access` to the scope for a refresh token.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/endpoints
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { zitadelLogo } from "../logos/zitadel.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** ZITADEL's userinfo answer (standard claims plus `urn:zitadel:iam:*` ones). */
export interface ZitadelProfile extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  picture?: string;
  gender?: string;
  locale?: string;
  updated_at?: number;
  "urn:zitadel:iam:user:resourceowner:id"?: string;
  "urn:zitadel:iam:user:resourceowner:name"?: string;
}

/**
 * ZITADEL as a sign-in provider (`AUTH_ZITADEL_ID`, `AUTH_ZITADEL_SECRET`, `AUTH_ZITADEL_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Zitadel<P extends ZitadelProfile = ZitadelProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    idToken: false,
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#5469d4", logo: zitadelLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Zitadel };
