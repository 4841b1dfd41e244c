/**
 * One realistic sign-in per catalog provider, shaped after each provider's documented examples:
 * the token endpoint's answer, the ID token claims (OpenID Connect providers) or the resources the
 * callback reads (userinfo and friends, by URL), the profile that reaches `profile()`, and the user
 * it must map to. Values are invented but keep the documented shapes and types (numeric ids stay
 * numbers, HTML-escaped URLs stay escaped), so full-flow tests can serve them through a fake
 * `[customFetch]` unchanged.
 */
import type { TokenSet } from "../../../../src/providers/oauth-types.js";
import type { CatalogProviderId } from "../../../../src/providers/catalog/index.js";
import type { User } from "../../../../src/types.js";

export interface ProviderSample {
  /** Where the profile comes from: the validated ID token, or the userinfo step. */
  source: "id_token" | "userinfo";
  /** The token endpoint's JSON answer (for `id_token` sources, an ID token carrying `claims` goes with it). */
  tokenResponse: TokenSet;
  /** The ID token's claims (`id_token` sources). */
  claims?: Record<string, unknown>;
  /** What the provider's servers answer during the userinfo step, by URL (`"POST <url>"` for a POST). */
  responses?: Record<string, unknown>;
  /** What `profile()` receives: the claims, the userinfo answer, or what `userinfo.request` builds from `responses`. */
  profile: Record<string, unknown>;
  /** What `profile()` must return. */
  user: User;
}

const NOW = 1_735_000_000;
const bearerTokens = (access_token: string, extra: Partial<TokenSet> = {}): TokenSet => ({
  access_token,
  token_type: "bearer",
  expires_in: 3600,
  ...extra,
});

const github = {
  login: "octocat",
  id: 1,
  node_id: "MDQ6VXNlcjE=",
  avatar_url: "https://avatars.githubusercontent.com/u/1?v=4",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  name: "monalisa octocat",
  company: "GitHub",
  blog: "https://github.com/blog",
  location: "San Francisco",
  email: "octocat@github.com",
  bio: "There once was...",
  twitter_username: "monatheoctocat",
  created_at: "2008-01-14T04:33:35Z",
  updated_at: "2008-01-14T04:33:35Z",
};

/** GitHub variant: the user keeps their email private; `/user/emails` lists their addresses. */
export const githubPrivateEmail = {
  user: { ...github, email: null },
  emails: [
    { email: "octocat@users.noreply.github.com", primary: false, verified: true, visibility: null },
    { email: "unverified@example.com", primary: false, verified: false, visibility: null },
    { email: "monalisa@example.com", primary: true, verified: true, visibility: "private" },
  ],
};

const googleClaims = {
  iss: "https://accounts.google.com",
  azp: "1234987819200.apps.googleusercontent.com",
  aud: "1234987819200.apps.googleusercontent.com",
  sub: "110169484474386276334",
  hd: "example.com",
  email: "jsmith@example.com",
  email_verified: true,
  at_hash: "HK6E_P6Dh8Y93mRNtsDB1Q",
  name: "Jane Smith",
  picture: "https://lh3.googleusercontent.com/a/ACg8ocJ1Xz7q5b3Zz=s96-c",
  given_name: "Jane",
  family_name: "Smith",
  iat: NOW,
  exp: NOW + 3600,
};

const appleClaims = {
  iss: "https://appleid.apple.com",
  aud: "com.example.web",
  exp: NOW + 600,
  iat: NOW,
  sub: "001234.9f3a1c0b7d2e4f6a8b9c0d1e2f3a4b5c.1234",
  at_hash: "qRk6mEB2pXCq3BEmWR5Q0A",
  email: "q7rz2v8yk4@privaterelay.appleid.com",
  email_verified: true,
  is_private_email: true,
  auth_time: NOW,
  nonce_supported: true,
  real_user_status: 2,
};

/** Apple posts this form field (JSON) on the first authorization only. */
export const appleUserFormField = JSON.stringify({
  name: { firstName: "Jane", lastName: "Appleseed" },
  email: "q7rz2v8yk4@privaterelay.appleid.com",
});

const entraClaims = {
  ver: "2.0",
  iss: "https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0",
  sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
  aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
  exp: NOW + 3600,
  iat: NOW,
  nbf: NOW,
  name: "Megan Bowen",
  preferred_username: "meganb@contoso.com",
  email: "meganb@contoso.com",
  oid: "00000000-0000-0000-66f3-3332eca7ea81",
  tid: "9122040d-6c67-4c5b-b112-36a304b66dad",
  nonce: "123523",
  aio: "Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY",
};

const discord = {
  id: "80351110224678912",
  username: "nelly",
  discriminator: "0",
  global_name: "Nelly",
  avatar: "8342729096ea3675442027381ff50dfe",
  verified: true,
  email: "nelly@discord.com",
  flags: 64,
  banner: "06c16474723fe537c283b8efa61a30c8",
  accent_color: 16711680,
  premium_type: 1,
  public_flags: 64,
  mfa_enabled: true,
  locale: "en-US",
};

const gitlabClaims = {
  iss: "https://gitlab.com",
  sub: "1234567",
  aud: "5f1b3c2d4e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b",
  exp: NOW + 120,
  iat: NOW,
  auth_time: NOW - 60,
  sub_legacy: "2ab1c9f4e53e7bd0e2b3bf0ed4c7d1f5a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4",
  name: "Jane Doe",
  nickname: "janedoe",
  preferred_username: "janedoe",
  email: "jane@example.com",
  email_verified: true,
  website: "https://jane.example.com",
  profile: "https://gitlab.com/janedoe",
  picture: "https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png",
  groups_direct: ["acme", "acme/platform"],
};

const facebook = {
  id: "10160000000000001",
  name: "Jane Doe",
  email: "jane@example.com",
  picture: {
    data: {
      height: 50,
      is_silhouette: false,
      url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10160000000000001&height=50&width=50&ext=1737000000&hash=AbZ9",
      width: 50,
    },
  },
};

const twitter = {
  data: {
    id: "2244994945",
    name: "Developers",
    username: "XDevelopers",
    profile_image_url: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
  },
};

const linkedinClaims = {
  iss: "https://www.linkedin.com/oauth",
  aud: "86abcdefghij12",
  iat: NOW,
  exp: NOW + 3600,
  sub: "782bbtaQ",
  name: "John Doe",
  given_name: "John",
  family_name: "Doe",
  picture: "https://media.licdn.com/dms/image/v2/C5603AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/1516",
  locale: "en-US",
  email: "doe@email.com",
  email_verified: true,
};

const slackClaims = {
  iss: "https://slack.com",
  sub: "U0R7JM",
  aud: "25259531569.1115258246291",
  exp: NOW + 3600,
  iat: NOW,
  auth_time: NOW,
  nonce: "abcd",
  at_hash: "tUR5qAw_Ld6CvfjNsBI3-A",
  "https://slack.com/team_id": "T0R7GR",
  "https://slack.com/user_id": "U0R7JM",
  email: "krane@slack-corp.com",
  email_verified: true,
  date_email_verified: 1622128723,
  locale: "en-US",
  name: "krane",
  given_name: "Bront",
  family_name: "Labradoodle",
  picture: "https://secure.gravatar.com/avatar/bc3df3a8c2cd7cfd.jpg?s=512",
  "https://slack.com/team_name": "kraneflannel",
  "https://slack.com/team_domain": "kraneflannel",
  "https://slack.com/user_image_512": "https://avatars.slack-edge.com/2021-05-27/U0R7JM_512.png",
};

const spotify = {
  country: "SE",
  display_name: "JM Wizzler",
  email: "email@example.com",
  explicit_content: { filter_enabled: false, filter_locked: false },
  external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
  followers: { href: null, total: 3829 },
  href: "https://api.spotify.com/v1/users/wizzler",
  id: "wizzler",
  images: [{ height: 300, url: "https://i.scdn.co/image/ab6775700000ee8555c25988a6ac314394d3fbf5", width: 300 }],
  product: "premium",
  type: "user",
  uri: "spotify:user:wizzler",
};

const twitchClaims = {
  aud: "hof5gwx0su6owfnys0nyan9c87zr6t",
  exp: NOW + 900,
  iat: NOW,
  iss: "https://id.twitch.tv/oauth2",
  sub: "713936733",
  azp: "hof5gwx0su6owfnys0nyan9c87zr6t",
  nonce: "c3ab8aa609ea11e793ae92361f002671",
  preferred_username: "foobar",
  email: "foo@bar.com",
  email_verified: true,
  picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/713936733-profile_image-300x300.png",
};

/** Twitch's userinfo answer with the claims the `claims` parameter requests. */
const twitchUserinfo = {
  aud: twitchClaims.aud,
  exp: twitchClaims.exp,
  iat: twitchClaims.iat,
  iss: twitchClaims.iss,
  sub: twitchClaims.sub,
  email: twitchClaims.email,
  email_verified: true,
  picture: twitchClaims.picture,
  preferred_username: twitchClaims.preferred_username,
  updated_at: "2024-11-20T17:14:35Z",
};

const reddit = {
  id: "1w72",
  name: "spez",
  icon_img:
    "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;crop=256:256,smart&amp;s=ab12",
  snoovatar_img: "",
  verified: true,
  has_verified_email: true,
  created_utc: 1118030400,
  over_18: false,
};

const auth0Claims = {
  iss: "https://dev-abc123.us.auth0.com/",
  sub: "auth0|507f1f77bcf86cd799439020",
  aud: "xyzABC123456",
  iat: NOW,
  exp: NOW + 36000,
  name: "Jane Josephine Doe",
  nickname: "JJ",
  given_name: "Jane",
  family_name: "Doe",
  picture: "https://s.gravatar.com/avatar/3b8b5d2a6c0f.png",
  email: "janedoe@example.com",
  email_verified: true,
  updated_at: "2024-12-01T10:00:00.000Z",
};

const oktaClaims = {
  sub: "00uid4BxXw6I6TV4m0g3",
  name: "John Doe",
  email: "john.doe@example.com",
  ver: 1,
  iss: "https://dev-123456.okta.com/oauth2/default",
  aud: "0oa1gxvvr4Uw9mAvv5d7",
  iat: NOW,
  exp: NOW + 3600,
  jti: "ID.4eAWJOCMB3SX8XewDfVR",
  amr: ["pwd"],
  idp: "00o1gxvvqlUZKSfqy5d7",
  preferred_username: "john.doe@example.com",
  auth_time: NOW,
  email_verified: true,
};

const keycloakClaims = {
  exp: NOW + 300,
  iat: NOW,
  auth_time: NOW,
  jti: "b2d0f5c1-8e0e-4c1e-9b5b-0a6f3c1d2e4f",
  iss: "https://sso.example.com/realms/acme",
  aud: "appauth",
  sub: "f1c6a5e6-2d57-4b6e-9a57-2f3f0f1d9c11",
  typ: "ID",
  azp: "appauth",
  sid: "6a1e6b8c-3e3a-4b0f-8f9b-1c2d3e4f5a6b",
  acr: "1",
  email_verified: true,
  name: "Jane Doe",
  preferred_username: "jane",
  given_name: "Jane",
  family_name: "Doe",
  email: "jane@example.com",
};

const cognitoClaims = {
  sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  email_verified: true,
  iss: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example1",
  "cognito:username": "janedoe",
  origin_jti: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  aud: "xxxxxxxxxxxxexample",
  event_id: "64f513be-32db-42b0-b78e-b02127b4f463",
  token_use: "id",
  auth_time: NOW,
  exp: NOW + 3600,
  iat: NOW,
  jti: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  email: "janedoe@example.com",
};

const zitadelUserinfo = {
  sub: "164855558240141601",
  name: "Road Runner",
  given_name: "Road",
  family_name: "Runner",
  locale: "en",
  updated_at: 1658329554,
  preferred_username: "road.runner@acme.zitadel.cloud",
  email: "road.runner@acme.ch",
  email_verified: true,
  picture: "https://acme.zitadel.cloud/assets/v1/164855558240141601/users/avatar",
  "urn:zitadel:iam:user:resourceowner:id": "164855521846240033",
  "urn:zitadel:iam:user:resourceowner:name": "ACME",
};

const authentikClaims = {
  iss: "https://auth.example.com/application/o/appauth/",
  sub: "5b3f6e1e8f0c4a3a9b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a",
  aud: "QKU5mgR1bC9dk4JrSvPx",
  exp: NOW + 300,
  iat: NOW,
  auth_time: NOW,
  acr: "goauthentik.io/providers/oauth2/default",
  email: "jane@example.com",
  email_verified: true,
  name: "Jane Doe",
  given_name: "Jane Doe",
  preferred_username: "jane",
  nickname: "jane",
  groups: ["authentik Admins"],
};

const descopeClaims = {
  iss: "https://api.descope.com/P2abcDEFghiJKLmnoPQRstu",
  sub: "U2abcdefghijklmnopqrstuvwxyz",
  aud: ["P2abcDEFghiJKLmnoPQRstu"],
  exp: NOW + 600,
  iat: NOW,
  name: "Jane Doe",
  email: "jane@example.com",
  email_verified: true,
  picture: "https://static.descope.com/pictures/U2abcdefghijklmnopqrstuvwxyz.png",
};

const oneloginClaims = {
  sub: "12345678",
  email: "jane@example.com",
  preferred_username: "jane",
  name: "Jane Doe",
  given_name: "Jane",
  family_name: "Doe",
  iss: "https://acme.onelogin.com/oidc/2",
  aud: "a1b2c3d4-e5f6-7a8b-9c0d-123456789abc",
  exp: NOW + 7200,
  iat: NOW,
  sid: "f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b",
};

const salesforceClaims = {
  at_hash: "GVMU3ZqXzTC5SMP1Vt7M4w",
  sub: "https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001SwiUAAS",
  aud: "3MVG9lKcPoNINVBIPJjdw1J9LLM82HnFVVX19KY1uA5mu0QqEWhqKpoW3svG3X",
  iss: "https://login.salesforce.com",
  exp: NOW + 300,
  iat: NOW,
  name: "Jane Doe",
  given_name: "Jane",
  family_name: "Doe",
  nickname: "jdoe",
  preferred_username: "jane@acme.com",
  email: "jane@acme.com",
  email_verified: true,
  picture: "https://acme--c.documentforce.com/profilephoto/729xx000000Abc/F",
  zoneinfo: "America/Los_Angeles",
  locale: "en_US",
};

const lineClaims = {
  iss: "https://access.line.me",
  sub: "U1234567890abcdef1234567890abcdef",
  aud: "1234567890",
  exp: NOW + 3600,
  iat: NOW,
  nonce: "0987654asdf",
  amr: ["pwd"],
  name: "Taro Line",
  picture: "https://profile.line-scdn.net/0h8-zNCXgEZAlWGHAWAbcbXmpFYnMpHGdS",
  email: "taro.line@example.com",
};

const bitbucketUser = {
  type: "user",
  uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
  account_id: "557058:6ab33c3a-2b8e-4a1c-9f2b-1c2d3e4f5a6b",
  nickname: "evzijst",
  display_name: "Erik van Zijst",
  created_on: "2010-07-20T14:41:24.540Z",
  links: {
    avatar: { href: "https://secure.gravatar.com/avatar/4a7c8b3d2e1f0a9b8c7d6e5f4a3b2c1d?d=identicon&s=128" },
    html: { href: "https://bitbucket.org/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D/" },
  },
};
const bitbucketEmails = {
  pagelen: 10,
  values: [
    { is_primary: false, is_confirmed: false, type: "email", email: "old@example.com" },
    { is_primary: true, is_confirmed: true, type: "email", email: "erik@example.com" },
  ],
  page: 1,
  size: 2,
};

const dropboxAccount = {
  account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
  name: {
    given_name: "Franz",
    surname: "Ferdinand",
    familiar_name: "Franz",
    display_name: "Franz Ferdinand (Personal)",
    abbreviated_name: "FF",
  },
  email: "franz@dropbox.com",
  email_verified: true,
  disabled: false,
  locale: "en",
  referral_link: "https://db.tt/ZITNuhtI",
  is_paired: true,
  account_type: { ".tag": "basic" },
  profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
  country: "US",
};

const atlassian = {
  account_type: "atlassian",
  account_id: "112233aa-bb11-cc22-33dd-445566abcabc",
  email: "mia@example.com",
  name: "Mia Krystof",
  picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa-bb11-cc22-33dd-445566abcabc/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
  account_status: "active",
  nickname: "mkrystof",
  zoneinfo: "Australia/Sydney",
  locale: "en-US",
  extended_profile: { job_title: "Designer", organization: "mia@example.com", department: "Design team", location: "Sydney" },
  email_verified: true,
};

const notionOwner = {
  object: "user",
  id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
  name: "Avocado Lovelace",
  avatar_url: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/e6a352a8-8381-44d0-a1dc-9ed80e62b53d/avatar.png",
  type: "person",
  person: { email: "avo@example.org" },
};
/** Notion's token endpoint answer: it names the user who authorized the integration. */
export const notionTokenResponse: TokenSet = {
  access_token: "ntn_4829a1b7c3d5e6f7a8b9c0d1e2f3a4b5",
  token_type: "bearer",
  refresh_token: "nrt_0f1e2d3c4b5a69788796a5b4c3d2e1f0",
  bot_id: "b3414d659-1224-5ty7-6ffr-cc9d8773drt601288f",
  workspace_name: "Avocado's workspace",
  workspace_icon: "https://www.notion.so/images/favicon.ico",
  workspace_id: "j565j4d7x3-2882-61bs-564a-jj9d9ui-c36hxfr7x",
  owner: { type: "user", user: notionOwner },
  duplicated_template_id: null,
  request_id: "f3a9b2c1-4d5e-6f7a-8b9c-0d1e2f3a4b5c",
};

const workosUser = {
  object: "user",
  id: "user_01E4ZCR3C56J083X43JQXF3JK5",
  email: "marcelina.davis@example.com",
  first_name: "Marcelina",
  last_name: "Davis",
  email_verified: true,
  profile_picture_url: "https://workoscdn.com/images/v1/123abc",
  last_sign_in_at: "2024-12-20T19:07:33.155Z",
  external_id: null,
  created_at: "2021-06-25T19:07:33.155Z",
  updated_at: "2021-06-25T19:07:33.155Z",
};
/** WorkOS's authenticate answer: tokens and the user at once. */
export const workosAuthenticateResponse: TokenSet = {
  user: workosUser,
  organization_id: "org_01H945H0YD4F97JN9MATX7BYAG",
  access_token: "eyJhbGciOiJSUzI1NiIsImtpZCI6InNzb19vaWRjX2tleV9wYWlyXzAxSDk0NTRSQ0tTMTdCQkRQNjlOVjZKWkNRIn0.eyJzdWIiOiJ1c2VyXzAxIn0.sig",
  refresh_token: "yAjhKk123NLIjdrBdGZPf8pLIDvK",
  authentication_method: "SSO",
};

const zoom = {
  id: "KDcuGIm1QgePTO8WbOqwIQ",
  first_name: "Jill",
  last_name: "Chill",
  display_name: "Jill Chill",
  email: "jchill@example.com",
  type: 1,
  role_name: "Owner",
  pmi: 3542471135,
  use_pmi: false,
  timezone: "Asia/Shanghai",
  verified: 1,
  dept: "",
  created_at: "2019-06-01T07:58:03Z",
  last_login_time: "2024-12-20T08:01:00Z",
  pic_url: "https://us05web.zoom.us/p/v2/d1f4e3c2b1a0.png",
  language: "en-US",
  status: "active",
  account_id: "q6gBJVO5TzexKYTb_I2rpg",
};

const yandex = {
  id: "1000034426",
  login: "ivan",
  client_id: "4760187d81bc4b7799476b42b5103713",
  display_name: "Ivan",
  real_name: "Ivan Ivanov",
  first_name: "Ivan",
  last_name: "Ivanov",
  sex: "male",
  default_email: "test@yandex.ru",
  emails: ["test@yandex.ru", "other-test@yandex.ru"],
  default_avatar_id: "131652443",
  is_avatar_empty: false,
  psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
};

const kakao = {
  id: 123456789,
  connected_at: "2022-04-11T01:45:28Z",
  properties: {
    nickname: "홍길동",
    profile_image: "https://k.kakaocdn.net/dn/dpk9l1/btqmGhA2lKL/Oz0wDuJn1YV2DIn92f6DVK/img_640x640.jpg",
    thumbnail_image: "https://k.kakaocdn.net/dn/dpk9l1/btqmGhA2lKL/Oz0wDuJn1YV2DIn92f6DVK/img_110x110.jpg",
  },
  kakao_account: {
    profile_nickname_needs_agreement: false,
    profile_image_needs_agreement: false,
    profile: {
      nickname: "홍길동",
      thumbnail_image_url: "https://k.kakaocdn.net/dn/dpk9l1/btqmGhA2lKL/Oz0wDuJn1YV2DIn92f6DVK/img_110x110.jpg",
      profile_image_url: "https://k.kakaocdn.net/dn/dpk9l1/btqmGhA2lKL/Oz0wDuJn1YV2DIn92f6DVK/img_640x640.jpg",
      is_default_image: false,
    },
    email_needs_agreement: false,
    is_email_valid: true,
    is_email_verified: true,
    email: "sample@sample.com",
  },
};

const naver = {
  resultcode: "00",
  message: "success",
  response: {
    email: "openapi@naver.com",
    nickname: "OpenAPI",
    profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
    age: "40-49",
    gender: "F",
    id: "32742776",
    name: "오픈 API",
    birthday: "10-01",
    birthyear: "1900",
    mobile: "010-0000-0000",
  },
};

const strava = {
  id: 134815,
  username: "marianne_t",
  resource_state: 2,
  firstname: "Marianne",
  lastname: "Teutenberg",
  bio: "",
  city: "San Francisco",
  state: "CA",
  country: "US",
  sex: "F",
  premium: true,
  summit: true,
  created_at: "2017-11-14T02:30:05Z",
  updated_at: "2018-02-06T19:32:20Z",
  badge_type_id: 4,
  weight: 68,
  profile_medium: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/134815/2/medium.jpg",
  profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/134815/2/large.jpg",
  friend: null,
  follower: null,
};

const patreon = {
  data: {
    attributes: {
      email: "corgi@example.com",
      full_name: "Platform Corgi",
      image_url: "https://c8.patreon.com/3/200/5483333",
      is_email_verified: true,
    },
    id: "5483333",
    type: "user",
  },
  links: { self: "https://www.patreon.com/api/oauth2/v2/user/5483333" },
};

export const samples: Record<CatalogProviderId, ProviderSample> = {
  github: {
    source: "userinfo",
    tokenResponse: { access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a", token_type: "bearer", scope: "read:user,user:email" },
    responses: { "https://api.github.com/user": github },
    profile: github,
    user: { id: "1", name: "monalisa octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/1?v=4" },
  },
  google: {
    source: "id_token",
    tokenResponse: bearerTokens("ya29.a0AfH6SMC-google-access", { scope: "openid email profile" }),
    claims: googleClaims,
    profile: googleClaims,
    user: { id: "110169484474386276334", name: "Jane Smith", email: "jsmith@example.com", image: googleClaims.picture },
  },
  apple: {
    source: "id_token",
    tokenResponse: bearerTokens("a7e1d2c3b4a5.0.apple-access", { refresh_token: "r1f2e3d4c5b6.0.apple-refresh" }),
    claims: appleClaims,
    profile: { ...appleClaims, user: JSON.parse(appleUserFormField) as Record<string, unknown> },
    user: { id: appleClaims.sub, name: "Jane Appleseed", email: "q7rz2v8yk4@privaterelay.appleid.com", image: null },
  },
  "microsoft-entra-id": {
    source: "id_token",
    tokenResponse: bearerTokens("eyJ0eXAiOiJKV1Qi.entra-access", { scope: "openid profile email User.Read" }),
    claims: entraClaims,
    profile: entraClaims,
    user: { id: entraClaims.sub, name: "Megan Bowen", email: "meganb@contoso.com", image: null },
  },
  discord: {
    source: "userinfo",
    tokenResponse: bearerTokens("6qrZcUqja7812RVdnEKjpzOL4CvHBFG", { refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue", scope: "identify email", expires_in: 604800 }),
    responses: { "https://discord.com/api/users/@me": discord },
    profile: discord,
    user: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
  },
  gitlab: {
    source: "id_token",
    tokenResponse: bearerTokens("glpat-oauth-de6780bc506a0446309bd9362820ba8aed28aa506c71eedbe1c5c4f9dd350e54", { refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1", expires_in: 7200, scope: "openid profile email" }),
    claims: gitlabClaims,
    profile: gitlabClaims,
    user: { id: "1234567", name: "Jane Doe", email: "jane@example.com", image: gitlabClaims.picture },
  },
  facebook: {
    source: "userinfo",
    tokenResponse: bearerTokens("EAAGm0PX4ZCpsBAFacebookAccess", { expires_in: 5183944 }),
    responses: { "https://graph.facebook.com/me?fields=id,name,email,picture": facebook },
    profile: facebook,
    user: { id: "10160000000000001", name: "Jane Doe", email: "jane@example.com", image: facebook.picture.data.url },
  },
  twitter: {
    source: "userinfo",
    tokenResponse: bearerTokens("BearerTokenFromX", { expires_in: 7200, scope: "users.read tweet.read offline.access", refresh_token: "bWRWa3gzdnk3WHRGU1o0bmRRcTJ5VUxWX1lZTDdJSUtmaWcxbTVxdEFXcW5tOjE2MjIxNDc3NDM5MTQ6MToxOnJ0OjE" }),
    responses: { "https://api.x.com/2/users/me?user.fields=profile_image_url": twitter },
    profile: twitter,
    user: { id: "2244994945", name: "Developers", email: null, image: twitter.data.profile_image_url },
  },
  linkedin: {
    source: "id_token",
    tokenResponse: bearerTokens("AQUvlL_DYEzvT2wz1QJiEPeLioeA", { expires_in: 5184000, scope: "email,openid,profile" }),
    claims: linkedinClaims,
    profile: linkedinClaims,
    user: { id: "782bbtaQ", name: "John Doe", email: "doe@email.com", image: linkedinClaims.picture },
  },
  slack: {
    source: "id_token",
    tokenResponse: { ok: true, access_token: "xoxp-1234", token_type: "Bearer" },
    claims: slackClaims,
    profile: slackClaims,
    user: { id: "U0R7JM", name: "krane", email: "krane@slack-corp.com", image: slackClaims.picture },
  },
  spotify: {
    source: "userinfo",
    tokenResponse: bearerTokens("NgCXRK...MzYjw", { scope: "user-read-email", refresh_token: "NgAagA...Um_SHo" }),
    responses: { "https://api.spotify.com/v1/me": spotify },
    profile: spotify,
    user: { id: "wizzler", name: "JM Wizzler", email: "email@example.com", image: spotify.images[0]!.url },
  },
  twitch: {
    source: "userinfo",
    // Twitch's answer as sent: `scope` is an array (the provider's token.request joins it).
    tokenResponse: bearerTokens("rfx2uswqe8l4g1mkagrvg5tv0ks3", { refresh_token: "5b93chm6hdve3mycz05zfzatkfdenfspp1h1ar2xxdalen01", scope: ["openid", "user:read:email"] as unknown as string, expires_in: 14124 }),
    claims: twitchClaims,
    responses: { "https://id.twitch.tv/oauth2/userinfo": twitchUserinfo },
    profile: twitchUserinfo,
    user: { id: "713936733", name: "foobar", email: "foo@bar.com", image: twitchClaims.picture },
  },
  reddit: {
    source: "userinfo",
    tokenResponse: bearerTokens("eyJhbGciOiJSUzI1NiIsImtpZCI6IlNIQTI1NjpzS3dsMnlsV0VtMjVmcXhwTU40cWY4MXE2OWFFdWFyMnpLMUdhVGxjdWNZIiwidHlwIjoiSldUIn0.reddit", { expires_in: 86400, scope: "identity" }),
    responses: { "https://oauth.reddit.com/api/v1/me": reddit },
    profile: reddit,
    user: {
      id: "1w72",
      name: "spez",
      email: null,
      image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=ab12",
    },
  },
  auth0: {
    source: "id_token",
    tokenResponse: bearerTokens("eyJz93a...k4laUWw", { scope: "openid profile email", expires_in: 86400 }),
    claims: auth0Claims,
    profile: auth0Claims,
    user: { id: "auth0|507f1f77bcf86cd799439020", name: "Jane Josephine Doe", email: "janedoe@example.com", image: auth0Claims.picture },
  },
  okta: {
    source: "id_token",
    tokenResponse: bearerTokens("eyJhbGciOiJSUzI1NiJ9.okta-access", { scope: "openid profile email" }),
    claims: oktaClaims,
    profile: oktaClaims,
    user: { id: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", image: null },
  },
  keycloak: {
    source: "id_token",
    tokenResponse: bearerTokens("eyJhbGciOiJSUzI1NiJ9.keycloak-access", { refresh_expires_in: 1800, refresh_token: "eyJhbGciOiJIUzUxMiJ9.refresh", scope: "openid profile email", session_state: "6a1e6b8c-3e3a-4b0f-8f9b-1c2d3e4f5a6b", expires_in: 300 }),
    claims: keycloakClaims,
    profile: keycloakClaims,
    user: { id: "f1c6a5e6-2d57-4b6e-9a57-2f3f0f1d9c11", name: "Jane Doe", email: "jane@example.com", image: null },
  },
  cognito: {
    source: "id_token",
    tokenResponse: { access_token: "eyJra1example.cognito-access", token_type: "Bearer", expires_in: 3600, refresh_token: "eyJj3example.cognito-refresh" },
    claims: cognitoClaims,
    profile: cognitoClaims,
    user: { id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", name: "janedoe", email: "janedoe@example.com", image: null },
  },
  zitadel: {
    source: "userinfo",
    tokenResponse: { access_token: "zitadel-opaque-access", token_type: "Bearer", expires_in: 43199 },
    claims: { iss: "https://acme.zitadel.cloud", sub: zitadelUserinfo.sub, aud: ["170086824411201793@appauth"], exp: NOW + 43200, iat: NOW, auth_time: NOW, amr: ["password", "pwd"], azp: "170086824411201793@appauth" },
    responses: { "https://acme.zitadel.cloud/oidc/v1/userinfo": zitadelUserinfo },
    profile: zitadelUserinfo,
    user: { id: "164855558240141601", name: "Road Runner", email: "road.runner@acme.ch", image: zitadelUserinfo.picture },
  },
  authentik: {
    source: "id_token",
    tokenResponse: bearerTokens("authentik-access", { scope: "openid profile email", expires_in: 300 }),
    claims: authentikClaims,
    profile: authentikClaims,
    user: { id: authentikClaims.sub, name: "Jane Doe", email: "jane@example.com", image: null },
  },
  descope: {
    source: "id_token",
    tokenResponse: bearerTokens("descope-access", { scope: "openid profile email" }),
    claims: descopeClaims,
    profile: descopeClaims,
    user: { id: "U2abcdefghijklmnopqrstuvwxyz", name: "Jane Doe", email: "jane@example.com", image: descopeClaims.picture },
  },
  onelogin: {
    source: "id_token",
    tokenResponse: bearerTokens("onelogin-access", { expires_in: 7200, refresh_token: "onelogin-refresh" }),
    claims: oneloginClaims,
    profile: oneloginClaims,
    user: { id: "12345678", name: "Jane Doe", email: "jane@example.com", image: null },
  },
  salesforce: {
    source: "id_token",
    tokenResponse: {
      access_token: "00Dxx0000001gPL!AR8AQJXg5oj8jXSgxJfA0lBog",
      signature: "uTOz/kF/pAfmBeE4wD3rOXcXT0ZMbS3wfHyVa8Mf+7o=",
      scope: "openid profile email",
      instance_url: "https://acme.my.salesforce.com",
      id: "https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001SwiUAAS",
      token_type: "Bearer",
      issued_at: "1735000000000",
    },
    claims: salesforceClaims,
    profile: salesforceClaims,
    user: { id: salesforceClaims.sub, name: "Jane Doe", email: "jane@acme.com", image: salesforceClaims.picture },
  },
  line: {
    source: "id_token",
    tokenResponse: { access_token: "bNl4YEFPI/hjFWhTqexp4MuEw5YPs", expires_in: 2592000, refresh_token: "Aa1FdeggRhTnPNNpxr8p", scope: "profile openid", token_type: "Bearer" },
    claims: lineClaims,
    profile: lineClaims,
    user: { id: "U1234567890abcdef1234567890abcdef", name: "Taro Line", email: "taro.line@example.com", image: lineClaims.picture },
  },
  bitbucket: {
    source: "userinfo",
    tokenResponse: bearerTokens("bitbucket-access", { expires_in: 7200, refresh_token: "bitbucket-refresh", scopes: "account email" }),
    responses: {
      "https://api.bitbucket.org/2.0/user": bitbucketUser,
      "https://api.bitbucket.org/2.0/user/emails": bitbucketEmails,
    },
    profile: { ...bitbucketUser, email: "erik@example.com", email_verified: true },
    user: {
      id: "{d301aafa-d676-4ee0-88be-962be7417567}",
      name: "Erik van Zijst",
      email: "erik@example.com",
      image: bitbucketUser.links.avatar.href,
    },
  },
  dropbox: {
    source: "userinfo",
    tokenResponse: bearerTokens("sl.u.AbX9y6Fe3AuH5o66-gmJpR032jwAwQPIVVzWXZNkdzcYT02akC2de219dZi6gxYPVnYPrpvISRSf9lxKWJzYLjtMPH-d9fo_0gXex7X37VIvpty4-G8f4-WX45AcEPfRnJJDwzv-", { expires_in: 14400, refresh_token: "dropbox-refresh", scope: "account_info.read", uid: "12345", account_id: dropboxAccount.account_id }),
    responses: { "POST https://api.dropboxapi.com/2/users/get_current_account": dropboxAccount },
    profile: { ...dropboxAccount, name: "Franz Ferdinand (Personal)", name_parts: dropboxAccount.name },
    user: {
      id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: "Franz Ferdinand (Personal)",
      email: "franz@dropbox.com",
      image: dropboxAccount.profile_photo_url,
    },
  },
  atlassian: {
    source: "userinfo",
    tokenResponse: bearerTokens("atlassian-access", { scope: "read:me read:account" }),
    responses: { "https://api.atlassian.com/me": atlassian },
    profile: atlassian,
    user: { id: "112233aa-bb11-cc22-33dd-445566abcabc", name: "Mia Krystof", email: "mia@example.com", image: atlassian.picture },
  },
  notion: {
    source: "userinfo",
    tokenResponse: notionTokenResponse,
    responses: { "POST https://api.notion.com/v1/oauth/token": notionTokenResponse },
    profile: notionOwner,
    user: { id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", name: "Avocado Lovelace", email: "avo@example.org", image: notionOwner.avatar_url },
  },
  workos: {
    source: "userinfo",
    tokenResponse: workosAuthenticateResponse,
    responses: { "POST https://api.workos.com/user_management/authenticate": workosAuthenticateResponse },
    profile: workosUser,
    user: {
      id: "user_01E4ZCR3C56J083X43JQXF3JK5",
      name: "Marcelina Davis",
      email: "marcelina.davis@example.com",
      image: "https://workoscdn.com/images/v1/123abc",
    },
  },
  zoom: {
    source: "userinfo",
    tokenResponse: bearerTokens("eyJhbGciOiJIUzUxMiJ9.zoom-access", { refresh_token: "eyJhbGciOiJIUzUxMiJ9.zoom-refresh", scope: "user:read:user" }),
    responses: { "https://api.zoom.us/v2/users/me": zoom },
    profile: zoom,
    user: { id: "KDcuGIm1QgePTO8WbOqwIQ", name: "Jill Chill", email: "jchill@example.com", image: zoom.pic_url },
  },
  yandex: {
    source: "userinfo",
    tokenResponse: bearerTokens("y0_AgAAAAAGPYvlAAG8XgAAAADu-yandex", { expires_in: 31536000, refresh_token: "1:GN686QVt0mmakDd9:A4pYuW9LGk0_UnlrMIWklkAuJkUWbq27loFekJVmSYrdfzdePBy7:A-2dHOmBxiXgajnD-kYOwQ" }),
    responses: { "https://login.yandex.ru/info?format=json": yandex },
    profile: yandex,
    user: { id: "1000034426", name: "Ivan", email: "test@yandex.ru", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" },
  },
  kakao: {
    source: "userinfo",
    tokenResponse: bearerTokens("kakao-access", { expires_in: 43199, refresh_token: "kakao-refresh", refresh_token_expires_in: 5183999, scope: "account_email profile_image profile_nickname" }),
    responses: { "https://kapi.kakao.com/v2/user/me?secure_resource=true": kakao },
    profile: kakao,
    user: { id: "123456789", name: "홍길동", email: "sample@sample.com", image: kakao.kakao_account.profile.profile_image_url },
  },
  naver: {
    source: "userinfo",
    tokenResponse: bearerTokens("AAAAQosjWDJieBiQZc3to9YQp6HDLvrmyKC+6+iZ3gq7qrkqf50ljZC+Lgoqrg"),
    responses: { "https://openapi.naver.com/v1/nid/me": naver },
    profile: naver,
    user: { id: "32742776", name: "오픈 API", email: "openapi@naver.com", image: naver.response.profile_image },
  },
  strava: {
    source: "userinfo",
    tokenResponse: { token_type: "Bearer", expires_at: NOW + 21600, expires_in: 21600, refresh_token: "strava-refresh", access_token: "strava-access", athlete: { id: 134815, firstname: "Marianne", lastname: "Teutenberg" } },
    responses: { "https://www.strava.com/api/v3/athlete": strava },
    profile: strava,
    user: { id: "134815", name: "Marianne Teutenberg", email: null, image: strava.profile },
  },
  patreon: {
    source: "userinfo",
    tokenResponse: bearerTokens("patreon-access", { expires_in: 2678400, refresh_token: "patreon-refresh", scope: "identity identity[email]", version: "0.0.1" }),
    responses: {
      "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name,image_url,is_email_verified": patreon,
    },
    profile: patreon,
    user: { id: "5483333", name: "Platform Corgi", email: "corgi@example.com", image: patreon.data.attributes.image_url },
  },
};
