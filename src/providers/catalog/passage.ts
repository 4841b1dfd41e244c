/**
 * Sign in with Passage by 1Password (hosted login): OpenID Connect, discovered from the app's
 * issuer.
 *
 * - The issuer is the app's authentication origin (`https://<app>.withpassage.com`, or its custom
 *   domain): pass it as `issuer` or set `AUTH_PASSAGE_ISSUER`.
 * - Scope `openid email`; PKCE (S256) and `state`; the client authenticates with HTTP Basic.
 * - Passage users are passkey-first and have no display name: users sign in with their email.
 *
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { passageLogo } from "../logos/passage.js";
import { idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Passage ID token. */
export interface PassageProfile extends Profile {
  /** The user's id in Passage. */
  sub: string;
  email?: string;
  email_verified?: boolean;
  phone?: string;
  phone_number_verified?: boolean;
}

/**
 * Passage as a sign-in provider (`AUTH_PASSAGE_ID`, `AUTH_PASSAGE_SECRET`, `AUTH_PASSAGE_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Passage<P extends PassageProfile = PassageProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "passage",
    name: "Passage",
    type: "oidc",
    authorization: { params: { scope: "openid email" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return { id: idOf(profile.sub), name: null, email: text(profile.email), image: null };
    },
    style: { brandColor: "#000000", logo: passageLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Passage };
