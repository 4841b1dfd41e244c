/**
 * Sign in with Bungie.net (Destiny): OAuth 2 (a confidential client of the Bungie.net API).
 *
 * - Endpoints: `https://www.bungie.net/en/OAuth/Authorize`,
 *   `https://www.bungie.net/platform/app/oauth/token/` (client id and secret in HTTP Basic) and
 *   `GET https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/`.
 * - No scope parameter: the app's scopes are chosen where it is registered. `state` guards the
 *   callback; Bungie documents no PKCE for confidential clients. The token answer names the
 *   account (`membership_id`).
 * - Every API call also carries the app's API key in `X-API-Key`: pass it as `apiKey` (the
 *   userinfo call fails without it). Bungie wraps answers in `Response`; the account is
 *   `Response.bungieNetUser`, its picture a path on www.bungie.net. No email address.
 *
 * @see https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 * @see https://bungie-net.github.io/multi/operation_get_User-GetMembershipDataForCurrentUser.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { bungieLogo } from "../logos/bungie.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /Platform/User/GetMembershipsForCurrentUser/`. */
export interface BungieProfile extends Profile {
  Response: {
    destinyMemberships?: unknown[];
    primaryMembershipId?: string;
    bungieNetUser: {
      membershipId: string;
      uniqueName?: string;
      displayName?: string;
      cachedBungieGlobalDisplayName?: string;
      cachedBungieGlobalDisplayNameCode?: number;
      /** A path on www.bungie.net. */
      profilePicturePath?: string;
      locale?: string;
      firstAccess?: string;
      lastUpdate?: string;
      [field: string]: unknown;
    };
  };
  ErrorCode?: number;
  ErrorStatus?: string;
  Message?: string;
}

export type BungieUserConfig<P extends BungieProfile = BungieProfile> = OAuthUserConfig<P> & {
  /** The app's API key (Bungie.net's application portal), sent as `X-API-Key` with every API call. */
  apiKey?: string;
};

/** `/img/profile/avatars/default_avatar.gif` → `https://www.bungie.net/img/profile/avatars/default_avatar.gif`. */
export function bungiePicture(path: unknown): string | null {
  const value = text(path);
  if (value === null) return null;
  if (/^https:\/\//i.test(value)) return httpsUrl(value);
  return /^\/?[\w./-]+$/.test(value) ? `https://www.bungie.net${value.startsWith("/") ? "" : "/"}${value}` : null;
}

/** The provider as this factory makes it: with the app's API key. */
type BungieConfig = { apiKey?: string };

/** `GET /Platform/User/GetMembershipsForCurrentUser/` with the access token and the app's API key. */
async function bungieUserinfo(context: UserinfoContext): Promise<BungieProfile> {
  const { apiKey } = context.provider as BungieConfig;
  if (!apiKey) throw new TypeError("bungie: the API key is required for its API (the provider's `apiKey` option).");
  const url = endpointUrl(context.provider.userinfo) ?? "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/";
  const headers = { Authorization: bearer(context.tokens), "X-API-Key": apiKey };
  return record(await fetchJson(context.fetch, url, { provider: "bungie", headers })) as unknown as BungieProfile;
}

/**
 * Bungie as a sign-in provider (`AUTH_BUNGIE_ID`, `AUTH_BUNGIE_SECRET`, and the `apiKey` option).
 * Options win; `authorization.params` merge key by key.
 */
export default function Bungie<P extends BungieProfile = BungieProfile>(options: BungieUserConfig<P> = {}): OAuth2Config<P> & BungieConfig {
  const { apiKey, ...rest } = options;
  const defaults: OAuth2Config<P> & BungieConfig = {
    id: "bungie",
    name: "Bungie",
    type: "oauth",
    authorization: { url: "https://www.bungie.net/en/OAuth/Authorize", params: {} },
    token: { url: "https://www.bungie.net/platform/app/oauth/token/" },
    userinfo: { url: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/", request: bungieUserinfo },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      const user = record(record(profile.Response).bungieNetUser);
      return {
        id: idOf(user.membershipId),
        name: text(user.cachedBungieGlobalDisplayName) ?? text(user.displayName) ?? text(user.uniqueName),
        email: null,
        image: bungiePicture(user.profilePicturePath),
      };
    },
    style: { brandColor: "#0d74b8", logo: bungieLogo },
    ...(apiKey ? { apiKey } : {}),
  };
  return withUserOptions(defaults, rest, options);
}

export { Bungie };
