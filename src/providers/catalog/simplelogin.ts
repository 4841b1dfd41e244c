/**
 * Sign in with SimpleLogin (Proton): OpenID Connect, discovered from `https://app.simplelogin.io`.
 *
 * - Scope `openid profile email`. The user chooses at consent whether the app sees their real
 *   address or a new alias; either way `email` is the address to write to.
 * - The callback is protected by `state` and `nonce`; the client authenticates with HTTP Basic.
 *
 * @see https://simplelogin.io/docs/siwsl/intro/
 * @see https://simplelogin.io/docs/siwsl/flow/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { simpleloginLogo } from "../logos/simplelogin.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** The claims of a SimpleLogin ID token (and its userinfo answer). */
export interface SimpleLoginProfile extends Profile {
  sub: string;
  /** The numeric user id (the same as `sub`). */
  id?: number;
  email?: string;
  email_verified?: boolean;
  name?: string;
  avatar_url?: string | null;
  client?: string;
}

/**
 * SimpleLogin as a sign-in provider (`AUTH_SIMPLELOGIN_ID`, `AUTH_SIMPLELOGIN_SECRET`). Options
 * win; `authorization.params` merge with the default scope.
 */
export default function SimpleLogin<P extends SimpleLoginProfile = SimpleLoginProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "simplelogin",
    name: "SimpleLogin",
    type: "oidc",
    issuer: "https://app.simplelogin.io",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state", "nonce"],
    profile(profile) {
      return { id: idOf(profile.sub), name: text(profile.name), email: text(profile.email), image: httpsUrl(profile.avatar_url) };
    },
    style: { brandColor: "#e3156a", logo: simpleloginLogo },
  };
  return withUserOptions(defaults, options);
}

export { SimpleLogin };
