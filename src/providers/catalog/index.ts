/**
 * The provider catalog: one factory per identity provider, each usable bare
 * (`providers: [GitHub]`) or with overrides (`GitHub({ clientId, authorization: { params } })`).
 * `catalog` maps every provider id to its factory, for lookups by id (`catalog[id]()`).
 *
 * How overrides combine with a provider's defaults (the same for every factory):
 * - every option wins over the default of the same name; an option set to `undefined` is ignored;
 * - `authorization`, `token`, `userinfo`: a string replaces the URL only; an object replaces `url`
 *   and `request` when it sets them and merges `params` key by key (a param set to `undefined`
 *   removes the default one);
 * - `client` and `style` merge shallowly; `checks`, `profile`, `issuer` and the rest are replaced;
 * - `options` on the result is exactly what was passed.
 */
export {
  default as GitHub,
  pickGitHubEmail,
  type GitHubProfile,
  type GitHubEmail,
  type GitHubOptions,
} from "./github.js";
export { default as Google, type GoogleProfile } from "./google.js";
export { default as Apple, type AppleUserFormData, type AppleProfile } from "./apple.js";
export {
  default as MicrosoftEntraID,
  entraIssuerForTenant,
  isMultiTenantIssuer,
  type MicrosoftEntraIDProfile,
  type MicrosoftEntraIDOptions,
} from "./microsoft-entra-id.js";
export { default as Discord, discordAvatarUrl, type DiscordProfile } from "./discord.js";
export { default as GitLab, type GitLabProfile } from "./gitlab.js";
export { default as Facebook, type FacebookProfile } from "./facebook.js";
export { default as Twitter, X, type TwitterProfile } from "./twitter.js";
export { default as LinkedIn, type LinkedInProfile } from "./linkedin.js";
export { default as Slack, type SlackProfile } from "./slack.js";
export { default as Spotify, type SpotifyProfile } from "./spotify.js";
export { default as Twitch, type TwitchProfile } from "./twitch.js";
export { default as Reddit, type RedditProfile } from "./reddit.js";
export { default as Auth0, type Auth0Profile } from "./auth0.js";
export { default as Okta, type OktaProfile } from "./okta.js";
export { default as Keycloak, type KeycloakProfile } from "./keycloak.js";
export { default as Cognito, type CognitoProfile } from "./cognito.js";
export { default as Zitadel, type ZitadelProfile } from "./zitadel.js";
export { default as Authentik, type AuthentikProfile } from "./authentik.js";
export { default as Descope, type DescopeProfile, type DescopeOptions } from "./descope.js";
export { default as OneLogin, type OneLoginProfile } from "./onelogin.js";
export { default as Salesforce, type SalesforceProfile } from "./salesforce.js";
export { default as Line, type LineProfile } from "./line.js";
export { default as Bitbucket, pickBitbucketEmail, type BitbucketProfile } from "./bitbucket.js";
export { default as Dropbox, type DropboxProfile } from "./dropbox.js";
export { default as Atlassian, type AtlassianProfile } from "./atlassian.js";
export { default as Notion, NOTION_API_VERSION, type NotionProfile } from "./notion.js";
export { default as WorkOS, type WorkOSProfile } from "./workos.js";
export { default as Zoom, type ZoomProfile } from "./zoom.js";
export { default as Yandex, yandexAvatarUrl, type YandexProfile } from "./yandex.js";
export { default as Kakao, type KakaoProfile } from "./kakao.js";
export { default as Naver, type NaverProfile } from "./naver.js";
export { default as Strava, type StravaProfile } from "./strava.js";
export { default as Patreon, type PatreonProfile } from "./patreon.js";
export { default as Osu, type OsuProfile } from "./osu.js";
export { default as Passage, type PassageProfile } from "./passage.js";
export { default as PingId, type PingProfile } from "./ping-id.js";
export { default as Pinterest, type PinterestProfile } from "./pinterest.js";
export { default as Roblox, type RobloxProfile } from "./roblox.js";
export { default as SimpleLogin, type SimpleLoginProfile } from "./simplelogin.js";
export { default as Threads, type ThreadsProfile } from "./threads.js";
export { default as Todoist, type TodoistProfile } from "./todoist.js";
export { default as Trakt, type TraktUser } from "./trakt.js";
export { default as UnitedEffects, type UnitedEffectsProfile } from "./united-effects.js";
export { default as Vipps, type VippsProfile } from "./vipps.js";
export { default as Webex, type WebexProfile, type WebexUserConfig } from "./webex.js";
export { default as Wikimedia, type WikimediaProfile } from "./wikimedia.js";
export { default as WordPress, type WordPressProfile } from "./wordpress.js";
export { default as Zoho, type ZohoProfile } from "./zoho.js";
export { default as TikTok, type TiktokProfile } from "./tiktok.js";

import GitHub from "./github.js";
import Google from "./google.js";
import Apple from "./apple.js";
import MicrosoftEntraID from "./microsoft-entra-id.js";
import Discord from "./discord.js";
import GitLab from "./gitlab.js";
import Facebook from "./facebook.js";
import Twitter from "./twitter.js";
import LinkedIn from "./linkedin.js";
import Slack from "./slack.js";
import Spotify from "./spotify.js";
import Twitch from "./twitch.js";
import Reddit from "./reddit.js";
import Auth0 from "./auth0.js";
import Okta from "./okta.js";
import Keycloak from "./keycloak.js";
import Cognito from "./cognito.js";
import Zitadel from "./zitadel.js";
import Authentik from "./authentik.js";
import Descope from "./descope.js";
import OneLogin from "./onelogin.js";
import Salesforce from "./salesforce.js";
import Line from "./line.js";
import Bitbucket from "./bitbucket.js";
import Dropbox from "./dropbox.js";
import Atlassian from "./atlassian.js";
import Notion from "./notion.js";
import WorkOS from "./workos.js";
import Zoom from "./zoom.js";
import Yandex from "./yandex.js";
import Kakao from "./kakao.js";
import Naver from "./naver.js";
import Strava from "./strava.js";
import Patreon from "./patreon.js";
import Osu from "./osu.js";
import Passage from "./passage.js";
import PingId from "./ping-id.js";
import Pinterest from "./pinterest.js";
import Roblox from "./roblox.js";
import SimpleLogin from "./simplelogin.js";
import Threads from "./threads.js";
import Todoist from "./todoist.js";
import Trakt from "./trakt.js";
import UnitedEffects from "./united-effects.js";
import Vipps from "./vipps.js";
import Webex from "./webex.js";
import Wikimedia from "./wikimedia.js";
import WordPress from "./wordpress.js";
import Zoho from "./zoho.js";
import TikTok from "./tiktok.js";

/** Every catalog provider by id. */
export const catalog = {
  github: GitHub,
  google: Google,
  apple: Apple,
  "microsoft-entra-id": MicrosoftEntraID,
  discord: Discord,
  gitlab: GitLab,
  facebook: Facebook,
  twitter: Twitter,
  linkedin: LinkedIn,
  slack: Slack,
  spotify: Spotify,
  twitch: Twitch,
  reddit: Reddit,
  auth0: Auth0,
  okta: Okta,
  keycloak: Keycloak,
  cognito: Cognito,
  zitadel: Zitadel,
  authentik: Authentik,
  descope: Descope,
  onelogin: OneLogin,
  salesforce: Salesforce,
  line: Line,
  bitbucket: Bitbucket,
  dropbox: Dropbox,
  atlassian: Atlassian,
  notion: Notion,
  workos: WorkOS,
  zoom: Zoom,
  yandex: Yandex,
  kakao: Kakao,
  naver: Naver,
  strava: Strava,
  patreon: Patreon,
  osu: Osu,
  passage: Passage,
  "ping-id": PingId,
  pinterest: Pinterest,
  roblox: Roblox,
  simplelogin: SimpleLogin,
  threads: Threads,
  todoist: Todoist,
  trakt: Trakt,
  "united-effects": UnitedEffects,
  vipps: Vipps,
  webex: Webex,
  wikimedia: Wikimedia,
  wordpress: WordPress,
  zoho: Zoho,
  tiktok: TikTok,
} as const;

/** The id of a catalog provider (`"github"`, `"microsoft-entra-id"`, ...). */
export type CatalogProviderId = keyof typeof catalog;
