/**
 * Sign in with Zoho (Zoho Accounts): OAuth 2.
 *
 * - Endpoints: `https://accounts.zoho.com/oauth/v2/auth`, `.../oauth/v2/token` (client id and
 *   secret as form parameters: `client_secret_post`) and `GET https://accounts.zoho.com/oauth/user/info`.
 * - Scope `AaaServer.profile.Read`. Zoho documents `state` and no PKCE for server-based clients.
 * - Zoho's APIs take the token in `Authorization: Zoho-oauthtoken <token>`, not `Bearer`, so
 *   `userinfo.request` sends that scheme.
 * - Data centres: an app registered in another data centre (EU, IN, AU, JP, CA, SA, CN) passes
 *   that domain's URLs as `authorization`, `token` and `userinfo` (`https://accounts.zoho.eu/...`).
 *
 * @see https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html
 * @see https://www.zoho.com/accounts/protocol/oauth/multi-dc.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { zohoLogo } from "../logos/zoho.js";
import { bearer, endpointUrl, fetchJson, idOf, joinName, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /oauth/user/info`. */
export interface ZohoProfile extends Profile {
  /** The Zoho user id. */
  ZUID: number | string;
  Email?: string;
  First_Name?: string;
  Last_Name?: string;
  Display_Name?: string;
}

async function zohoUserinfo(context: UserinfoContext): Promise<ZohoProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://accounts.zoho.com/oauth/user/info";
  const headers = { Authorization: bearer(context.tokens, "Zoho-oauthtoken") };
  return record(await fetchJson(context.fetch, url, { provider: "zoho", headers })) as ZohoProfile;
}

/**
 * Zoho as a sign-in provider (`AUTH_ZOHO_ID`, `AUTH_ZOHO_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Zoho<P extends ZohoProfile = ZohoProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "zoho",
    name: "Zoho",
    type: "oauth",
    authorization: { url: "https://accounts.zoho.com/oauth/v2/auth", params: { scope: "AaaServer.profile.Read" } },
    token: { url: "https://accounts.zoho.com/oauth/v2/token" },
    userinfo: { url: "https://accounts.zoho.com/oauth/user/info", request: zohoUserinfo },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.ZUID),
        name: text(profile.Display_Name) ?? joinName(profile.First_Name, profile.Last_Name),
        email: text(profile.Email),
        image: null,
      };
    },
    style: { brandColor: "#e42527", logo: zohoLogo },
  };
  return withUserOptions(defaults, options);
}

export { Zoho };
