/**
 * Sign in with Coinbase: OAuth 2 (a Coinbase App OAuth client).
 *
 * - Endpoints: `https://login.coinbase.com/oauth2/auth`, `https://login.coinbase.com/oauth2/token`
 *   (client id and secret in the body) and `GET https://api.coinbase.com/v2/user`.
 * - Scope `wallet:user:read wallet:user:email`: the public profile and the email address. `state`
 *   is the documented protection against cross-site request forgery.
 * - The user resource wraps the user in `data`.
 *
 * @see https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations
 * @see https://docs.cdp.coinbase.com/coinbase-app/docs/api-users
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { coinbaseLogo } from "../logos/coinbase.js";
import { httpsUrl, idOf, record, text, withUserOptions } from "./shared.js";

/** `GET /v2/user`. */
export interface CoinbaseProfile extends Profile {
  data: {
    id: string;
    name?: string;
    username?: string | null;
    profile_location?: string | null;
    profile_bio?: string | null;
    profile_url?: string | null;
    avatar_url?: string;
    resource?: "user";
    resource_path?: string;
    /** With `wallet:user:email`. */
    email?: string;
  };
}

/**
 * Coinbase as a sign-in provider (`AUTH_COINBASE_ID`, `AUTH_COINBASE_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Coinbase<P extends CoinbaseProfile = CoinbaseProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "coinbase",
    name: "Coinbase",
    type: "oauth",
    authorization: { url: "https://login.coinbase.com/oauth2/auth", params: { scope: "wallet:user:read wallet:user:email" } },
    token: { url: "https://login.coinbase.com/oauth2/token" },
    userinfo: { url: "https://api.coinbase.com/v2/user" },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.data);
      return {
        id: idOf(user.id),
        name: text(user.name) ?? text(user.username),
        email: text(user.email),
        image: httpsUrl(user.avatar_url),
      };
    },
    style: { brandColor: "#0052ff", logo: coinbaseLogo },
  };
  return withUserOptions(defaults, options);
}

export { Coinbase };
