/**
 * Sign in with Bitbucket Cloud: OAuth 2 (an OAuth consumer of a workspace).
 *
 * - Endpoints: `https://bitbucket.org/site/oauth2/authorize`, `.../access_token` (client
 *   credentials in HTTP Basic) and `GET https://api.bitbucket.org/2.0/user`.
 * - Bitbucket takes no scope parameter: the consumer's permissions decide, and sign-in needs
 *   "Account: Read" (`account`) and "Account: Email" (`email`).
 * - The user resource has no email, so `userinfo.request` also reads `GET /2.0/user/emails` and
 *   keeps the primary confirmed address (else any confirmed one), marked `email_verified: true`.
 *
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 * @see https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { bitbucketLogo } from "../logos/bitbucket.js";
import {
  bearer,
  endpointUrl,
  fetchJson,
  httpsUrl,
  idOf,
  record,
  text,
  withUserOptions,
  withoutTrailingSlash,
  type UserinfoContext,
} from "./shared.js";

/** `GET /2.0/user`, plus `email`/`email_verified` taken from `GET /2.0/user/emails`. */
export interface BitbucketProfile extends Profile {
  /** `{…}`-wrapped UUID: the stable account id. */
  uuid: string;
  account_id?: string;
  username?: string;
  nickname?: string;
  display_name?: string;
  type?: "user";
  created_on?: string;
  links?: { avatar?: { href?: string }; html?: { href?: string }; [name: string]: unknown };
  email?: string | null;
}

/** The address to keep from `GET /2.0/user/emails`: primary and confirmed, else any confirmed one. */
export function pickBitbucketEmail(page: unknown): string | null {
  const values = record(page).values;
  if (!Array.isArray(values)) return null;
  const confirmed = values.map(record).filter((e) => typeof e.email === "string" && e.is_confirmed === true);
  const chosen = confirmed.find((e) => e.is_primary === true) ?? confirmed[0];
  return chosen ? (chosen.email as string) : null;
}

async function bitbucketUserinfo(context: UserinfoContext): Promise<BitbucketProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://api.bitbucket.org/2.0/user";
  const headers = { Authorization: bearer(context.tokens), Accept: "application/json" };
  const profile = record(await fetchJson(context.fetch, url, { provider: "bitbucket", headers })) as BitbucketProfile;
  try {
    const email = pickBitbucketEmail(
      await fetchJson(context.fetch, `${withoutTrailingSlash(url)}/emails`, { provider: "bitbucket", headers }),
    );
    if (email !== null) return { ...profile, email, email_verified: true };
  } catch {
    // No email permission, or the call failed: the user has no email.
  }
  return profile;
}

/**
 * Bitbucket as a sign-in provider (`AUTH_BITBUCKET_ID` = consumer key, `AUTH_BITBUCKET_SECRET`).
 * Options win; `authorization.params` merge with the defaults.
 */
export default function Bitbucket<P extends BitbucketProfile = BitbucketProfile>(
  options: OAuthUserConfig<P> = {},
): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: { url: "https://bitbucket.org/site/oauth2/authorize" },
    token: { url: "https://bitbucket.org/site/oauth2/access_token" },
    userinfo: { url: "https://api.bitbucket.org/2.0/user", request: bitbucketUserinfo },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.uuid) ?? idOf(profile.account_id),
        name: text(profile.display_name) ?? text(profile.nickname) ?? text(profile.username),
        email: text(profile.email),
        image: httpsUrl(record(record(profile.links).avatar).href),
      };
    },
    style: { brandColor: "#0052cc", logo: bitbucketLogo },
  };
  return withUserOptions(defaults, options);
}

export { Bitbucket };
