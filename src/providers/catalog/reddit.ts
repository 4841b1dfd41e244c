/**
 * Sign in with Reddit: OAuth 2.
 *
 * - Endpoints: `https://www.reddit.com/api/v1/authorize`, `https://www.reddit.com/api/v1/access_token`
 *   (client credentials in HTTP Basic only: `client_secret_basic`) and
 *   `GET https://oauth.reddit.com/api/v1/me`.
 * - Scope `identity`, `duration=temporary` (set `duration: "permanent"` for a refresh token).
 * - Reddit requires `state` and documents no PKCE; it refuses API calls without a descriptive
 *   `User-Agent`, so `userinfo.request` sends one. There is no email in a Reddit profile.
 * - `icon_img` comes HTML-escaped (`&amp;` in the query string); the profile mapping unescapes it.
 *
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 * @see https://www.reddit.com/dev/api/#GET_api_v1_me
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { redditLogo } from "../logos/reddit.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /api/v1/me` (the fields sign-in uses). */
export interface RedditProfile extends Profile {
  /** The account id without its `t2_` prefix. */
  id: string;
  name: string;
  icon_img?: string;
  snoovatar_img?: string;
  verified?: boolean;
  has_verified_email?: boolean;
  created_utc?: number;
  over_18?: boolean;
}

async function redditUserinfo(context: UserinfoContext): Promise<RedditProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://oauth.reddit.com/api/v1/me";
  return record(
    await fetchJson(context.fetch, url, {
      provider: "reddit",
      headers: { Authorization: bearer(context.tokens), "User-Agent": "web:appauth:v1 (sign-in)" },
    }),
  ) as RedditProfile;
}

function unescapeHtmlUrl(url: string | null): string | null {
  return url === null ? null : url.replace(/&amp;/g, "&");
}

/**
 * Reddit as a sign-in provider (`AUTH_REDDIT_ID`, `AUTH_REDDIT_SECRET`). Options win;
 * `authorization.params` merge with the defaults (`scope`, `duration`).
 */
export default function Reddit<P extends RedditProfile = RedditProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity", duration: "temporary" } },
    token: { url: "https://www.reddit.com/api/v1/access_token" },
    userinfo: { url: "https://oauth.reddit.com/api/v1/me", request: redditUserinfo },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name),
        email: null,
        image: unescapeHtmlUrl(httpsUrl(profile.icon_img) ?? httpsUrl(profile.snoovatar_img)),
      };
    },
    style: { brandColor: "#ff4500", logo: redditLogo },
  };
  return withUserOptions(defaults, options);
}

export { Reddit };
