/**
 * Sign in with Vipps MobilePay (Vipps Login): OpenID Connect, discovered from
 * `https://api.vipps.no/access-management-1.0/access/` (the trailing slash is part of the issuer).
 *
 * - The test environment's issuer is `https://apitest.vipps.no/access-management-1.0/access/`:
 *   pass it as `issuer` while testing.
 * - Scope `openid name email` (add `phoneNumber`, `address`, `birthDate`... as the app needs).
 *   PKCE (S256), `state` and `nonce`; the client authenticates with HTTP Basic (the default
 *   "client_secret_basic" of a Vipps Login sales unit).
 * - The ID token names the user by `sub` only; the consented claims are in the userinfo answer,
 *   so the profile is read from there (`idToken: false`; the ID token is still validated).
 *
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/core-concepts/
 * @see https://developer.vippsmobilepay.com/api/login/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { vippsLogo } from "../logos/vipps.js";
import { idOf, joinName, text, withUserOptions, withTrailingSlash } from "./shared.js";

/** Vipps's userinfo answer (the claims the default scope consents to, and a few more). */
export interface VippsProfile extends Profile {
  sub: string;
  sid?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  birthdate?: string;
  address?: Record<string, unknown>;
  other_addresses?: Record<string, unknown>[];
}

/**
 * Vipps MobilePay as a sign-in provider (`AUTH_VIPPS_ID`, `AUTH_VIPPS_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Vipps<P extends VippsProfile = VippsProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "vipps",
    name: "Vipps MobilePay",
    type: "oidc",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    authorization: { params: { scope: "openid name email" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#ff5b24", logo: vippsLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withTrailingSlash(options.issuer) }, options);
}

export { Vipps };
