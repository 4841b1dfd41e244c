/**
 * Sign in with United Effects (Core EOS): OpenID Connect against an auth group, discovered from
 * its issuer.
 *
 * - The issuer is `https://auth.unitedeffects.com/<auth-group-id>`: pass it as `issuer` or set
 *   `AUTH_UNITED_EFFECTS_ISSUER`.
 * - Scope `openid email profile`, and `resource` set to the issuer (the audience United Effects
 *   issues the access token for). PKCE (S256) and `state`.
 * - Its ID token names the user by `sub` and `email` only; name and picture stay empty.
 *
 * @see https://docs.unitedeffects.com/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { unitedEffectsLogo } from "../logos/united-effects.js";
import { idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a United Effects ID token. */
export interface UnitedEffectsProfile extends Profile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  group?: string;
}

/**
 * United Effects as a sign-in provider (`AUTH_UNITED_EFFECTS_ID`, `AUTH_UNITED_EFFECTS_SECRET`,
 * `AUTH_UNITED_EFFECTS_ISSUER`). Options win; `authorization.params` merge with the defaults.
 */
export default function UnitedEffects<P extends UnitedEffectsProfile = UnitedEffectsProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const issuer = withoutTrailingSlash(options.issuer);
  const defaults: OIDCConfig<P> = {
    id: "united-effects",
    name: "United Effects",
    type: "oidc",
    authorization: { params: { scope: "openid email profile", ...(issuer ? { resource: issuer } : {}) } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return { id: idOf(profile.sub), name: null, email: text(profile.email), image: null };
    },
    style: { brandColor: "#1f4e79", logo: unitedEffectsLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { UnitedEffects };
