/**
 * Sign in with Foursquare (Foursquare and Swarm accounts, through the v2 API): OAuth 2.
 *
 * - Endpoints: `https://foursquare.com/oauth2/authenticate`, `https://foursquare.com/oauth2/access_token`
 *   (client credentials as parameters) and `GET https://api.foursquare.com/v2/users/self`.
 * - The token answer is only `{ access_token }` (no `token_type`; tokens do not expire), which
 *   standard OAuth clients refuse, so `token.request` makes the exchange itself.
 * - The v2 API takes the token as the `oauth_token` query parameter, with a `v=YYYYMMDD` version
 *   date (`apiVersion`, as in Auth.js); its answer wraps the user in `response.user`. No scopes; no
 *   PKCE is documented: `state` protects the callback.
 *
 * @see https://docs.foursquare.com/developer/reference/v2-authentication
 * @see https://docs.foursquare.com/developer/reference/v2-users-self
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { foursquareLogo } from "../logos/foursquare.js";
import { exchangeCode } from "./code-exchange.js";
import { endpointUrl, fetchJson, httpsUrl, idOf, joinName, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /v2/users/self`. */
export interface FoursquareProfile extends Profile {
  meta?: { code: number; requestId?: string };
  response: {
    user: {
      id: string;
      firstName?: string;
      lastName?: string;
      gender?: string;
      photo?: { prefix: string; suffix: string };
      contact?: { email?: string; phone?: string };
      homeCity?: string;
      canonicalUrl?: string;
    };
  };
}

export interface FoursquareOptions<P extends FoursquareProfile = FoursquareProfile> extends OAuthUserConfig<P> {
  /** The API version date the calls name (`v=YYYYMMDD`), as in Auth.js. Default `20230131`. */
  apiVersion?: string;
}

const DEFAULT_API_VERSION = "20230131";

/** The user, called with the `oauth_token` and `v` query parameters the v2 API takes. */
async function foursquareUserinfo(context: UserinfoContext): Promise<FoursquareProfile> {
  const url = new URL(endpointUrl(context.provider.userinfo) ?? "https://api.foursquare.com/v2/users/self");
  const token = context.tokens.access_token;
  if (typeof token !== "string" || token === "") throw new TypeError("foursquare: the token response has no access_token.");
  const version = text((context.provider.options as FoursquareOptions | undefined)?.apiVersion) ?? DEFAULT_API_VERSION;
  url.searchParams.set("v", version);
  url.searchParams.set("oauth_token", token);
  return record(await fetchJson(context.fetch, url.href, { provider: "foursquare", headers: { Accept: "application/json" } })) as FoursquareProfile;
}

/** Foursquare as a sign-in provider (`AUTH_FOURSQUARE_ID`, `AUTH_FOURSQUARE_SECRET`). Options win. */
export default function Foursquare<P extends FoursquareProfile = FoursquareProfile>(options: FoursquareOptions<P> = {}): OAuth2Config<P> {
  // `apiVersion` stays in `options`, where the userinfo request reads it.
  const { apiVersion: _apiVersion, ...rest } = options;
  const defaults: OAuth2Config<P> = {
    id: "foursquare",
    name: "Foursquare",
    type: "oauth",
    authorization: { url: "https://foursquare.com/oauth2/authenticate" },
    token: { url: "https://foursquare.com/oauth2/access_token", request: (context) => exchangeCode(context, { provider: "foursquare" }) },
    userinfo: { url: "https://api.foursquare.com/v2/users/self", request: foursquareUserinfo },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = record(record(profile.response).user);
      const photo = record(user.photo);
      const prefix = text(photo.prefix);
      const suffix = text(photo.suffix);
      return {
        id: idOf(user.id),
        name: joinName(user.firstName, user.lastName),
        email: text(record(user.contact).email),
        image: prefix && suffix ? httpsUrl(`${prefix}original${suffix}`) : null,
      };
    },
    style: { brandColor: "#f94877", logo: foursquareLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { Foursquare };
