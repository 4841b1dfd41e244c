/**
 * Sign in with Dropbox: OAuth 2 with PKCE.
 *
 * - Endpoints: `https://www.dropbox.com/oauth2/authorize`, `https://api.dropboxapi.com/oauth2/token`
 *   and `POST https://api.dropboxapi.com/2/users/get_current_account`. That RPC endpoint takes a
 *   POST with no body, hence `userinfo.request`.
 * - Scope `account_info.read` (scoped apps); `token_access_type=offline` returns a refresh token.
 * - Dropbox's `name` is an object; the profile keeps it as `name_parts` and puts its
 *   `display_name` in `name`, the string every profile's `name` is.
 *
 * @see https://developers.dropbox.com/oauth-guide
 * @see https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { dropboxLogo } from "../logos/dropbox.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** The structured name of a Dropbox account. */
export interface DropboxName {
  given_name?: string;
  surname?: string;
  familiar_name?: string;
  display_name?: string;
  abbreviated_name?: string;
}

/**
 * `POST /2/users/get_current_account` (the fields sign-in uses), with Dropbox's `name` object
 * moved to `name_parts` and its `display_name` as `name`.
 */
export interface DropboxProfile extends Profile {
  account_id: string;
  name?: string | null;
  name_parts?: DropboxName;
  email?: string;
  email_verified?: boolean;
  disabled?: boolean;
  profile_photo_url?: string;
  country?: string;
  locale?: string;
  referral_link?: string;
  is_paired?: boolean;
  account_type?: { ".tag": string };
}

async function dropboxUserinfo(context: UserinfoContext): Promise<DropboxProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://api.dropboxapi.com/2/users/get_current_account";
  const account = record(
    await fetchJson(context.fetch, url, {
      provider: "dropbox",
      method: "POST",
      headers: { Authorization: bearer(context.tokens) },
    }),
  );
  const parts = record(account.name);
  return { ...account, name: text(parts.display_name), name_parts: parts } as unknown as DropboxProfile;
}

/**
 * Dropbox as a sign-in provider (`AUTH_DROPBOX_ID` = app key, `AUTH_DROPBOX_SECRET`). Options
 * win; `authorization.params` merge with the defaults.
 */
export default function Dropbox<P extends DropboxProfile = DropboxProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "dropbox",
    name: "Dropbox",
    type: "oauth",
    authorization: {
      url: "https://www.dropbox.com/oauth2/authorize",
      params: { scope: "account_info.read", token_access_type: "offline" },
    },
    token: { url: "https://api.dropboxapi.com/oauth2/token" },
    userinfo: { url: "https://api.dropboxapi.com/2/users/get_current_account", request: dropboxUserinfo },
    profile(profile) {
      return {
        id: idOf(profile.account_id),
        name: text(profile.name) ?? text(record(profile.name_parts).display_name),
        email: text(profile.email),
        image: httpsUrl(profile.profile_photo_url),
      };
    },
    style: { brandColor: "#0061fe", logo: dropboxLogo },
  };
  return withUserOptions(defaults, options);
}

export { Dropbox };
