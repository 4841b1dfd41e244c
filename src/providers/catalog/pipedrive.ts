/**
 * Sign in with Pipedrive: OAuth 2 for Pipedrive Marketplace apps.
 *
 * - Endpoints: `https://oauth.pipedrive.com/oauth/authorize` (no scope parameter: the app's
 *   scopes are chosen when it is registered; `state` is supported), and
 *   `https://oauth.pipedrive.com/oauth/token` (client id and secret in HTTP Basic, which Pipedrive
 *   recommends over the body).
 * - The token answer names the company's `api_domain` (`https://<company>.pipedrive.com`); API
 *   calls made with the token go there, so the user is read from `<api_domain>/api/v1/users/me`
 *   (an `api_domain` that is not an https Pipedrive host is not followed:
 *   `https://api.pipedrive.com/v1/users/me` is asked instead). The answer wraps the user in `data`.
 *
 * @see https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 * @see https://developers.pipedrive.com/docs/api/v1/Users#getCurrentUser
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { pipedriveLogo } from "../logos/pipedrive.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

const FALLBACK_USERINFO = "https://api.pipedrive.com/v1/users/me";

/** `GET /api/v1/users/me`'s `data` (the fields sign-in uses, and a few more). */
export interface PipedriveProfile extends Profile {
  id: number;
  name?: string;
  email?: string;
  icon_url?: string | null;
  lang?: number;
  locale?: string;
  timezone_name?: string;
  company_id?: number;
  company_name?: string;
  company_domain?: string;
  is_admin?: number;
  active_flag?: boolean;
}

/** The user's endpoint on the company's `api_domain` when that is a Pipedrive host, else the configured one. */
function usersMeUrl(context: UserinfoContext): string {
  const configured = endpointUrl(context.provider.userinfo) ?? FALLBACK_USERINFO;
  if (configured !== FALLBACK_USERINFO) return configured;
  const domain = context.tokens.api_domain;
  if (typeof domain !== "string") return configured;
  try {
    const url = new URL(domain);
    if (url.protocol !== "https:" || !url.hostname.endsWith(".pipedrive.com")) return configured;
    return `${url.origin}/api/v1/users/me`;
  } catch {
    return configured;
  }
}

/** `GET /users/me` with the token; the user is the answer's `data`. */
async function pipedriveUserinfo(context: UserinfoContext): Promise<PipedriveProfile> {
  const answer = record(
    await fetchJson(context.fetch, usersMeUrl(context), {
      provider: "pipedrive",
      headers: { Authorization: bearer(context.tokens), Accept: "application/json" },
    }),
  );
  const user = record(answer.data);
  if (answer.success === false || user.id === undefined) throw new Error("pipedrive: /users/me answered no user");
  return user as PipedriveProfile;
}

/** Pipedrive as a sign-in provider (`AUTH_PIPEDRIVE_ID`, `AUTH_PIPEDRIVE_SECRET`). Options win. */
export default function Pipedrive<P extends PipedriveProfile = PipedriveProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "pipedrive",
    name: "Pipedrive",
    type: "oauth",
    authorization: { url: "https://oauth.pipedrive.com/oauth/authorize" },
    token: { url: "https://oauth.pipedrive.com/oauth/token" },
    userinfo: { url: FALLBACK_USERINFO, request: pipedriveUserinfo },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(profile.icon_url),
      };
    },
    style: { brandColor: "#017737", logo: pipedriveLogo },
  };
  return withUserOptions(defaults, options);
}

export { Pipedrive };
