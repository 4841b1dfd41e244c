/**
 * Sign in with osu!: OAuth 2 (authorization code grant).
 *
 * - Endpoints: `https://osu.ppy.sh/oauth/authorize`, `https://osu.ppy.sh/oauth/token` (client id
 *   and secret in the form body: `client_secret_post`) and `GET https://osu.ppy.sh/api/v2/me`.
 * - Scope `identify` (the only one sign-in needs). osu! documents `state` against request forgery
 *   and no PKCE, so the callback is protected by `state`.
 * - osu! profiles carry no email address: users sign in with `email: null`.
 *
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 * @see https://osu.ppy.sh/docs/index.html#get-own-data
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { osuLogo } from "../logos/osu.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /api/v2/me` (the fields sign-in uses; osu! sends many more). */
export interface OsuProfile extends Profile {
  /** The numeric user id. */
  id?: string | null;
  username: string;
  avatar_url?: string;
  country_code?: string;
  default_group?: string;
  is_active?: boolean;
  is_bot?: boolean;
  is_deleted?: boolean;
  is_online?: boolean;
  is_supporter?: boolean;
  last_visit?: string | null;
  pm_friends_only?: boolean;
  profile_colour?: string | null;
  cover_url?: string;
  join_date?: string;
  playmode?: string;
}

/**
 * osu! as a sign-in provider (`AUTH_OSU_ID`, `AUTH_OSU_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Osu<P extends OsuProfile = OsuProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "osu",
    name: "osu!",
    type: "oauth",
    authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
    token: { url: "https://osu.ppy.sh/oauth/token" },
    userinfo: { url: "https://osu.ppy.sh/api/v2/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return { id: idOf(profile.id), name: text(profile.username), email: null, image: httpsUrl(profile.avatar_url) };
    },
    style: { brandColor: "#ff66aa", logo: osuLogo },
  };
  return withUserOptions(defaults, options);
}

export { Osu };
