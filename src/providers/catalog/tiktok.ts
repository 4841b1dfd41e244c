/**
 * Sign in with TikTok (Login Kit for Web): OAuth 2 against TikTok's v2 API.
 *
 * - Endpoints: `https://www.tiktok.com/v2/auth/authorize/`, `https://open.tiktokapis.com/v2/oauth/token/`
 *   and `GET https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name`.
 * - TikTok names the client id `client_key`, in the authorization request and in the code exchange
 *   (with `client_secret` in the form body). The authorization request therefore carries
 *   `client_key` (set from `clientId`, which must be given to the factory or, listed bare, come from
 *   `AUTH_TIKTOK_ID`), and `token.request` makes the exchange itself with it.
 * - Scope `user.info.basic`; TikTok requires `state` and documents PKCE for desktop apps only (with
 *   a hex challenge), so web sign-in uses `state`.
 * - `/v2/user/info/` wraps the user as `{ data: { user }, error }`; the account id is the user's
 *   `open_id` (per app), as in Auth.js. TikTok exposes no email.
 *
 * @see https://developers.tiktok.com/doc/login-kit-web/
 * @see https://developers.tiktok.com/doc/oauth-user-access-token-management/
 * @see https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { tiktokLogo } from "../logos/tiktok.js";
import { exchangeCode, httpsUrl, idOf, record, text, withUserOptions, type TokenContext } from "./shared.js";

/** `GET /v2/user/info/` with the fields the defaults ask for. */
export interface TiktokProfile extends Profile {
  data: {
    user: {
      open_id: string;
      union_id?: string;
      avatar_url?: string;
      display_name?: string;
      username?: string;
    };
  };
  error?: { code: string; message: string; log_id: string };
}

const tiktokToken = (context: TokenContext) =>
  exchangeCode(context, { provider: "tiktok", url: "https://open.tiktokapis.com/v2/oauth/token/", clientIdParam: "client_key" });

/**
 * TikTok as a sign-in provider (`AUTH_TIKTOK_ID` is the client key, `AUTH_TIKTOK_SECRET`). Options
 * win; `authorization.params` merge with the defaults.
 */
export default function TikTok<P extends TiktokProfile = TiktokProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    authorization: {
      url: "https://www.tiktok.com/v2/auth/authorize/",
      params: { scope: "user.info.basic", ...(options.clientId ? { client_key: options.clientId } : {}) },
    },
    token: { url: "https://open.tiktokapis.com/v2/oauth/token/", request: tiktokToken },
    userinfo: { url: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(record(profile.data).user);
      return { id: idOf(user.open_id), name: text(user.display_name) ?? text(user.username), email: null, image: httpsUrl(user.avatar_url) };
    },
    style: { brandColor: "#000000", logo: tiktokLogo },
  };
  return withUserOptions(defaults, options);
}

export { TikTok };
