/**
 * Sign in with Hugging Face: OpenID Connect, discovered from `https://huggingface.co`.
 *
 * - Scope `openid profile email`: `profile` adds `name`, `preferred_username`, `picture`,
 *   `profile`, `website` and `isPro`; `email` adds `email` and `email_verified` (the app must also
 *   request the `email` scope in its OAuth settings). PKCE is supported.
 * - Organisations the user grants access to come as `orgs` (with the `read-repos` or
 *   `inference-api` scopes, among others).
 *
 * @see https://huggingface.co/docs/hub/oauth
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import { huggingfaceLogo } from "../logos/huggingface.js";
import { userFromStandardClaims, type StandardClaims } from "./claims.js";
import { withUserOptions } from "./shared.js";

/** The claims of a Hugging Face ID token. */
export interface HuggingfaceProfile extends StandardClaims {
  profile?: string;
  website?: string;
  isPro?: boolean;
  canPay?: boolean;
  orgs?: { sub: string; name: string; preferred_username: string; picture?: string; isEnterprise?: boolean }[];
}

/**
 * Hugging Face as a sign-in provider (`AUTH_HUGGINGFACE_ID`, `AUTH_HUGGINGFACE_SECRET`). Options
 * win; `authorization.params` merge with the default scope.
 */
export default function Huggingface<P extends HuggingfaceProfile = HuggingfaceProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "huggingface",
    name: "Hugging Face",
    type: "oidc",
    issuer: "https://huggingface.co",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state"],
    profile: (profile) => userFromStandardClaims(profile),
    style: { brandColor: "#ffd21e", logo: huggingfaceLogo },
  };
  return withUserOptions(defaults, options);
}

export { Huggingface };
