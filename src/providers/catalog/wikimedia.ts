/**
 * Sign in with a Wikimedia account (Wikipedia, Wikidata, Commons...): MediaWiki's OAuth 2 on
 * Meta-Wiki, where accounts are global.
 *
 * - Endpoints: `https://meta.wikimedia.org/w/rest.php/oauth2/authorize`, `.../oauth2/access_token`
 *   (client id and secret in the form body: `client_secret_post`) and
 *   `GET .../oauth2/resource/profile`.
 * - Grants are chosen when the consumer is registered, so there is no scope parameter; a consumer
 *   registered "for identity only" serves sign-in. MediaWiki's OAuth 2 takes PKCE (S256) and
 *   `state`.
 * - The email is in the profile only when the consumer may read it; `confirmed_email` says whether
 *   the user confirmed it.
 *
 * @see https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2
 * @see https://api.wikimedia.org/wiki/Authentication#OAuth_2.0
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { wikimediaLogo } from "../logos/wikimedia.js";
import { idOf, text, withUserOptions } from "./shared.js";

/** `GET /w/rest.php/oauth2/resource/profile`. */
export interface WikimediaProfile extends Profile {
  /** The user's central (global) id. */
  sub: string;
  username: string;
  editcount?: number;
  confirmed_email?: boolean;
  blocked?: boolean;
  registered?: string;
  groups?: string[];
  rights?: string[];
  grants?: string[];
  realname?: string;
  email?: string;
}

/**
 * Wikimedia as a sign-in provider (`AUTH_WIKIMEDIA_ID`, `AUTH_WIKIMEDIA_SECRET`). Options win;
 * the endpoints move with `authorization`, `token`, `userinfo` for another MediaWiki site.
 */
export default function Wikimedia<P extends WikimediaProfile = WikimediaProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const base = "https://meta.wikimedia.org/w/rest.php/oauth2";
  const defaults: OAuth2Config<P> = {
    id: "wikimedia",
    name: "Wikimedia",
    type: "oauth",
    authorization: { url: `${base}/authorize` },
    token: { url: `${base}/access_token` },
    userinfo: { url: `${base}/resource/profile` },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return { id: idOf(profile.sub), name: text(profile.username), email: text(profile.email), image: null };
    },
    style: { brandColor: "#006699", logo: wikimediaLogo },
  };
  return withUserOptions(defaults, options);
}

export { Wikimedia };
