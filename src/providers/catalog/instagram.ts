/**
 * Sign in with Instagram (the Instagram API with Instagram Login, for professional accounts; the
 * Basic Display API for personal accounts was shut down in December 2024): OAuth 2.
 *
 * - Endpoints: `https://www.instagram.com/oauth/authorize` (scope `instagram_business_basic`),
 *   `https://api.instagram.com/oauth/access_token` (client credentials in the body) and
 *   `GET https://graph.instagram.com/me?fields=id,user_id,username,name,profile_picture_url`.
 * - The token answer has no `token_type`, and comes either as `{ access_token, user_id,
 *   permissions }` or wrapped in `data: [ ... ]`, so `token.request` makes the exchange itself and
 *   reads both. The token is a short-lived one (an hour).
 * - The Graph API call sends the token as a Bearer header, not in the URL. Instagram never gives
 *   out the user's email. No PKCE is documented: `state` protects the callback.
 *
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { instagramLogo } from "../logos/instagram.js";
import { exchangeCode } from "./code-exchange.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET graph.instagram.com/me` with the default fields. */
export interface InstagramProfile extends Profile {
  /** The app-scoped user id (the `user_id` of the token answer); the account id sign-in keeps. */
  id: string;
  /** The professional account's Instagram id (the one webhooks name). */
  user_id?: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
  account_type?: string;
}

/** `{ data: [tokens] }` → `tokens`; an unwrapped answer as it is. */
function unwrapInstagramTokens(answer: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(answer.data) ? record(answer.data[0]) : answer;
}

/** Instagram as a sign-in provider (`AUTH_INSTAGRAM_ID`, `AUTH_INSTAGRAM_SECRET`). Options win. */
export default function Instagram<P extends InstagramProfile = InstagramProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "instagram",
    name: "Instagram",
    type: "oauth",
    authorization: { url: "https://www.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
    token: {
      url: "https://api.instagram.com/oauth/access_token",
      request: (context) => exchangeCode(context, { provider: "instagram", unwrap: unwrapInstagramTokens }),
    },
    userinfo: { url: "https://graph.instagram.com/me?fields=id,user_id,username,name,profile_picture_url" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id) ?? idOf(profile.user_id),
        name: text(profile.name) ?? text(profile.username),
        email: null,
        image: httpsUrl(profile.profile_picture_url),
      };
    },
    style: { brandColor: "#e1306c", logo: instagramLogo },
  };
  return withUserOptions(defaults, options);
}

export { Instagram };
