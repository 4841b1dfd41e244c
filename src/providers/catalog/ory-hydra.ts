/**
 * Sign in with Ory Hydra (self-hosted) or Ory Network's OAuth2 server: OpenID Connect, discovered
 * from its issuer.
 *
 * - The issuer is Hydra's public URL (`https://hydra.example.com`, or an Ory Network project's
 *   `https://<slug>.projects.oryapis.com`): pass it as `issuer` or set `AUTH_HYDRA_ISSUER`.
 *   Discovery gives `/oauth2/auth`, `/oauth2/token`, `/userinfo` and `/.well-known/jwks.json`.
 * - The provider's id is `hydra`, as in Auth.js (its callback is `/callback/hydra` and its
 *   variables `AUTH_HYDRA_*`); the module is `ory-hydra`.
 * - Hydra refuses an authorization request without a `state` of at least 8 characters, so `state`
 *   is among the checks, with PKCE and `nonce`.
 * - Scope `openid offline_access email profile`; which claims the ID token carries is up to the
 *   login and consent app: the profile maps the standard ones.
 *
 * @see https://www.ory.sh/docs/hydra/guides/oauth2-clients
 * @see https://www.ory.sh/docs/oauth2-oidc/authorization-code-flow
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { oryHydraLogo } from "../logos/ory-hydra.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Hydra ID token (the standard ones the consent app puts there). */
export interface OryHydraProfile extends StandardClaims {
  sid?: string;
  auth_time?: number;
  amr?: string[];
  acr?: string;
}

/**
 * Ory Hydra as a sign-in provider (`AUTH_HYDRA_ID`, `AUTH_HYDRA_SECRET`, `AUTH_HYDRA_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function OryHydra<P extends OryHydraProfile = OryHydraProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "hydra",
    name: "Ory Hydra",
    type: "oidc",
    authorization: { params: { scope: "openid offline_access email profile" } },
    checks: ["pkce", "state", "nonce"],
    profile: (profile) => userFromStandardClaims(profile),
    style: { brandColor: "#5528ff", logo: oryHydraLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { OryHydra };
