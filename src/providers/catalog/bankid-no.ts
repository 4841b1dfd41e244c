/**
 * Sign in with BankID (Norway) through BankID's OpenID Connect provider.
 *
 * - The issuer is `https://auth.bankid.no/auth/realms/prod` (default); BankID's test environment
 *   is `https://auth.current.bankid.no/auth/realms/current`: pass it as `issuer` or set
 *   `AUTH_BANKID_NO_ISSUER`. Endpoints and keys are discovered from it.
 * - The authorization code flow with PKCE, `state` and `nonce`. Scope `openid profile`, with
 *   `ui_locales=no` and `login_hint=BIS` (BankID in the browser), Auth.js's defaults; the client
 *   id and secret go in the body of the token request (Auth.js's `client_secret_post`).
 * - The profile is the ID token's claims (`sub`, `name`, `given_name`, `family_name`,
 *   `birthdate`, and `email` when the scope asks for it). Auth.js read the userinfo endpoint,
 *   which BankID may answer signed; the ID token carries the same identity claims and is verified.
 *   The national identity number (`nnin`) needs its own scope and agreement with BankID.
 *
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl/technical-documentation/api/token
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { bankidNoLogo } from "../logos/bankid-no.js";
import { idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a BankID ID token (scope `openid profile`). */
export interface BankIDNorwayProfile extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  birthdate?: string;
  email?: string;
  nnin_altsub?: string;
  amr?: string | string[];
  acr?: string;
  iss?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  auth_time?: number;
}

/**
 * BankID (Norway) as a sign-in provider (`AUTH_BANKID_NO_ID`, `AUTH_BANKID_NO_SECRET`,
 * `AUTH_BANKID_NO_ISSUER`). Options win; `authorization.params` merge with the defaults.
 */
export default function BankIDNorway<P extends BankIDNorwayProfile = BankIDNorwayProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "bankid-no",
    name: "BankID Norge",
    type: "oidc",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    authorization: { params: { scope: "openid profile", ui_locales: "no", login_hint: "BIS" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#39134c", logo: bankidNoLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { BankIDNorway };
