/**
 * What each catalog provider's documentation says its servers are and expect, written down
 * independently of the provider modules so a full sign-in can hold the modules to it: where the
 * discovery document and keys are (OpenID Connect), the authorization endpoint and the parameters
 * it takes, the callback protections, the token endpoint and how a client authenticates there,
 * what the callback carries back, and every host a sign-in may talk to.
 */
import type { CatalogProviderId } from "../../../../src/providers/catalog/index.js";

export type Check = "pkce" | "state" | "nonce";
export type ClientAuth = "client_secret_basic" | "client_secret_post";

/** An expected authorization parameter: the exact value, JSON equal to `json`, or `undefined` for "absent". */
export type ExpectedParam = string | undefined | { json: unknown };

export interface OidcFacts {
  /** The discovery document's URL. */
  discovery: string;
  /** The `issuer` the discovery document states. */
  issuer: string;
  jwks: string;
  userinfo?: string;
  /** Further metadata the provider publishes that bears on the flow. */
  metadata?: Record<string, unknown>;
}

export interface ProviderFacts {
  clientId: string;
  clientSecret: string;
  /** Options besides the credentials (an issuer or tenant that only exists per deployment). */
  options?: Record<string, unknown>;
  oidc?: OidcFacts;
  /** The authorization endpoint, without a query. */
  authorize: string;
  /** Parameters the authorization request must carry, besides the protocol's own. */
  params: Record<string, ExpectedParam>;
  /** The callback protections the provider supports and the module should use. */
  checks: Check[];
  token: {
    url: string;
    auth: ClientAuth;
    /** How the code exchange is encoded (default form). */
    body?: "form" | "json";
    /** Whether the exchange repeats the redirect_uri (default true). */
    redirectUri?: boolean;
    /** Answers JSON only to a client that asks for it (GitHub answers form-encoded otherwise). */
    jsonOnlyWhenAsked?: boolean;
  };
  callback?: {
    /** `POST` for `response_mode=form_post`. */
    method?: "GET" | "POST";
    /** The RFC 9207 `iss` the provider adds to its callbacks. */
    iss?: string;
    /** Other parameters the provider adds. */
    params?: Record<string, string>;
  };
  /** The Authorization scheme its APIs take (default Bearer). */
  apiScheme?: string;
  /** How its ID tokens are signed (default RS256 with a key from the JWKS). */
  idTokenAlg?: "RS256" | "HS256";
  /** Every host a sign-in may talk to. */
  hosts: string[];
}

const BOTH_AUTH = { token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"] };
const ENTRA_TENANT = "9122040d-6c67-4c5b-b112-36a304b66dad";
const ENTRA_LOGIN = `https://login.microsoftonline.com/${ENTRA_TENANT}`;
const AUTH0 = "https://dev-abc123.us.auth0.com";
const OKTA = "https://dev-123456.okta.com/oauth2/default";
const KEYCLOAK = "https://sso.example.com/realms/acme";
const COGNITO = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example1";
const COGNITO_DOMAIN = "https://example.auth.us-east-1.amazoncognito.com";
const ZITADEL = "https://acme.zitadel.cloud";
const AUTHENTIK = "https://auth.example.com/application/o";
const DESCOPE_PROJECT = "P2abcDEFghiJKLmnoPQRstu";
const ONELOGIN = "https://acme.onelogin.com/oidc/2";
const OIDC_SCOPE = { scope: "openid profile email" };

/** The claims Twitch is asked to put in the ID token and the userinfo answer. */
const TWITCH_CLAIMS = {
  id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
  userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
};

export const flowFacts: Record<CatalogProviderId, ProviderFacts> = {
  github: {
    clientId: "Iv1.8a61f9b3a7aba766",
    clientSecret: "gh-secret-1b2c3d4e5f60718293a4",
    authorize: "https://github.com/login/oauth/authorize",
    params: { scope: "read:user user:email" },
    checks: ["pkce", "state"],
    token: { url: "https://github.com/login/oauth/access_token", auth: "client_secret_basic", jsonOnlyWhenAsked: true },
    callback: { iss: "https://github.com/login/oauth" },
    hosts: ["github.com", "api.github.com"],
  },
  google: {
    clientId: "1234987819200.apps.googleusercontent.com",
    clientSecret: "GOCSPX-google-secret-0123",
    oidc: {
      discovery: "https://accounts.google.com/.well-known/openid-configuration",
      issuer: "https://accounts.google.com",
      jwks: "https://www.googleapis.com/oauth2/v3/certs",
      userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
      metadata: { ...BOTH_AUTH, code_challenge_methods_supported: ["plain", "S256"] },
    },
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    params: { scope: "openid email profile" },
    checks: ["pkce", "nonce"],
    token: { url: "https://oauth2.googleapis.com/token", auth: "client_secret_basic" },
    callback: { iss: "https://accounts.google.com", params: { authuser: "0", hd: "example.com", prompt: "consent" } },
    hosts: ["accounts.google.com", "oauth2.googleapis.com", "www.googleapis.com", "openidconnect.googleapis.com"],
  },
  apple: {
    clientId: "com.example.web",
    // The client secret is a short-lived ES256 JWT the app signs; any string serves the test.
    clientSecret: "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIn0.c2lnbmF0dXJl",
    oidc: {
      discovery: "https://appleid.apple.com/.well-known/openid-configuration",
      issuer: "https://appleid.apple.com",
      jwks: "https://appleid.apple.com/auth/keys",
      metadata: {
        response_modes_supported: ["query", "fragment", "form_post"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
        scopes_supported: ["openid", "email", "name"],
      },
    },
    authorize: "https://appleid.apple.com/auth/authorize",
    params: { scope: "openid name email", response_mode: "form_post" },
    checks: ["state", "nonce"],
    token: { url: "https://appleid.apple.com/auth/token", auth: "client_secret_post" },
    // `user` is added by the test from samples.ts (Apple sends it on the first sign-in only).
    callback: { method: "POST" },
    hosts: ["appleid.apple.com"],
  },
  "microsoft-entra-id": {
    clientId: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
    clientSecret: "entra~secret.0123456789abcdef",
    options: { tenantId: ENTRA_TENANT },
    oidc: {
      discovery: `${ENTRA_LOGIN}/v2.0/.well-known/openid-configuration`,
      issuer: `${ENTRA_LOGIN}/v2.0`,
      jwks: `${ENTRA_LOGIN}/discovery/v2.0/keys`,
      userinfo: "https://graph.microsoft.com/oidc/userinfo",
      metadata: {
        token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
        response_modes_supported: ["query", "fragment", "form_post"],
        cloud_instance_name: "microsoftonline.com",
      },
    },
    authorize: `${ENTRA_LOGIN}/oauth2/v2.0/authorize`,
    params: { scope: "openid profile email User.Read" },
    checks: ["pkce", "nonce"],
    token: { url: `${ENTRA_LOGIN}/oauth2/v2.0/token`, auth: "client_secret_basic" },
    callback: { params: { session_state: "7b29111d-c220-4263-99ab-6f6b135d75be" } },
    hosts: ["login.microsoftonline.com", "graph.microsoft.com"],
  },
  discord: {
    clientId: "1091283771234567890",
    clientSecret: "discord-secret-0123456789ab",
    authorize: "https://discord.com/oauth2/authorize",
    params: { scope: "identify email" },
    checks: ["pkce", "state"],
    token: { url: "https://discord.com/api/oauth2/token", auth: "client_secret_basic" },
    hosts: ["discord.com"],
  },
  gitlab: {
    clientId: "5f1b3c2d4e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b",
    clientSecret: "gloas-secret-0123456789abcdef",
    oidc: {
      discovery: "https://gitlab.com/.well-known/openid-configuration",
      issuer: "https://gitlab.com",
      jwks: "https://gitlab.com/oauth/discovery/keys",
      userinfo: "https://gitlab.com/oauth/userinfo",
      metadata: BOTH_AUTH,
    },
    authorize: "https://gitlab.com/oauth/authorize",
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: "https://gitlab.com/oauth/token", auth: "client_secret_basic" },
    hosts: ["gitlab.com"],
  },
  facebook: {
    clientId: "1234567890123456",
    clientSecret: "fb0123456789abcdef0123456789abcd",
    authorize: "https://www.facebook.com/dialog/oauth",
    params: { scope: "email public_profile" },
    checks: ["pkce", "state"],
    token: { url: "https://graph.facebook.com/oauth/access_token", auth: "client_secret_post" },
    hosts: ["www.facebook.com", "graph.facebook.com"],
  },
  twitter: {
    clientId: "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ",
    clientSecret: "x-secret-0123456789abcdefABCDEF",
    authorize: "https://x.com/i/oauth2/authorize",
    params: { scope: "users.read tweet.read offline.access" },
    checks: ["pkce", "state"],
    token: { url: "https://api.x.com/2/oauth2/token", auth: "client_secret_basic" },
    hosts: ["x.com", "api.x.com"],
  },
  linkedin: {
    clientId: "86abcdefghij12",
    clientSecret: "WPL_AP1.linkedin-secret.0123",
    oidc: {
      discovery: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
      issuer: "https://www.linkedin.com/oauth",
      jwks: "https://www.linkedin.com/oauth/openid/jwks",
      userinfo: "https://api.linkedin.com/v2/userinfo",
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_post"] },
    },
    authorize: "https://www.linkedin.com/oauth/v2/authorization",
    params: OIDC_SCOPE,
    checks: ["state"],
    token: { url: "https://www.linkedin.com/oauth/v2/accessToken", auth: "client_secret_post" },
    hosts: ["www.linkedin.com", "api.linkedin.com"],
  },
  slack: {
    clientId: "25259531569.1115258246291",
    clientSecret: "slack-secret-0123456789abcdef",
    oidc: {
      discovery: "https://slack.com/.well-known/openid-configuration",
      issuer: "https://slack.com",
      jwks: "https://slack.com/openid/connect/keys",
      userinfo: "https://slack.com/api/openid.connect.userInfo",
      metadata: BOTH_AUTH,
    },
    authorize: "https://slack.com/openid/connect/authorize",
    params: OIDC_SCOPE,
    checks: ["nonce", "state"],
    token: { url: "https://slack.com/api/openid.connect.token", auth: "client_secret_basic" },
    hosts: ["slack.com"],
  },
  spotify: {
    clientId: "5fe01282e44241328a84e7c5cc169165",
    clientSecret: "spotify0123456789abcdef01234567",
    authorize: "https://accounts.spotify.com/authorize",
    params: { scope: "user-read-email" },
    // A plain OAuth 2 server without metadata listing PKCE S256: state as well (RFC 9700 §2.1.1).
    checks: ["pkce", "state"],
    token: { url: "https://accounts.spotify.com/api/token", auth: "client_secret_basic" },
    hosts: ["accounts.spotify.com", "api.spotify.com"],
  },
  twitch: {
    clientId: "hof5gwx0su6owfnys0nyan9c87zr6t",
    clientSecret: "41vpdji4e9gif29md0ouet6fktd2",
    oidc: {
      discovery: "https://id.twitch.tv/oauth2/.well-known/openid-configuration",
      issuer: "https://id.twitch.tv/oauth2",
      jwks: "https://id.twitch.tv/oauth2/keys",
      userinfo: "https://id.twitch.tv/oauth2/userinfo",
      metadata: { claims_parameter_supported: true },
    },
    authorize: "https://id.twitch.tv/oauth2/authorize",
    params: { scope: "openid user:read:email", claims: { json: TWITCH_CLAIMS } },
    checks: ["state", "nonce"],
    token: { url: "https://id.twitch.tv/oauth2/token", auth: "client_secret_post" },
    hosts: ["id.twitch.tv"],
  },
  reddit: {
    clientId: "p-jcoLKBynTLew",
    clientSecret: "gko_LXELoV07ZBNUXrvWZfzE3aI",
    authorize: "https://www.reddit.com/api/v1/authorize",
    params: { scope: "identity", duration: "temporary" },
    checks: ["state"],
    token: { url: "https://www.reddit.com/api/v1/access_token", auth: "client_secret_basic" },
    hosts: ["www.reddit.com", "oauth.reddit.com"],
  },
  auth0: {
    clientId: "xyzABC123456",
    clientSecret: "auth0-secret-0123456789abcdef",
    options: { issuer: `${AUTH0}/` },
    oidc: {
      discovery: `${AUTH0}/.well-known/openid-configuration`,
      issuer: `${AUTH0}/`,
      jwks: `${AUTH0}/.well-known/jwks.json`,
      userinfo: `${AUTH0}/userinfo`,
      metadata: BOTH_AUTH,
    },
    authorize: `${AUTH0}/authorize`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${AUTH0}/oauth/token`, auth: "client_secret_basic" },
    hosts: ["dev-abc123.us.auth0.com"],
  },
  okta: {
    clientId: "0oa1gxvvr4Uw9mAvv5d7",
    clientSecret: "okta-secret-0123456789abcdef",
    options: { issuer: OKTA },
    oidc: {
      discovery: `${OKTA}/.well-known/openid-configuration`,
      issuer: OKTA,
      jwks: `${OKTA}/v1/keys`,
      userinfo: `${OKTA}/v1/userinfo`,
      metadata: BOTH_AUTH,
    },
    authorize: `${OKTA}/v1/authorize`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${OKTA}/v1/token`, auth: "client_secret_basic" },
    hosts: ["dev-123456.okta.com"],
  },
  keycloak: {
    clientId: "appauth",
    clientSecret: "keycloak-secret-0123456789abcdef",
    options: { issuer: KEYCLOAK },
    oidc: {
      discovery: `${KEYCLOAK}/.well-known/openid-configuration`,
      issuer: KEYCLOAK,
      jwks: `${KEYCLOAK}/protocol/openid-connect/certs`,
      userinfo: `${KEYCLOAK}/protocol/openid-connect/userinfo`,
      metadata: { ...BOTH_AUTH, authorization_response_iss_parameter_supported: true },
    },
    authorize: `${KEYCLOAK}/protocol/openid-connect/auth`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${KEYCLOAK}/protocol/openid-connect/token`, auth: "client_secret_basic" },
    callback: { iss: KEYCLOAK, params: { session_state: "6a1e6b8c-3e3a-4b0f-8f9b-1c2d3e4f5a6b" } },
    hosts: ["sso.example.com"],
  },
  cognito: {
    clientId: "xxxxxxxxxxxxexample",
    clientSecret: "cognito-secret-0123456789abcdef",
    options: { issuer: COGNITO },
    oidc: {
      discovery: `${COGNITO}/.well-known/openid-configuration`,
      issuer: COGNITO,
      jwks: `${COGNITO}/.well-known/jwks.json`,
      userinfo: `${COGNITO_DOMAIN}/oauth2/userInfo`,
      metadata: BOTH_AUTH,
    },
    authorize: `${COGNITO_DOMAIN}/oauth2/authorize`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${COGNITO_DOMAIN}/oauth2/token`, auth: "client_secret_basic" },
    hosts: ["cognito-idp.us-east-1.amazonaws.com", "example.auth.us-east-1.amazoncognito.com"],
  },
  zitadel: {
    clientId: "170086824411201793@appauth",
    clientSecret: "zitadel-secret-0123456789abcdef",
    options: { issuer: ZITADEL },
    oidc: {
      discovery: `${ZITADEL}/.well-known/openid-configuration`,
      issuer: ZITADEL,
      jwks: `${ZITADEL}/oauth/v2/keys`,
      userinfo: `${ZITADEL}/oidc/v1/userinfo`,
      metadata: { ...BOTH_AUTH, code_challenge_methods_supported: ["S256"] },
    },
    authorize: `${ZITADEL}/oauth/v2/authorize`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${ZITADEL}/oauth/v2/token`, auth: "client_secret_basic" },
    hosts: ["acme.zitadel.cloud"],
  },
  authentik: {
    clientId: "QKU5mgR1bC9dk4JrSvPx",
    clientSecret: "authentik-secret-0123456789abcdef",
    options: { issuer: `${AUTHENTIK}/appauth/` },
    oidc: {
      discovery: `${AUTHENTIK}/appauth/.well-known/openid-configuration`,
      issuer: `${AUTHENTIK}/appauth/`,
      jwks: `${AUTHENTIK}/appauth/jwks/`,
      userinfo: `${AUTHENTIK}/userinfo/`,
      metadata: BOTH_AUTH,
    },
    authorize: `${AUTHENTIK}/authorize/`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${AUTHENTIK}/token/`, auth: "client_secret_basic" },
    hosts: ["auth.example.com"],
  },
  descope: {
    // A Descope project's OIDC client id is its project id.
    clientId: DESCOPE_PROJECT,
    clientSecret: "descope-access-key-0123456789",
    options: { projectId: DESCOPE_PROJECT },
    oidc: {
      discovery: `https://api.descope.com/${DESCOPE_PROJECT}/.well-known/openid-configuration`,
      issuer: `https://api.descope.com/${DESCOPE_PROJECT}`,
      jwks: `https://api.descope.com/${DESCOPE_PROJECT}/.well-known/jwks.json`,
      userinfo: "https://api.descope.com/oauth2/v1/userinfo",
      metadata: BOTH_AUTH,
    },
    authorize: "https://api.descope.com/oauth2/v1/authorize",
    params: OIDC_SCOPE,
    checks: ["pkce", "state"],
    token: { url: "https://api.descope.com/oauth2/v1/token", auth: "client_secret_basic" },
    hosts: ["api.descope.com"],
  },
  onelogin: {
    clientId: "a1b2c3d4-e5f6-7a8b-9c0d-123456789abc",
    clientSecret: "onelogin-secret-0123456789abcdef",
    options: { issuer: ONELOGIN },
    oidc: {
      discovery: `${ONELOGIN}/.well-known/openid-configuration`,
      issuer: ONELOGIN,
      jwks: `${ONELOGIN}/certs`,
      userinfo: `${ONELOGIN}/me`,
      metadata: BOTH_AUTH,
    },
    authorize: `${ONELOGIN}/auth`,
    params: OIDC_SCOPE,
    checks: ["pkce", "nonce"],
    token: { url: `${ONELOGIN}/token`, auth: "client_secret_basic" },
    hosts: ["acme.onelogin.com"],
  },
  salesforce: {
    clientId: "3MVG9lKcPoNINVBIPJjdw1J9LLM82HnFVVX19KY1uA5mu0QqEWhqKpoW3svG3X",
    clientSecret: "salesforce-secret-0123456789abcdef",
    oidc: {
      discovery: "https://login.salesforce.com/.well-known/openid-configuration",
      issuer: "https://login.salesforce.com",
      jwks: "https://login.salesforce.com/id/keys",
      userinfo: "https://login.salesforce.com/services/oauth2/userinfo",
      metadata: BOTH_AUTH,
    },
    authorize: "https://login.salesforce.com/services/oauth2/authorize",
    params: OIDC_SCOPE,
    checks: ["pkce", "state", "nonce"],
    token: { url: "https://login.salesforce.com/services/oauth2/token", auth: "client_secret_basic" },
    hosts: ["login.salesforce.com"],
  },
  line: {
    clientId: "1234567890",
    clientSecret: "line-channel-secret-0123456789ab",
    oidc: {
      discovery: "https://access.line.me/.well-known/openid-configuration",
      issuer: "https://access.line.me",
      jwks: "https://api.line.me/oauth2/v2.1/certs",
      metadata: { id_token_signing_alg_values_supported: ["ES256"], code_challenge_methods_supported: ["S256"] },
    },
    authorize: "https://access.line.me/oauth2/v2.1/authorize",
    params: { scope: "openid profile" },
    checks: ["pkce", "state"],
    // LINE documents the channel id and secret as body parameters of the token request.
    token: { url: "https://api.line.me/oauth2/v2.1/token", auth: "client_secret_post" },
    // Web login ID tokens are HS256, keyed by the channel secret.
    idTokenAlg: "HS256",
    hosts: ["access.line.me", "api.line.me"],
  },
  bitbucket: {
    clientId: "bbKey7pVDt2hQ5qk3F",
    clientSecret: "bbSecretF9a8b7c6d5e4f3a2b1c0d9e8",
    authorize: "https://bitbucket.org/site/oauth2/authorize",
    params: { scope: undefined },
    checks: ["pkce", "state"],
    token: { url: "https://bitbucket.org/site/oauth2/access_token", auth: "client_secret_basic" },
    hosts: ["bitbucket.org", "api.bitbucket.org"],
  },
  dropbox: {
    clientId: "a1b2c3d4e5f6g7h",
    clientSecret: "dropbox0secret1",
    authorize: "https://www.dropbox.com/oauth2/authorize",
    params: { scope: "account_info.read", token_access_type: "offline" },
    // A plain OAuth 2 server without metadata listing PKCE S256: state as well (RFC 9700 §2.1.1).
    checks: ["pkce", "state"],
    token: { url: "https://api.dropboxapi.com/oauth2/token", auth: "client_secret_basic" },
    hosts: ["www.dropbox.com", "api.dropboxapi.com"],
  },
  atlassian: {
    clientId: "FpQbGnXz9yTkR3sAaBbCcDdEe0123456",
    clientSecret: "ATOA-atlassian-secret-0123456789",
    authorize: "https://auth.atlassian.com/authorize",
    params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me read:account" },
    checks: ["state"],
    token: { url: "https://auth.atlassian.com/oauth/token", auth: "client_secret_post" },
    hosts: ["auth.atlassian.com", "api.atlassian.com"],
  },
  notion: {
    clientId: "463558a3-725e-4f37-b6d3-0889894f68de",
    clientSecret: "secret_notionIntegration0123456789",
    authorize: "https://api.notion.com/v1/oauth/authorize",
    params: { owner: "user", scope: undefined },
    checks: ["state"],
    token: { url: "https://api.notion.com/v1/oauth/token", auth: "client_secret_basic", body: "json" },
    hosts: ["api.notion.com"],
  },
  workos: {
    clientId: "client_01HXYZABCDEF0123456789ABCD",
    clientSecret: "sk_test_workos0123456789abcdef",
    authorize: "https://api.workos.com/user_management/authorize",
    params: { provider: "authkit" },
    checks: ["pkce", "state"],
    // The authenticate endpoint takes the credentials in a JSON body, and no redirect_uri.
    token: { url: "https://api.workos.com/user_management/authenticate", auth: "client_secret_post", body: "json", redirectUri: false },
    hosts: ["api.workos.com"],
  },
  zoom: {
    clientId: "Hk8bN2wQTeOqzLJb7sT4Aw",
    clientSecret: "zoomSecret0123456789abcdefABCDEF",
    authorize: "https://zoom.us/oauth/authorize",
    params: { scope: undefined },
    // A plain OAuth 2 server without metadata listing PKCE S256: state as well (RFC 9700 §2.1.1).
    checks: ["pkce", "state"],
    token: { url: "https://zoom.us/oauth/token", auth: "client_secret_basic" },
    hosts: ["zoom.us", "api.zoom.us"],
  },
  yandex: {
    clientId: "4760187d81bc4b7799476b42b5103713",
    clientSecret: "yandex0secret0123456789abcdef01",
    authorize: "https://oauth.yandex.com/authorize",
    params: { scope: "login:info login:email login:avatar" },
    // A plain OAuth 2 server without metadata listing PKCE S256: state as well (RFC 9700 §2.1.1).
    checks: ["pkce", "state"],
    token: { url: "https://oauth.yandex.com/token", auth: "client_secret_basic" },
    apiScheme: "OAuth",
    hosts: ["oauth.yandex.com", "login.yandex.ru"],
  },
  kakao: {
    clientId: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
    clientSecret: "kakao-client-secret-0123456789ab",
    authorize: "https://kauth.kakao.com/oauth/authorize",
    params: { scope: "profile_nickname profile_image account_email" },
    checks: ["pkce", "state"],
    token: { url: "https://kauth.kakao.com/oauth/token", auth: "client_secret_post" },
    hosts: ["kauth.kakao.com", "kapi.kakao.com"],
  },
  naver: {
    clientId: "jyvqXeaVOVmV",
    clientSecret: "527300A0_COq1_XV33cf",
    authorize: "https://nid.naver.com/oauth2.0/authorize",
    params: { scope: undefined },
    checks: ["state"],
    token: { url: "https://nid.naver.com/oauth2.0/token", auth: "client_secret_post" },
    hosts: ["nid.naver.com", "openapi.naver.com"],
  },
  strava: {
    clientId: "12345",
    clientSecret: "strava0secret0123456789abcdef0123456789",
    authorize: "https://www.strava.com/oauth/authorize",
    params: { scope: "read", approval_prompt: "auto" },
    checks: ["state"],
    token: { url: "https://www.strava.com/oauth/token", auth: "client_secret_post" },
    // Strava says which scopes the athlete accepted.
    callback: { params: { scope: "read" } },
    hosts: ["www.strava.com"],
  },
  patreon: {
    clientId: "pAtReOnClIeNtId0123456789abcdefABCDEF",
    clientSecret: "patreon-secret-0123456789abcdef",
    authorize: "https://www.patreon.com/oauth2/authorize",
    params: { scope: "identity identity[email]" },
    checks: ["state"],
    token: { url: "https://www.patreon.com/api/oauth2/token", auth: "client_secret_post" },
    hosts: ["www.patreon.com"],
  },
};
