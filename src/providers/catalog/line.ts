/**
 * Sign in with LINE (LINE Login v2.1): OpenID Connect, discovered from `https://access.line.me`.
 *
 * - Scope `openid profile`; add `email` once the channel has been granted email permission. The
 *   ID token carries `sub` (the LINE user id), `name`, `picture`, and `email` when granted.
 * - For web login LINE signs ID tokens with HS256 keyed by the channel secret (ES256 is only for
 *   apps using its SDKs), hence `client.id_token_signed_response_alg: "HS256"`.
 * - The token request carries the channel id and secret as body parameters (`client_secret_post`),
 *   the only client authentication LINE documents.
 * - `state` is required by LINE; PKCE is supported.
 *
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 * @see https://developers.line.biz/en/docs/line-login/verify-id-token/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { lineLogo } from "../logos/line.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** The claims of a LINE ID token. */
export interface LineProfile extends Profile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  nonce?: string;
  amr?: string[];
  name?: string;
  picture?: string;
  email?: string;
}

/**
 * LINE as a sign-in provider (`AUTH_LINE_ID` = channel id, `AUTH_LINE_SECRET` = channel secret).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Line<P extends LineProfile = LineProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "line",
    name: "LINE",
    type: "oidc",
    issuer: "https://access.line.me",
    authorization: { params: { scope: "openid profile" } },
    client: { token_endpoint_auth_method: "client_secret_post", id_token_signed_response_alg: "HS256" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#06c755", logo: lineLogo },
  };
  return withUserOptions(defaults, options);
}

export { Line };
