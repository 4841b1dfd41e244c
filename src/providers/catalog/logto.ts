/**
 * Sign in with Logto (Logto Cloud or self-hosted): OpenID Connect, discovered from the tenant's
 * issuer.
 *
 * - The issuer is the tenant's endpoint followed by `/oidc`: `https://<tenant>.logto.app/oidc`, a
 *   custom domain, or a self-hosted `https://logto.example.com/oidc`. Pass it as `issuer` or set
 *   `AUTH_LOGTO_ISSUER`.
 * - Logto signs ID tokens with ES384 (an EC P-384 key from its JWKS), not RS256: the algorithm
 *   comes from the discovery document, so nothing needs setting.
 * - Scope `offline_access openid email profile` (as in Auth.js); the ID token carries `sub`,
 *   `name`, `username`, `picture`, `email` and `email_verified`. PKCE is required by Logto.
 *
 * @see https://docs.logto.io/integrate-logto/third-party-applications/oidc
 * @see https://docs.logto.io/docs/references/openid-connect/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { logtoLogo } from "../logos/logto.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Logto ID token. */
export interface LogtoProfile extends StandardClaims {
  username?: string | null;
  phone_number?: string | null;
  phone_number_verified?: boolean;
  roles?: string[];
  organizations?: string[];
  created_at?: number;
  updated_at?: number;
}

/**
 * Logto as a sign-in provider (`AUTH_LOGTO_ID`, `AUTH_LOGTO_SECRET`, `AUTH_LOGTO_ISSUER`). Options
 * win; `authorization.params` merge with the default scope.
 */
export default function Logto<P extends LogtoProfile = LogtoProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "logto",
    name: "Logto",
    type: "oidc",
    authorization: { params: { scope: "offline_access openid email profile" } },
    checks: ["pkce", "state"],
    profile(profile) {
      const user = userFromStandardClaims(profile);
      return { ...user, name: text(profile.name) ?? text(profile.username) ?? user.name };
    },
    style: { brandColor: "#5d34f2", logo: logtoLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Logto };
