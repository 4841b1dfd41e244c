/**
 * Sign in with WeChat: WeChat's OAuth 2 web authorization, for an Official Account's pages opened
 * in WeChat (`platformType: "OfficialAccount"`, the default, as in Auth.js) or for a website app
 * signing in by QR code (`platformType: "WebsiteApp"`).
 *
 * - Authorization: `https://open.weixin.qq.com/connect/oauth2/authorize` with scope
 *   `snsapi_userinfo` (Official Account) or `https://open.weixin.qq.com/connect/qrconnect` with
 *   scope `snsapi_login` (website app). WeChat names the client id `appid` (set from `clientId`,
 *   which must be given to the factory or, listed bare, come from `AUTH_WECHAT_ID`) and wants the
 *   `#wechat_redirect` fragment after the query; `state` is returned.
 * - Code exchange: `GET https://api.weixin.qq.com/sns/oauth2/access_token` with `appid`, `secret`,
 *   `code` and `grant_type` in the query (no redirect_uri). The answer has no `token_type`, and
 *   carries the person's `openid` (per app) and, for apps bound to a WeChat Open Platform account,
 *   their `unionid`.
 * - User: `GET https://api.weixin.qq.com/sns/userinfo` with `access_token`, `openid` and
 *   `lang=zh_CN` in the query. WeChat answers errors with a 200 and an `errcode`; those fail the
 *   sign-in, and no error message names a URL (they carry the secret or the token).
 * - The account id is the `unionid`, as in Auth.js, and the `openid` for apps that get no
 *   `unionid` (where Auth.js would fail). WeChat exposes no email.
 *
 * @see https://developers.weixin.qq.com/doc/offiaccount/en/OA_Web_Apps/Wechat_webpage_authorization.html
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { wechatLogo } from "../logos/wechat.js";
import { endpointUrl, exchangeCode, fetchJsonQuietly, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /sns/userinfo`. */
export interface WeChatProfile extends Profile {
  openid: string;
  nickname?: string;
  sex?: number;
  province?: string;
  city?: string;
  country?: string;
  headimgurl?: string;
  privilege?: string[];
  unionid?: string;
}

/** Where the person signs in: WeChat's in-app browser (an Official Account) or a website, by QR code. */
export type WeChatPlatformType = "OfficialAccount" | "WebsiteApp";

export interface WeChatUserConfig<P extends WeChatProfile> extends OAuthUserConfig<P> {
  /** Default `OfficialAccount`. */
  platformType?: WeChatPlatformType;
}

const TOKEN_URL = "https://api.weixin.qq.com/sns/oauth2/access_token";

/** `/sns/userinfo` with the token and the `openid` of the token answer; an `errcode` answer is an error. */
async function wechatUserinfo(context: UserinfoContext): Promise<WeChatProfile> {
  const url = new URL(endpointUrl(context.provider.userinfo) ?? "https://api.weixin.qq.com/sns/userinfo");
  const { access_token: token, openid } = context.tokens;
  if (typeof token !== "string" || token === "") throw new TypeError("wechat: the token response has no access_token.");
  if (typeof openid !== "string" || openid === "") throw new TypeError("wechat: the token response has no openid.");
  url.searchParams.set("access_token", token);
  url.searchParams.set("openid", openid);
  if (!url.searchParams.has("lang")) url.searchParams.set("lang", "zh_CN");
  const answer = record(await fetchJsonQuietly(context.fetch, url, { provider: "wechat", what: "/sns/userinfo" }));
  if (answer.errcode !== undefined && answer.errcode !== 0) throw new Error("wechat: /sns/userinfo answered an error", { cause: { error: answer.errcode } });
  return { ...answer, unionid: text(answer.unionid) ?? text(context.tokens.unionid) ?? undefined } as WeChatProfile;
}

/** WeChat as a sign-in provider (`AUTH_WECHAT_ID`, `AUTH_WECHAT_SECRET`). Options win. */
export default function WeChat<P extends WeChatProfile = WeChatProfile>(options: WeChatUserConfig<P> = {}): OAuth2Config<P> {
  const { platformType = "OfficialAccount", ...rest } = options;
  const officialAccount = platformType === "OfficialAccount";
  const defaults: OAuth2Config<P> = {
    id: "wechat",
    name: "WeChat",
    type: "oauth",
    authorization: {
      url: officialAccount
        ? "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect"
        : "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
      params: { scope: officialAccount ? "snsapi_userinfo" : "snsapi_login", ...(options.clientId ? { appid: options.clientId } : {}) },
    },
    token: {
      url: TOKEN_URL,
      request: (context) =>
        exchangeCode(context, { provider: "wechat", url: TOKEN_URL, method: "GET", clientIdParam: "appid", clientSecretParam: "secret", redirectUri: false }),
    },
    userinfo: { url: "https://api.weixin.qq.com/sns/userinfo", request: wechatUserinfo },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.unionid ?? profile.openid),
        name: text(profile.nickname),
        email: null,
        image: httpsUrl(profile.headimgurl),
      };
    },
    style: { brandColor: "#07c160", logo: wechatLogo },
  };
  return withUserOptions(defaults, rest);
}

export { WeChat };
