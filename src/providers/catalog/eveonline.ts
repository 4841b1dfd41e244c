/**
 * Sign in with EVE Online (EVE SSO, OAuth 2 v2 endpoints): the person picks one of their
 * characters, and the character is the account.
 *
 * - Endpoints: `https://login.eveonline.com/v2/oauth/authorize`,
 *   `https://login.eveonline.com/v2/oauth/token` (client id and secret key in HTTP Basic), and
 *   `GET https://login.eveonline.com/oauth/verify`, which answers the character the access token
 *   was issued for.
 * - Scope `publicData`. `state` is required by EVE SSO; PKCE is supported and used.
 * - The account id is the `CharacterID`; the image is the character's portrait from EVE's image
 *   server. No email address.
 *
 * @see https://developers.eveonline.com/docs/services/sso/
 * @see https://docs.esi.evetech.net/docs/sso/web_based_sso_flow.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { eveonlineLogo } from "../logos/eveonline.js";
import { idOf, text, withUserOptions } from "./shared.js";

/** `GET /oauth/verify`. */
export interface EVEOnlineProfile extends Profile {
  /** EVE sends the numeric character id. */
  CharacterID: number | string;
  CharacterName?: string;
  ExpiresOn?: string;
  Scopes?: string;
  TokenType?: "Character";
  CharacterOwnerHash?: string;
  IntellectualProperty?: string;
}

/** The character's 128-pixel portrait on EVE's image server. */
export function eveCharacterPortrait(characterId: unknown): string | null {
  const id = idOf(characterId);
  return id !== undefined && /^\d+$/.test(id) ? `https://images.evetech.net/characters/${id}/portrait?size=128` : null;
}

/**
 * EVE Online as a sign-in provider (`AUTH_EVEONLINE_ID`, `AUTH_EVEONLINE_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function EVEOnline<P extends EVEOnlineProfile = EVEOnlineProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: { url: "https://login.eveonline.com/v2/oauth/authorize", params: { scope: "publicData" } },
    token: { url: "https://login.eveonline.com/v2/oauth/token" },
    userinfo: { url: "https://login.eveonline.com/oauth/verify" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.CharacterID),
        name: text(profile.CharacterName),
        email: null,
        image: eveCharacterPortrait(profile.CharacterID),
      };
    },
    style: { brandColor: "#1b1b1b", logo: eveonlineLogo },
  };
  return withUserOptions(defaults, options);
}

export { EVEOnline };
