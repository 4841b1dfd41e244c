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
export { default as FortyTwoSchool, type FortyTwoProfile } from "./42-school.js";
export { default as Asgardeo, asgardeoIssuer, type AsgardeoProfile } from "./asgardeo.js";
export { default as AzureAD, type AzureADProfile, type AzureADOptions } from "./azure-ad.js";
export { default as BattleNet, type BattleNetProfile, type BattleNetIssuer } from "./battlenet.js";
export { default as BeyondIdentity, type BeyondIdentityProfile } from "./beyondidentity.js";
export { default as Box, type BoxProfile } from "./box.js";
export { default as Coinbase, type CoinbaseProfile } from "./coinbase.js";
export { default as Concept2, type Concept2Profile } from "./concept2.js";
export { default as Dribbble, type DribbbleProfile, type DribbbleUserConfig } from "./dribbble.js";
export { default as DuendeIdentityServer6, type DuendeISUserProfile } from "./duende-identity-server6.js";
export { default as Eventbrite, pickEventbriteEmail, type EventbriteProfile } from "./eventbrite.js";
export { default as Faceit, type FaceitProfile } from "./faceit.js";
export { default as Figma, type FigmaProfile } from "./figma.js";
export { default as BoxyHQSAML, type BoxyHQSAMLProfile } from "./boxyhq-saml.js";
export { default as Bungie, bungiePicture, type BungieProfile, type BungieUserConfig } from "./bungie.js";
export { default as ClickUp, type ClickUpProfile } from "./click-up.js";
export { default as AzureADB2C, azureB2cWellKnown, type AzureADB2CProfile, type AzureADB2COptions } from "./azure-ad-b2c.js";
export { default as BankIDNorway, type BankIDNorwayProfile } from "./bankid-no.js";
export { default as AzureDevOps, azureDevOpsAvatar, type AzureDevOpsProfile, type AzureDevOpsUserConfig } from "./azure-devops.js";
export { default as EVEOnline, eveCharacterPortrait, type EVEOnlineProfile } from "./eveonline.js";
export { default as Huggingface, type HuggingfaceProfile } from "./huggingface.js";
export { default as Kinde, type KindeProfile } from "./kinde.js";
export { default as Logto, type LogtoProfile } from "./logto.js";
export { default as IdentityServer4, type IdentityServer4Profile } from "./identity-server4.js";
export { default as OryHydra, type OryHydraProfile } from "./ory-hydra.js";
export { default as FusionAuth, type FusionAuthProfile, type FusionAuthUserConfig } from "./fusionauth.js";
export { default as Frontegg, type FronteggProfile } from "./frontegg.js";
export { default as Netlify, type NetlifyProfile } from "./netlify.js";
export { default as Mattermost, type MattermostProfile } from "./mattermost.js";
export { default as Mastodon, type MastodonProfile } from "./mastodon.js";
export { default as Nextcloud, type NextcloudProfile } from "./nextcloud.js";
export { default as Freshbooks, type FreshbooksProfile } from "./freshbooks.js";
export { default as Mailchimp, type MailchimpProfile } from "./mailchimp.js";
export { default as Medium, type MediumProfile } from "./medium.js";
export { default as Instagram, type InstagramProfile } from "./instagram.js";
export { default as HubSpot, type HubSpotProfile } from "./hubspot.js";
export { default as Foursquare, type FoursquareProfile, type FoursquareOptions } from "./foursquare.js";
export { default as Mailru, type MailruProfile } from "./mailru.js";
export { default as Osso, type OssoProfile } from "./osso.js";
export { default as Osu, type OsuProfile } from "./osu.js";
export { default as Passage, type PassageProfile } from "./passage.js";
export { default as PingId, type PingProfile } from "./ping-id.js";
export { default as Pinterest, type PinterestProfile } from "./pinterest.js";
export { default as Roblox, type RobloxProfile } from "./roblox.js";
export { default as SimpleLogin, type SimpleLoginProfile } from "./simplelogin.js";
export { default as Threads, type ThreadsProfile } from "./threads.js";
export { default as Todoist, type TodoistProfile } from "./todoist.js";
export { default as Pipedrive, type PipedriveProfile } from "./pipedrive.js";
export { default as VK, type VkProfile } from "./vk.js";
export { default as NetSuite, type NetSuiteProfile, type NetSuiteUserConfig } from "./netsuite.js";
export { default as WeChat, type WeChatProfile, type WeChatPlatformType, type WeChatUserConfig } from "./wechat.js";
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
import FortyTwoSchool from "./42-school.js";
import Asgardeo from "./asgardeo.js";
import AzureAD from "./azure-ad.js";
import BattleNet from "./battlenet.js";
import BeyondIdentity from "./beyondidentity.js";
import Box from "./box.js";
import Coinbase from "./coinbase.js";
import Concept2 from "./concept2.js";
import Dribbble from "./dribbble.js";
import DuendeIdentityServer6 from "./duende-identity-server6.js";
import Eventbrite from "./eventbrite.js";
import Faceit from "./faceit.js";
import Figma from "./figma.js";
import EVEOnline from "./eveonline.js";
import BoxyHQSAML from "./boxyhq-saml.js";
import Bungie from "./bungie.js";
import ClickUp from "./click-up.js";
import AzureADB2C from "./azure-ad-b2c.js";
import BankIDNorway from "./bankid-no.js";
import AzureDevOps from "./azure-devops.js";
import Huggingface from "./huggingface.js";
import Kinde from "./kinde.js";
import Logto from "./logto.js";
import IdentityServer4 from "./identity-server4.js";
import OryHydra from "./ory-hydra.js";
import FusionAuth from "./fusionauth.js";
import Frontegg from "./frontegg.js";
import Netlify from "./netlify.js";
import Mattermost from "./mattermost.js";
import Mastodon from "./mastodon.js";
import Nextcloud from "./nextcloud.js";
import Freshbooks from "./freshbooks.js";
import Mailchimp from "./mailchimp.js";
import Medium from "./medium.js";
import Instagram from "./instagram.js";
import HubSpot from "./hubspot.js";
import Foursquare from "./foursquare.js";
import Mailru from "./mailru.js";
import Osso from "./osso.js";
import Osu from "./osu.js";
import Passage from "./passage.js";
import PingId from "./ping-id.js";
import Pinterest from "./pinterest.js";
import Roblox from "./roblox.js";
import SimpleLogin from "./simplelogin.js";
import Threads from "./threads.js";
import Todoist from "./todoist.js";
import Pipedrive from "./pipedrive.js";
import VK from "./vk.js";
import WeChat from "./wechat.js";
import NetSuite from "./netsuite.js";
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
  "42-school": FortyTwoSchool,
  asgardeo: Asgardeo,
  "azure-ad": AzureAD,
  battlenet: BattleNet,
  beyondidentity: BeyondIdentity,
  box: Box,
  coinbase: Coinbase,
  concept2: Concept2,
  dribbble: Dribbble,
  "duende-identity-server6": DuendeIdentityServer6,
  eventbrite: Eventbrite,
  faceit: Faceit,
  figma: Figma,
  eveonline: EVEOnline,
  "boxyhq-saml": BoxyHQSAML,
  bungie: Bungie,
  "click-up": ClickUp,
  "azure-ad-b2c": AzureADB2C,
  "bankid-no": BankIDNorway,
  "azure-devops": AzureDevOps,
  huggingface: Huggingface,
  kinde: Kinde,
  logto: Logto,
  "identity-server4": IdentityServer4,
  "ory-hydra": OryHydra,
  fusionauth: FusionAuth,
  frontegg: Frontegg,
  netlify: Netlify,
  mattermost: Mattermost,
  mastodon: Mastodon,
  nextcloud: Nextcloud,
  freshbooks: Freshbooks,
  mailchimp: Mailchimp,
  medium: Medium,
  instagram: Instagram,
  hubspot: HubSpot,
  foursquare: Foursquare,
  mailru: Mailru,
  osso: Osso,
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
  pipedrive: Pipedrive,
  vk: VK,
  wechat: WeChat,
  netsuite: NetSuite,
} as const;

/** The id of a catalog provider (`"github"`, `"microsoft-entra-id"`, ...). */
export type CatalogProviderId = keyof typeof catalog;
