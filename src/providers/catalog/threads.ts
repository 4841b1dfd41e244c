/**
 * Sign in with Threads (Meta): OAuth 2 against the Threads API.
 *
 * - Endpoints: `https://threads.net/oauth/authorize`, `https://graph.threads.net/oauth/access_token`
 *   (client id and secret in the form body) and `GET https://graph.threads.net/v1.0/me`.
 *   (Meta now also documents the same API at `threads.com` / `graph.threads.com`.)
 * - Scope `threads_basic`; Threads documents `state` and no PKCE.
 * - The token endpoint answers `{ access_token, user_id }` without `token_type`, which standard
 *   OAuth clients refuse, so `token.request` makes the exchange itself and fills it in.
 * - `/me` answers only the fields asked for (`fields=id,username,name,threads_profile_picture_url`).
 *   Threads profiles carry no email.
 *
 * @see https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 * @see https://developers.facebook.com/docs/threads/threads-profiles
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { threadsLogo } from "../logos/threads.js";
import { exchangeCode, httpsUrl, idOf, text, withUserOptions, type TokenContext } from "./shared.js";

/** `GET /v1.0/me` with the fields the defaults ask for. */
export interface ThreadsProfile extends Profile {
  /** The Threads user id. */
  id: string;
  username?: string;
  name?: string;
  threads_profile_picture_url?: string;
  threads_biography?: string;
}

const threadsToken = (context: TokenContext) =>
  exchangeCode(context, { provider: "threads", url: "https://graph.threads.net/oauth/access_token" });

/**
 * Threads as a sign-in provider (`AUTH_THREADS_ID`, `AUTH_THREADS_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Threads<P extends ThreadsProfile = ThreadsProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "threads",
    name: "Threads",
    type: "oauth",
    authorization: { url: "https://threads.net/oauth/authorize", params: { scope: "threads_basic" } },
    token: { url: "https://graph.threads.net/oauth/access_token", request: threadsToken },
    userinfo: { url: "https://graph.threads.net/v1.0/me?fields=id,username,name,threads_profile_picture_url" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? text(profile.username),
        email: null,
        image: httpsUrl(profile.threads_profile_picture_url),
      };
    },
    style: { brandColor: "#000000", logo: threadsLogo },
  };
  return withUserOptions(defaults, options);
}

export { Threads };
