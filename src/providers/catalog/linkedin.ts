/**
 * Sign in with LinkedIn ("Sign In with LinkedIn using OpenID Connect"), discovered from
 * `https://www.linkedin.com/oauth`.
 *
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `given_name`, `family_name`,
 *   `picture`, `email`, `email_verified`, `locale`.
 * - LinkedIn reads the client credentials from the request body (`client_secret_post`) and does
 *   not offer PKCE to web apps: the callback is protected by `state`.
 *
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { linkedinLogo } from "../logos/linkedin.js";
import { httpsUrl, idOf, joinName, text, withUserOptions } from "./shared.js";

/** The claims of a LinkedIn ID token (and of its userinfo answer). */
export interface LinkedInProfile extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  email?: string;
  email_verified?: boolean;
  locale?: string | { country?: string; language?: string };
}

/**
 * LinkedIn as a sign-in provider (`AUTH_LINKEDIN_ID`, `AUTH_LINKEDIN_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function LinkedIn<P extends LinkedInProfile = LinkedInProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#0a66c2", logo: linkedinLogo },
  };
  return withUserOptions(defaults, options);
}

export { LinkedIn };
