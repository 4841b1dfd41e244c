/**
 * Sign in with NAVER (네이버 로그인): OAuth 2.
 *
 * - Endpoints: `https://nid.naver.com/oauth2.0/authorize`, `https://nid.naver.com/oauth2.0/token`
 *   (client credentials as parameters: `client_secret_post`) and
 *   `GET https://openapi.naver.com/v1/nid/me`, whose answer wraps the user in `response`.
 * - No scope parameter: the fields are chosen on the application. NAVER requires `state`.
 *
 * @see https://developers.naver.com/docs/login/devguide/devguide.md
 * @see https://developers.naver.com/docs/login/profile/profile.md
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { naverLogo } from "../logos/naver.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /v1/nid/me`. */
export interface NaverProfile extends Profile {
  resultcode: string;
  message: string;
  response: {
    id: string;
    nickname?: string;
    name?: string;
    email?: string;
    gender?: "F" | "M" | "U";
    age?: string;
    birthday?: string;
    profile_image?: string;
    birthyear?: string;
    mobile?: string;
  };
}

/**
 * NAVER as a sign-in provider (`AUTH_NAVER_ID`, `AUTH_NAVER_SECRET`). Options win;
 * `authorization.params` merge with the defaults.
 */
export default function Naver<P extends NaverProfile = NaverProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "naver",
    name: "NAVER",
    type: "oauth",
    authorization: { url: "https://nid.naver.com/oauth2.0/authorize" },
    token: { url: "https://nid.naver.com/oauth2.0/token" },
    userinfo: { url: "https://openapi.naver.com/v1/nid/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.response);
      return {
        id: idOf(user.id),
        name: text(user.name) ?? text(user.nickname),
        email: text(user.email),
        image: httpsUrl(user.profile_image),
      };
    },
    style: { brandColor: "#03c75a", logo: naverLogo },
  };
  return withUserOptions(defaults, options);
}

export { Naver };
