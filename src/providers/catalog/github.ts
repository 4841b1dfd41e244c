/**
 * Sign in with GitHub (an OAuth App or a GitHub App's user authorization): plain OAuth 2 with PKCE.
 *
 * - Endpoints: `https://github.com/login/oauth/authorize`, `.../access_token`, and the REST API's
 *   `GET /user`. GitHub Enterprise Server: pass `enterprise: { baseUrl }` and every URL moves there.
 * - Scope `read:user user:email`. A user whose email is private has `email: null` in `/user`, so
 *   `userinfo.request` then reads `GET /user/emails` (which `user:email` allows) and keeps the
 *   primary verified address, or else the first verified one; never an unverified address. An
 *   email taken from that list is marked `email_verified: true` on the profile.
 * - GitHub names itself in callbacks with `iss=https://github.com/login/oauth` (RFC 9207), so that
 *   is the `issuer`: it is only compared with that parameter; GitHub has no discovery document.
 *
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * @see https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 * @see https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { githubLogo } from "../logos/github.js";
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

/** `GET /user` (only the fields sign-in uses; GitHub sends many more). */
export interface GitHubProfile extends Profile {
  /** GitHub sends the numeric user id; `Profile` types ids as strings, so read it through `String()`. */
  id?: string | null;
  login: string;
  node_id?: string;
  avatar_url?: string | null;
  html_url?: string;
  name?: string | null;
  /** The public email, or `null` when the user keeps it private. */
  email?: string | null;
  company?: string | null;
  blog?: string | null;
  location?: string | null;
  bio?: string | null;
  twitter_username?: string | null;
  type?: string;
  site_admin?: boolean;
  created_at?: string;
  updated_at?: string;
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: "public" | "private" | null;
}

export interface GitHubOptions<P extends GitHubProfile = GitHubProfile> extends OAuthUserConfig<P> {
  /** GitHub Enterprise Server: the instance's URL (`https://github.example.com`). */
  enterprise?: { baseUrl?: string };
}

const GITHUB_API_HEADERS = {
  Accept: "application/vnd.github+json",
  "X-GitHub-Api-Version": "2022-11-28",
  // The REST API refuses requests without a User-Agent.
  "User-Agent": "appauth",
};

/** The address to keep from `GET /user/emails`: primary and verified, else any verified one. */
export function pickGitHubEmail(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null;
  const list = emails.map(record).filter((e) => typeof e.email === "string" && e.verified === true);
  const chosen = list.find((e) => e.primary === true) ?? list[0];
  return chosen ? (chosen.email as string) : null;
}

async function githubUserinfo(context: UserinfoContext): Promise<GitHubProfile> {
  const userUrl = endpointUrl(context.provider.userinfo) ?? "https://api.github.com/user";
  const headers = { ...GITHUB_API_HEADERS, Authorization: bearer(context.tokens) };
  const profile = record(await fetchJson(context.fetch, userUrl, { provider: "github", headers })) as GitHubProfile;
  if (text(profile.email) !== null) return profile;
  // A private email: ask the emails endpoint. Without the scope (or on any failure) the user
  // simply has no email; signing in does not depend on it.
  try {
    const emails = await fetchJson(context.fetch, `${withoutTrailingSlash(userUrl)}/emails`, { provider: "github", headers });
    const email = pickGitHubEmail(emails);
    if (email !== null) return { ...profile, email, email_verified: true };
  } catch {
    // Leave email null.
  }
  return profile;
}

/**
 * GitHub as a sign-in provider. Listed bare (`providers: [GitHub]`) it reads `AUTH_GITHUB_ID` and
 * `AUTH_GITHUB_SECRET`. Options win over every default; `authorization.params` merge key by key
 * (`{ authorization: { params: { scope: "read:user user:email repo" } } }` replaces the scope only).
 */
export default function GitHub<P extends GitHubProfile = GitHubProfile>(options: GitHubOptions<P> = {}): OAuth2Config<P> {
  const { enterprise, ...rest } = options;
  const base = withoutTrailingSlash(enterprise?.baseUrl) ?? "https://github.com";
  const api = enterprise?.baseUrl ? `${base}/api/v3` : "https://api.github.com";
  const defaults: OAuth2Config<P> = {
    id: "github",
    name: "GitHub",
    type: "oauth",
    issuer: `${base}/login/oauth`,
    authorization: { url: `${base}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: { url: `${base}/login/oauth/access_token` },
    userinfo: { url: `${api}/user`, request: githubUserinfo },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? text(profile.login),
        email: text(profile.email),
        image: httpsUrl(profile.avatar_url),
      };
    },
    style: { brandColor: "#24292f", logo: githubLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { GitHub };
