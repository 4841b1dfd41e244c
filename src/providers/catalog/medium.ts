/**
 * Sign in with Medium: OAuth 2.
 *
 * - Medium no longer issues new integration tokens; this provider serves applications that
 *   already have a Medium OAuth client.
 * - Endpoints: `https://medium.com/m/oauth/authorize` (scope `basicProfile`; Medium requires
 *   `state`), `https://api.medium.com/v1/tokens` (client credentials in the body) and
 *   `GET https://api.medium.com/v1/me`, whose answer wraps the user in `data`.
 * - The token answer lists `scope` as a JSON array and gives `expires_at` in milliseconds, which
 *   standard OAuth clients refuse, so `token.request` makes the exchange itself and joins the
 *   scopes with spaces. Medium never gives out the user's email.
 *
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 */
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { mediumLogo } from "../logos/medium.js";
import { exchangeCode } from "./code-exchange.js";
import { httpsUrl, idOf, record, text, withUserOptions, type TokenContext } from "./shared.js";

/** `GET /v1/me`. */
export interface MediumProfile extends Profile {
  data: {
    id: string;
    username?: string;
    name?: string;
    url?: string;
    imageUrl?: string;
  };
}

/** The exchange, with Medium's millisecond `expires_at` dropped (the account's is computed in seconds from `expires_in`). */
async function mediumToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { tokens } = await exchangeCode(context, { provider: "medium" });
  const { expires_at: expiresAtMs, ...rest } = tokens;
  if (typeof expiresAtMs === "number" && rest.expires_in === undefined) {
    rest.expires_in = Math.max(0, Math.floor((expiresAtMs - Date.now()) / 1000));
  }
  return { tokens: rest };
}

/** Medium as a sign-in provider (`AUTH_MEDIUM_ID`, `AUTH_MEDIUM_SECRET`). Options win. */
export default function Medium<P extends MediumProfile = MediumProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "medium",
    name: "Medium",
    type: "oauth",
    authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
    token: { url: "https://api.medium.com/v1/tokens", request: mediumToken },
    userinfo: { url: "https://api.medium.com/v1/me" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.data);
      return {
        id: idOf(user.id),
        name: text(user.name) ?? text(user.username),
        email: null,
        image: httpsUrl(user.imageUrl),
      };
    },
    style: { brandColor: "#000000", logo: mediumLogo },
  };
  return withUserOptions(defaults, options);
}

export { Medium };
