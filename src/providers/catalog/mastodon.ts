/**
 * Sign in with Mastodon: OAuth 2 against one Mastodon server (the app is registered per server,
 * with `POST /api/v1/apps`).
 *
 * - The server's URL is the `issuer`, as in Auth.js: pass it or set `AUTH_MASTODON_ISSUER`
 *   (default `https://mastodon.social`).
 * - Endpoints `<issuer>/oauth/authorize`, `<issuer>/oauth/token` and
 *   `GET <issuer>/api/v1/accounts/verify_credentials`. Scope `read:accounts`, the narrowest one
 *   that reads the account (a server from 4.3 on also takes `profile`). PKCE (S256) is supported
 *   since 4.3; older servers ignore it, so `state` is sent too.
 * - Mastodon never gives out the account's email: `email` is empty.
 *
 * @see https://docs.joinmastodon.org/methods/oauth/
 * @see https://docs.joinmastodon.org/methods/accounts/#verify_credentials
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { mastodonLogo } from "../logos/mastodon.js";
import { httpsUrl, idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** `GET /api/v1/accounts/verify_credentials` (a CredentialAccount; the fields sign-in uses and a few more). */
export interface MastodonProfile extends Profile {
  id: string;
  username: string;
  acct: string;
  display_name?: string;
  url?: string;
  avatar?: string;
  avatar_static?: string;
  header?: string;
  locked?: boolean;
  bot?: boolean;
  created_at?: string;
  note?: string;
  followers_count?: number;
  following_count?: number;
  statuses_count?: number;
}

/**
 * Mastodon as a sign-in provider (`AUTH_MASTODON_ID`, `_SECRET`, `_ISSUER`). Options win;
 * endpoints follow `issuer`; `authorization.params` merge with the default scope.
 */
export default function Mastodon<P extends MastodonProfile = MastodonProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const issuer = withoutTrailingSlash(options.issuer) ?? "https://mastodon.social";
  const defaults: OAuth2Config<P> = {
    id: "mastodon",
    name: "Mastodon",
    type: "oauth",
    issuer,
    authorization: { url: `${issuer}/oauth/authorize`, params: { scope: "read:accounts" } },
    token: { url: `${issuer}/oauth/token` },
    userinfo: { url: `${issuer}/api/v1/accounts/verify_credentials` },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.display_name) ?? text(profile.username),
        email: null,
        image: httpsUrl(profile.avatar_static) ?? httpsUrl(profile.avatar),
      };
    },
    style: { brandColor: "#6364ff", logo: mastodonLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { Mastodon };
