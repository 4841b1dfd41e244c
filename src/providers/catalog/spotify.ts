/**
 * Sign in with Spotify: OAuth 2 with PKCE.
 *
 * - Endpoints: `https://accounts.spotify.com/authorize`, `https://accounts.spotify.com/api/token`
 *   (client credentials in HTTP Basic) and `GET https://api.spotify.com/v1/me`.
 * - Scope `user-read-email`; the profile carries no verified-email flag.
 *
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-pkce-flow
 * @see https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { spotifyLogo } from "../logos/spotify.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /v1/me`. */
export interface SpotifyProfile extends Profile {
  id: string;
  display_name?: string | null;
  email?: string;
  country?: string;
  product?: string;
  uri?: string;
  href?: string;
  external_urls?: { spotify?: string };
  followers?: { href: string | null; total: number };
  images?: { url: string; height: number | null; width: number | null }[];
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean };
  type?: "user";
}

/**
 * Spotify as a sign-in provider (`AUTH_SPOTIFY_ID`, `AUTH_SPOTIFY_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Spotify<P extends SpotifyProfile = SpotifyProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
    token: { url: "https://accounts.spotify.com/api/token" },
    userinfo: { url: "https://api.spotify.com/v1/me" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile(profile) {
      const images = Array.isArray(profile.images) ? profile.images : [];
      return {
        id: idOf(profile.id),
        name: text(profile.display_name) ?? text(profile.id),
        email: text(profile.email),
        image: httpsUrl(record(images[0]).url),
      };
    },
    style: { brandColor: "#1db954", logo: spotifyLogo },
  };
  return withUserOptions(defaults, options);
}

export { Spotify };
