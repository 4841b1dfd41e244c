/**
 * Sign in with GitLab: OpenID Connect, discovered from `https://gitlab.com` (or a self-managed
 * instance given as `issuer`, e.g. `https://gitlab.example.com`).
 *
 * - Scope `openid profile email`; GitLab puts `name`, `nickname`, `preferred_username`, `email`,
 *   `email_verified`, `picture`, `profile` and `groups_direct` in the ID token. PKCE is supported.
 * - Add `read_user` or `api` to the scope only when the app calls the GitLab API.
 *
 * @see https://docs.gitlab.com/integration/openid_connect_provider/
 * @see https://docs.gitlab.com/api/oauth2/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { gitlabLogo } from "../logos/gitlab.js";
import { httpsUrl, idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a GitLab ID token. */
export interface GitLabProfile extends Profile {
  /** The user's numeric id, as a string. */
  sub: string;
  sub_legacy?: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  website?: string;
  profile?: string;
  picture?: string;
  groups_direct?: string[];
  auth_time?: number;
}

/** GitLab's options: any provider option, plus Auth.js's `baseUrl` for a self-managed instance. */
export type GitLabUserConfig<P extends GitLabProfile = GitLabProfile> = OAuthUserConfig<P> & {
  /** A self-managed GitLab, e.g. `https://gitlab.example.com` (as in Auth.js); the same as giving it as `issuer`. */
  baseUrl?: string | URL;
};

/**
 * GitLab as a sign-in provider (`AUTH_GITLAB_ID`, `AUTH_GITLAB_SECRET`). Options win;
 * `authorization.params` merge with the default scope. `issuer` wins over `baseUrl`.
 */
export default function GitLab<P extends GitLabProfile = GitLabProfile>(options: GitLabUserConfig<P> = {}): OIDCConfig<P> {
  const { baseUrl, ...rest } = options;
  const issuer = withoutTrailingSlash(rest.issuer ?? (baseUrl === undefined ? undefined : String(baseUrl)));
  const defaults: OIDCConfig<P> = {
    id: "gitlab",
    name: "GitLab",
    type: "oidc",
    issuer: "https://gitlab.com",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? text(profile.nickname) ?? text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#fc6d26", logo: gitlabLogo },
  };
  return withUserOptions(defaults, { ...rest, issuer }, options);
}

export { GitLab };
