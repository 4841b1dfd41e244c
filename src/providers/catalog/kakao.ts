/**
 * Sign in with Kakao (Kakao Login): OAuth 2.
 *
 * - Endpoints: `https://kauth.kakao.com/oauth/authorize`, `https://kauth.kakao.com/oauth/token`
 *   (client secret, when enabled for the app, in the body) and
 *   `GET https://kapi.kakao.com/v2/user/me?secure_resource=true` (https image URLs).
 * - Scope `profile_nickname profile_image account_email` (consent items configured on the app;
 *   the email item needs a verified business app).
 * - `kakao_account.is_email_verified` / `is_email_valid` say whether the address may be trusted.
 *
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { kakaoLogo } from "../logos/kakao.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /v2/user/me` (the fields sign-in uses). */
export interface KakaoProfile extends Profile {
  /** Kakao sends the numeric user id; `Profile` types ids as strings, so read it through `String()`. */
  id?: string | null;
  connected_at?: string;
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string };
  kakao_account?: {
    profile_nickname_needs_agreement?: boolean;
    profile_image_needs_agreement?: boolean;
    profile?: { nickname?: string; thumbnail_image_url?: string; profile_image_url?: string; is_default_image?: boolean };
    email_needs_agreement?: boolean;
    is_email_valid?: boolean;
    is_email_verified?: boolean;
    email?: string;
    name?: string;
  };
}

/**
 * Kakao as a sign-in provider (`AUTH_KAKAO_ID` = REST API key, `AUTH_KAKAO_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Kakao<P extends KakaoProfile = KakaoProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "kakao",
    name: "Kakao",
    type: "oauth",
    authorization: {
      url: "https://kauth.kakao.com/oauth/authorize",
      params: { scope: "profile_nickname profile_image account_email" },
    },
    token: { url: "https://kauth.kakao.com/oauth/token" },
    // `secure_resource=true`: image URLs in https, not http.
    userinfo: { url: "https://kapi.kakao.com/v2/user/me?secure_resource=true" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const account = record(profile.kakao_account);
      const accountProfile = record(account.profile);
      const properties = record(profile.properties);
      const defaultImage = accountProfile.is_default_image === true;
      return {
        id: idOf(profile.id),
        name: text(accountProfile.nickname) ?? text(properties.nickname) ?? text(account.name),
        email: text(account.email),
        image: defaultImage ? null : (httpsUrl(accountProfile.profile_image_url) ?? httpsUrl(properties.profile_image)),
      };
    },
    style: { brandColor: "#fee500", logo: kakaoLogo },
  };
  return withUserOptions(defaults, options);
}

export { Kakao };
