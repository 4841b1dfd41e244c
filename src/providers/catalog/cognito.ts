/**
 * Sign in with Amazon Cognito: OpenID Connect against a user pool, discovered from its issuer.
 *
 * - The issuer is `https://cognito-idp.<region>.amazonaws.com/<user-pool-id>` (not the hosted UI
 *   domain; discovery points to the domain's endpoints): pass it as `issuer` or set
 *   `AUTH_COGNITO_ISSUER`.
 * - Scope `openid profile email` (each must be allowed on the app client); the ID token carries
 *   `sub`, `cognito:username`, `email`, `email_verified`, and `name`/`picture` when those
 *   attributes are set. PKCE is supported.
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/authorization-endpoint.html
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { cognitoLogo } from "../logos/cognito.js";
import { httpsUrl, idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Cognito user pool ID token. */
export interface CognitoProfile extends Profile {
  sub: string;
  "cognito:username"?: string;
  "cognito:groups"?: string[];
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  phone_number?: string;
  phone_number_verified?: boolean;
  token_use?: "id";
  auth_time?: number;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
}

/**
 * Amazon Cognito as a sign-in provider (`AUTH_COGNITO_ID`, `AUTH_COGNITO_SECRET`,
 * `AUTH_COGNITO_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function Cognito<P extends CognitoProfile = CognitoProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name:
          text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile["cognito:username"]),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#dd344c", logo: cognitoLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { Cognito };
