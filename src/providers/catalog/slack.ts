/**
 * Sign in with Slack (OpenID Connect), discovered from `https://slack.com`.
 *
 * - Scope `openid profile email`; the ID token carries `sub` (the user id), `name`, `email`,
 *   `email_verified`, `picture`, and workspace claims under `https://slack.com/...` names
 *   (`team_id`, `team_name`, `user_image_512`, ...).
 * - The Sign in with Slack flow is protected by `nonce` and `state` (Slack documents no PKCE for it).
 * - Slack refuses `http://` redirect URIs other than for development setups it lists: use https.
 *
 * @see https://docs.slack.dev/authentication/sign-in-with-slack/
 * @see https://docs.slack.dev/reference/methods/openid.connect.userInfo/
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { slackLogo } from "../logos/slack.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** The claims of a Sign in with Slack ID token. */
export interface SlackProfile extends Profile {
  iss?: string;
  sub: string;
  aud?: string;
  exp?: number;
  iat?: number;
  auth_time?: number;
  nonce?: string;
  at_hash?: string;
  "https://slack.com/user_id"?: string;
  "https://slack.com/team_id"?: string;
  "https://slack.com/team_name"?: string;
  "https://slack.com/team_domain"?: string;
  "https://slack.com/enterprise_id"?: string;
  "https://slack.com/user_image_24"?: string;
  "https://slack.com/user_image_48"?: string;
  "https://slack.com/user_image_192"?: string;
  "https://slack.com/user_image_512"?: string;
  "https://slack.com/user_image_1024"?: string;
  email?: string;
  email_verified?: boolean;
  date_email_verified?: number;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
}

/**
 * Slack as a sign-in provider (`AUTH_SLACK_ID`, `AUTH_SLACK_SECRET`). Options win;
 * `authorization.params` merge with the default scope (add `team` to preselect a workspace).
 */
export default function Slack<P extends SlackProfile = SlackProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["nonce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.sub) ?? idOf(profile["https://slack.com/user_id"]),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(profile.picture) ?? httpsUrl(profile["https://slack.com/user_image_512"]),
      };
    },
    style: { brandColor: "#4a154b", logo: slackLogo },
  };
  return withUserOptions(defaults, options);
}

export { Slack };
