/**
 * Sign in with Yandex ID: OAuth 2 with PKCE.
 *
 * - Endpoints: `https://oauth.yandex.com/authorize`, `https://oauth.yandex.com/token` and
 *   `GET https://login.yandex.ru/info?format=json`. Yandex wants the token in an
 *   `Authorization: OAuth <token>` header there (not `Bearer`), hence `userinfo.request`.
 * - Scope `login:info login:email login:avatar` (each must be enabled on the app).
 * - The image is built from `default_avatar_id` unless `is_avatar_empty`.
 *
 * @see https://yandex.com/dev/id/doc/en/codes/code-url
 * @see https://yandex.com/dev/id/doc/en/user-information
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { yandexLogo } from "../logos/yandex.js";
import { bearer, endpointUrl, fetchJson, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET https://login.yandex.ru/info?format=json`. */
export interface YandexProfile extends Profile {
  id: string;
  login: string;
  client_id?: string;
  psuid?: string;
  display_name?: string;
  real_name?: string;
  first_name?: string;
  last_name?: string;
  sex?: "male" | "female" | null;
  default_email?: string;
  emails?: string[];
  default_avatar_id?: string;
  is_avatar_empty?: boolean;
  birthday?: string | null;
  default_phone?: { id: number; number: string };
}

async function yandexUserinfo(context: UserinfoContext): Promise<YandexProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://login.yandex.ru/info?format=json";
  return record(
    await fetchJson(context.fetch, url, { provider: "yandex", headers: { Authorization: bearer(context.tokens, "OAuth") } }),
  ) as YandexProfile;
}

/** `https://avatars.yandex.net/get-yapic/<id>/islands-200`, or `null` without an own avatar. */
export function yandexAvatarUrl(profile: Pick<YandexProfile, "default_avatar_id" | "is_avatar_empty">): string | null {
  const id = text(profile.default_avatar_id);
  if (id === null || profile.is_avatar_empty === true) return null;
  return `https://avatars.yandex.net/get-yapic/${id.split("/").map(encodeURIComponent).join("/")}/islands-200`;
}

/**
 * Yandex as a sign-in provider (`AUTH_YANDEX_ID`, `AUTH_YANDEX_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Yandex<P extends YandexProfile = YandexProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "yandex",
    name: "Yandex",
    type: "oauth",
    authorization: { url: "https://oauth.yandex.com/authorize", params: { scope: "login:info login:email login:avatar" } },
    token: { url: "https://oauth.yandex.com/token" },
    userinfo: { url: "https://login.yandex.ru/info?format=json", request: yandexUserinfo },
    profile(profile) {
      const emails = Array.isArray(profile.emails) ? profile.emails : [];
      return {
        id: idOf(profile.id),
        name: text(profile.display_name) ?? text(profile.real_name) ?? text(profile.login),
        email: text(profile.default_email) ?? text(emails[0]),
        image: yandexAvatarUrl(profile),
      };
    },
    style: { brandColor: "#fc3f1d", logo: yandexLogo },
  };
  return withUserOptions(defaults, options);
}

export { Yandex };
