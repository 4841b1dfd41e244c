/**
 * The public types: resources (User, Session, JWT, Account, ...), provider shapes, the adapter
 * contract and the configuration object. Applications extend `User`, `Session` and `JWT` by
 * augmenting the interfaces of this module:
 *
 * ```ts
 * declare module "appauth" {
 *   interface Session { accessToken?: string }
 *   interface JWT { role?: "admin" | "member" }
 * }
 * ```
 */
import type { InspectionEvent } from "xstate";
import type { AuthError, CredentialsSignin } from "./errors.js";
import type { customFetch, skipCSRFCheck } from "./symbols.js";
import type { OAuthProviderConfig } from "./providers/oauth-types.js";
import type { WebAuthnConfig } from "./providers/webauthn.js";
import type { RateLimitOptions } from "./rate-limit/options.js";
import type { TwoFactorOptions } from "./two-factor/options.js";
import type { SecondFactorType } from "./two-factor/types.js";

export type Awaitable<T> = T | PromiseLike<T>;

export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn";

export interface User {
  /** The user's id: the adapter's id with a database, else the provider account's id. */
  id?: string;
  /** The display name, from the provider's profile or `authorize`. */
  name?: string | null;
  /** The email address, when known; `null` when the provider gave none. */
  email?: string | null;
  /** The URL of the user's picture, from the provider's profile. */
  image?: string | null;
}

export interface AdapterUser extends User {
  /** The id the adapter gave the user (stored users always have one). */
  id: string;
  /** `null` for a user whose provider gave no address (as Auth.js stores it): any number of them can exist. */
  email: string | null;
  /** When the address was last proven (an email link, or a provider asserting it verified); `null` until then. */
  emailVerified: Date | null;
}

export interface DefaultSession {
  /** The signed-in user as the browser may see it (name, email, image; `id` once the `session` callback adds it). */
  user?: User;
  /** When the session ends, as an ISO 8601 date-time string. */
  expires: string;
  /**
   * Set when the provider's access token of the signed-in account can no longer be renewed:
   * `RefreshTokenError` — the provider refused the refresh token (revoked, expired, rotated away) or
   * there is none; the person must sign in again to get a new one. `RefreshTokenUnavailable` — the
   * refresh could not be done right now (provider unreachable, lease not released); the next read retries.
   */
  error?: SessionError;
}

export type SessionError = "RefreshTokenError" | "RefreshTokenUnavailable";

/**
 * The OAuth/OIDC account a JWT session was signed in with, kept in the token (claim `account`) when
 * the library refreshes its access token or ends the provider's session on sign-out. The token is
 * encrypted; never copy the refresh token into the session the browser sees.
 */
export interface SessionAccount {
  /** The provider's id (`github`, `google`). */
  provider: string;
  /** The account's id at the provider (the ID token's `sub`, or the profile's id). */
  providerAccountId: string;
  /** Whether the account signed in with OAuth 2 (`oauth`) or OpenID Connect (`oidc`). */
  type: "oauth" | "oidc";
  /** The provider's access token, renewed by the library when it expires and a refresh token is held. */
  access_token?: string;
  /** The provider's refresh token, used to renew `access_token`; never give it to the browser. */
  refresh_token?: string;
  /** Seconds since the epoch when `access_token` expires. */
  expires_at?: number;
  /** The token type the provider named, lower case (`bearer`). */
  token_type?: Lowercase<string>;
  /** The scopes the provider granted, space-separated. */
  scope?: string;
  /** Kept for RP-initiated logout (`id_token_hint`). */
  id_token?: string;
  /** DPoP (RFC 9449): the key pair the tokens are bound to, sealed with the secret. */
  dpop_jwk?: string;
  /** The OpenID Provider's session id (the ID token's `sid`). */
  sid?: string;
  /** Set when the refresh token was refused: the access token can no longer be renewed. */
  error?: "RefreshTokenError";
}

// Augmented by applications: declaration merging needs an interface, even an empty one.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Session extends DefaultSession {}

/** The decoded content of the session token. Standard claims are managed by the library. */
export interface DefaultJWT extends Record<string, unknown> {
  /** The user's name at sign-in (claim `name`). */
  name?: string | null;
  /** The user's email address at sign-in (claim `email`). */
  email?: string | null;
  /** The URL of the user's picture at sign-in (claim `picture`). */
  picture?: string | null;
  /** The user's id (claim `sub`): the stored user's id with an adapter, else the provider account's. */
  sub?: string;
  /** When the token was issued, in seconds since the epoch; set by the library. */
  iat?: number;
  /** When the token expires, in seconds since the epoch; set by the library from `jwt.maxAge`. */
  exp?: number;
  /** The token's unique id; set by the library. */
  jti?: string;
  /** The signed-in OAuth/OIDC account's tokens, when the library manages them (refresh, logout). */
  account?: SessionAccount;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JWT extends DefaultJWT {}

export interface AdapterSession {
  /** The random token in the session cookie that finds this session; a secret, never shown to the browser in a response body. */
  sessionToken: string;
  /** The id of the user the session belongs to. */
  userId: string;
  /** When the session ends; extended on reads every `session.updateAge` seconds. */
  expires: Date;
  /**
   * The OAuth/OIDC account the session was signed in with (appauth's addition; absent or null for
   * other sign-ins). The session read refreshes this account's access token; a back-channel logout
   * from `provider` ends the sessions of `providerAccountId` or of the provider's session `providerSessionId`.
   */
  provider?: string | null;
  /** The account's id at `provider` (appauth's addition, see `provider`). */
  providerAccountId?: string | null;
  /** The OpenID Provider's session id (the ID token's `sid` claim) at sign-in. */
  providerSessionId?: string | null;
  /** When the person signed in (appauth's addition, for the list of a person's sessions; absent for older records). */
  createdAt?: Date | null;
  /** When the session was last seen: its sign-in, then each time its expiry was extended (at most once per `updateAge`). */
  lastSeenAt?: Date | null;
  /** The provider the person signed in with (`github`, `email`, `credentials`, `passkey`). */
  signInMethod?: string | null;
  /** A coarse description of the device, from the user agent at sign-in (`Firefox on Windows`). */
  device?: string | null;
  /** The client address at sign-in, as the rate limiter sees it (an IPv6 address as its /64). */
  clientAddress?: string | null;
  /**
   * What the sign-in proved, as RFC 8176 authentication method references (`["pwd"]`, `["pwd", "otp", "mfa"]`):
   * recorded with a `twoFactor` configuration by an adapter that keeps second factors (appauth's addition;
   * absent for other records, which then prove no recent second factor).
   */
  amr?: string[] | null;
  /** When the factors in `amr` were proved (see `amr`). */
  authTime?: Date | null;
}

export interface Account {
  /** The provider's id (`github`, `email`, `credentials`, `passkey`). */
  provider: string;
  /** The account's id at the provider: the ID token's `sub`, the profile's id, or the email address. */
  providerAccountId: string;
  /** The kind of provider the account signed in with. */
  type: ProviderType;
  /** The id of the user the account is linked to, once it is. */
  userId?: string;
  /** The provider's access token from the token response. */
  access_token?: string;
  /** The provider's refresh token from the token response, when it sent one. */
  refresh_token?: string;
  /** The OpenID Connect ID token from the token response. */
  id_token?: string;
  /** The scopes the provider granted, space-separated. */
  scope?: string;
  /** The token type the provider named, lower case (`bearer`). */
  token_type?: Lowercase<string>;
  /** Seconds the access token is valid for, as the token response said. */
  expires_in?: number;
  /** When the access token expires, in seconds since the epoch (computed from `expires_in`). */
  expires_at?: number;
  /** Rich authorization request details (RFC 9396) the provider returned, if any. */
  authorization_details?: unknown[];
  /** The OpenID Provider's session state, when it sends one. */
  session_state?: string;
  /** DPoP (RFC 9449): the key pair the tokens are bound to, sealed with the secret (never a usable key without it). */
  dpop_jwk?: string;
  [key: string]: unknown;
}

export interface AdapterAccount extends Account {
  /** The id of the user the account is linked to. */
  userId: string;
  /** The kind of provider: only these are stored as accounts (credentials are not). */
  type: Extract<ProviderType, "oauth" | "oidc" | "email" | "webauthn">;
}

export interface AdapterAuthenticator {
  /** The passkey's credential id, base64url. */
  credentialID: string;
  /** The passkey's public key (COSE), base64url: what signatures are verified with. */
  credentialPublicKey: string;
  /** The signature counter last seen; a lower one on sign-in reveals a cloned key. */
  counter: number;
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  credentialDeviceType: string;
  /** Whether the passkey is backed up (synced to a cloud account). */
  credentialBackedUp: boolean;
  /** How the browser can reach the authenticator (`usb`, `nfc`, `ble`, `internal`, `hybrid`), comma-separated. */
  transports?: string | null;
  /** The id of the account the passkey signs in to (the credential id, for the passkey provider's account). */
  providerAccountId: string;
  /** The id of the user the passkey belongs to. */
  userId: string;
}

export interface VerificationToken {
  /** The email address the link was sent to. */
  identifier: string;
  /** The token, hashed with the secret before it is stored (the link carries it in clear). */
  token: string;
  /** When the link stops working. */
  expires: Date;
}

export interface Profile {
  /** The subject: the user's id at an OpenID Provider. */
  sub?: string | null;
  /** Some providers (GitHub, Kakao, Strava) send numeric ids; the library makes them strings. */
  id?: string | number | null;
  /** The user's display name. */
  name?: string | null;
  /** The user's email address, when the provider shares it. */
  email?: string | null;
  /** Whether the provider verified the address; only then may it link to an existing user by email. */
  email_verified?: boolean | null;
  /** The user's picture: usually a URL; some providers send an object. */
  picture?: unknown;
  [claim: string]: unknown;
}

/** The adapter contract: every method optional; a flow that needs a missing one fails loudly. */
export interface Adapter {
  /** Stores a new user and returns it with its id. */
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  /** The user with this id, or `null`. */
  getUser?(id: string): Awaitable<AdapterUser | null>;
  /** The user with this email address, or `null`. */
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
  /** The user a provider account is linked to, or `null`. */
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>;
  /** Changes the given fields of a user and returns it as stored. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>;
  /** Deletes a user with its accounts, sessions and passkeys. */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>;
  /** Links a provider account to a user. */
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>;
  /** Removes the link of a provider account to its user. */
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>;
  /** The account with this id at this provider, or `null`. */
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
  /** Stores a new database session. */
  createSession?(session: AdapterSession): Awaitable<AdapterSession>;
  /** The session with this token and its user, or `null` (an expired session may be returned: the library checks `expires`). */
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  /** Changes a session (its `expires`, when it is extended) and returns it. */
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>;
  /** Deletes the session with this token (signing out). */
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>;
  /** Stores an email link's token (hashed). */
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>;
  /** Takes an email link's token: returns it and deletes it in one step, or `null` when there is none (used, or never made). */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  /** Stores a new passkey. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  /** The passkey with this credential id, or `null`. */
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
  /** Every passkey of a user. */
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
  /** Saves a passkey's new signature counter after a sign-in. */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>;
}

// ---------------------------------------------------------------------------------------------
// Providers

export interface CommonProviderOptions {
  /** The provider's id: in its routes (`/signin/<id>`, `/callback/<id>`) and in its environment variables. */
  id: string;
  /** The name shown on the sign-in page's button. */
  name: string;
  /** The kind of provider, which decides its flow. */
  type: ProviderType;
}

export interface CredentialInput {
  /** The field's label on the built-in sign-in page. */
  label?: string;
  /** The input's `type` attribute (`text`, `email`, `password`). */
  type?: string;
  /** The input's placeholder text. */
  placeholder?: string;
  /** The input's `autocomplete` attribute (`username`, `current-password`). */
  autocomplete?: string;
  /** Whether the built-in page requires the field. */
  required?: boolean;
}

export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  /** Always `credentials`. */
  type: "credentials";
  /** The fields of the sign-in form, by name: the built-in page renders them, and `authorize` receives their values. */
  credentials: C;
  /**
   * Checks the submitted credentials. Return a user to sign in, `null` to refuse, or throw
   * `CredentialsSignin` (with a `code`) to refuse with a reason the sign-in page can show.
   */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>;
  /**
   * The field that names the account (e.g. `"email"`), which password attempts are counted by.
   * Default: the first declared field that is not a secret (not of type `password`, and not named
   * like `password`, `otp`, `pin`, `code` or `token`). See docs/concepts/rate-limits.md.
   */
  identifier?: Extract<keyof C, string> | (string & {});
  /** The options the provider was created with. */
  options?: Partial<Omit<CredentialsConfig<C>, "options" | "type">>;
}

export interface ProviderStyle {
  /** The button's colour on the built-in sign-in page (a CSS colour). */
  brandColor?: string;
  /** The URL of the logo shown on the button. */
  logo?: string;
  /** @deprecated use `brandColor` */
  bg?: string;
  /** @deprecated */
  text?: string;
}

/** What `sendVerificationRequest` receives: where to send, the link, and the context to render it. */
export interface SendVerificationRequestParams {
  /** The address to send the link to. */
  identifier: string;
  /** The sign-in link; it carries the token, so never log it. */
  url: string;
  /** When the link stops working. */
  expires: Date;
  /** The email provider, with its `server` and `from`. */
  provider: EmailConfig;
  /** The token in the link, for a message that shows a code instead. */
  token: string;
  /** The configuration's `theme`, to style the message alike. */
  theme: Theme;
  /** The request that asked for the link. */
  request: Request;
}

export interface EmailConfig extends CommonProviderOptions {
  /** Always `email`. */
  type: "email";
  /** SMTP server for the default sender: a connection URL or nodemailer transport options. */
  server?: string | Record<string, unknown>;
  /** The sender address of the default sender. */
  from?: string;
  /** Seconds a link stays valid; default 24 hours. */
  maxAge?: number;
  /** Sends the link; the default mails it through nodemailer with `server` and `from`. */
  sendVerificationRequest?: (params: SendVerificationRequestParams) => Awaitable<void>;
  /** Turns what was typed into the address to use; throw to refuse it. Default: NFKC, trim, lowercase, one plain address. */
  normalizeIdentifier?: (identifier: string) => string;
  /** The token put in the link; default 32 random bytes as hex. */
  generateVerificationToken?: () => Awaitable<string>;
  /** How the provider's button looks on the built-in sign-in page. */
  style?: ProviderStyle;
  /** The options the provider was created with. */
  options?: Partial<Omit<EmailConfig, "options" | "type">>;
}

/** Placeholder shape for provider types whose flows are not built yet (webauthn). */
export interface OtherProviderConfig extends CommonProviderOptions {
  /** The kind of provider. */
  type: Exclude<ProviderType, "credentials">;
  /** How the provider's button looks on the built-in sign-in page. */
  style?: ProviderStyle;
  /** The options the provider was created with. */
  options?: Record<string, unknown>;
  [key: string]: unknown;
}

export type ProviderConfig = CredentialsConfig | OAuthProviderConfig | EmailConfig | WebAuthnConfig | OtherProviderConfig;

/** A provider factory: listed bare (`providers: [GitHub]`) or called with overrides. */
export type ProviderFactory<P extends ProviderConfig = ProviderConfig> = (overrides?: Partial<P>) => P;

/** A factory listed bare is called with no arguments: any factory whose options are optional fits. */
export type Provider = ProviderConfig | (() => ProviderConfig);

/** A provider as the library uses it at run time: defaults applied, URLs known. */
export type InternalProvider = ProviderConfig & {
  /** The absolute URL of the provider's sign-in route. */
  signinUrl: string;
  /** The absolute URL of the provider's callback route: the redirect URI to register. */
  callbackUrl: string;
};

// ---------------------------------------------------------------------------------------------
// Configuration

export interface Theme {
  /** The built-in pages' colours: `auto` follows the browser's preference. Default `auto`. */
  colorScheme?: "auto" | "dark" | "light";
  /** The URL of a logo shown above the built-in pages' forms. */
  logo?: string;
  /** The accent colour of the built-in pages (a CSS colour). */
  brandColor?: string;
  /** The text colour of buttons in the accent colour (a CSS colour). */
  buttonText?: string;
  /** The application's name: the sign-in page says "Sign in to <brandName>" and links back to it. */
  brandName?: string;
}

export interface PagesOptions {
  /** Your own sign-in page (a path or URL), instead of the built-in one; it receives `callbackUrl` and `error`. */
  signIn?: string;
  /** Your own sign-out page, instead of the built-in confirmation. */
  signOut?: string;
  /** Your own error page; it receives the error type as `?error=`. */
  error?: string;
  /** Your own "check your email" page, shown after an email link is sent. */
  verifyRequest?: string;
  /** Where a new user goes after their first sign-in, instead of the callback URL. */
  newUser?: string;
}

export interface CookieOption {
  /** The cookie's name. */
  name: string;
  /** The cookie's attributes. */
  options: CookieSerializeOptions;
}

/** A cookie a response sets (or, expired, clears): what a flow's output carries for the server to write. */
export interface SetCookie {
  /** The cookie's name. */
  name: string;
  /** The cookie's value (empty when it clears the cookie). */
  value: string;
  /** The cookie's attributes. */
  options: CookieSerializeOptions;
}

export interface CookieSerializeOptions {
  /** Hidden from the page's scripts (`HttpOnly`). */
  httpOnly?: boolean;
  /** When the browser sends the cookie on requests from other sites (`SameSite`). */
  sameSite?: "lax" | "strict" | "none";
  /** The path the cookie is sent for (`Path`). */
  path?: string;
  /** Sent over HTTPS only (`Secure`). */
  secure?: boolean;
  /** The domain the cookie is sent to (`Domain`); absent, only the host that set it. */
  domain?: string;
  /** Seconds until the cookie expires (`Max-Age`). */
  maxAge?: number;
  /** When the cookie expires (`Expires`). */
  expires?: Date;
}

export type CookieName =
  | "sessionToken"
  | "callbackUrl"
  | "csrfToken"
  | "pkceCodeVerifier"
  | "state"
  | "nonce"
  | "webauthnChallenge"
  | "pageHint"
  | "device"
  | "twoFactorPending"
  | "twoFactorRemembered";

export type CookiesOptions = Partial<Record<CookieName, Partial<CookieOption>>>;

export interface LoggerInstance {
  /** Logs an error: `code` is the error type, then the error itself. */
  error(code: string, ...message: unknown[]): void;
  /** Logs a warning: `code` names it (`debug-enabled`, `experimental-webauthn`). */
  warn(code: string, ...message: unknown[]): void;
  /** Logs a debugging message, only when `debug` is on. */
  debug(code: string, ...message: unknown[]): void;
}

export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encode. */
  token?: Payload;
  /** The session cookie's name: keys derived for one cookie never open another. */
  salt: string;
  /** The secret, or several during a rotation (the first encrypts). */
  secret: string | string[];
  /** Seconds from now; default 30 days. */
  maxAge?: number;
}

export interface JWTDecodeParams {
  /** The token to decode (the cookie's value). */
  token?: string;
  /** The session cookie's name: keys derived for one cookie never open another. */
  salt: string;
  /** The secret, or several during a rotation (any of them may decrypt). */
  secret: string | string[];
}

export interface JWTOptions {
  /** Seconds; defaults to `session.maxAge`. */
  maxAge?: number;
  /**
   * Replaces how the session token is made (default: encrypted JWT, `A256CBC-HS512` with a key derived
   * from the secret and `salt`).
   */
  encode?: (params: JWTEncodeParams) => Awaitable<string>;
  /** Replaces how the session token is read; return `null` for a token that does not open. */
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}

export interface SessionOptions {
  /**
   * Where sessions live: `jwt`, an encrypted cookie; `database`, the adapter (the cookie holds a random
   * token). Default `database` with an adapter, else `jwt`.
   */
  strategy?: "jwt" | "database";
  /** Seconds an idle session lives; default 30 days. */
  maxAge?: number;
  /** Seconds between two extensions of a session's expiry when it is read. Default 24 hours. */
  updateAge?: number;
  /** Makes the random token of a database session; default 32 random bytes as hex. */
  generateSessionToken?: () => string;
  /**
   * Sign in, on their first session read, the people who hold a session cookie made by Auth.js v5
   * (`authjs.session-token`) or next-auth v4 (`next-auth.session-token`) with the same secret (or, for
   * database sessions, the same store): the cookie is replaced by appauth's. Default `true`; set
   * `false` once everyone has been migrated, or to sign everyone out on the switch.
   */
  acceptAuthJsCookies?: boolean;
}

export interface CallbacksOptions {
  /**
   * Whether this sign-in may go ahead: return `true`, `false` (refused: `AccessDenied`) or a URL to send
   * the person to instead.
   */
  signIn?: (params: {
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    credentials?: Record<string, unknown>;
    email?: { verificationRequest?: boolean };
  }) => Awaitable<boolean | string>;
  /**
   * Where to send the browser after signing in or out. Default: `url` when it is relative or on
   * `baseUrl`'s origin, else `baseUrl`.
   */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>;
  /**
   * Shapes the JWT when it is made (`trigger` `signIn`/`signUp`), updated (`update`) or read; return
   * `null` to end the session. JWT sessions only.
   */
  jwt?: (params: {
    token: JWT;
    /**
     * The signed-in user, at sign-in (`trigger` `"signIn"` or `"signUp"`) only; absent on later reads.
     * Typed as present, as Auth.js types it, so existing callbacks compile unchanged: check it.
     */
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    trigger?: "signIn" | "signUp" | "update";
    /** @deprecated use `trigger === "signUp"` */
    isNewUser?: boolean;
    /** What the client sent to `update(data)`: untrusted input, validate it. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Auth.js types it, so its callbacks compile
    session?: any;
  }) => Awaitable<JWT | null>;
  /** Shapes the session the application and the browser see, on every read. */
  session?: (params: {
    /**
     * The session about to be returned. Its `user` is always there; with database sessions it is the
     * stored user (with `id`) and the session carries `userId` and `sessionToken` too, as in Auth.js.
     * Return only what the browser may see: a `sessionToken` left in the result is removed.
     */
    session: Session & { user: AdapterUser } & Omit<AdapterSession, "expires">;
    token: JWT;
    user: AdapterUser;
    /**
     * Database sessions signed in with an OAuth/OIDC account whose tokens the library refreshes: that
     * account as stored, its access token renewed when it was due. (JWT sessions: `token.account`.)
     */
    account?: AdapterAccount;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Auth.js types it
    newSession?: any;
    trigger?: "update";
  }) => Awaitable<Session | DefaultSession>;
}

/** What claiming a user nobody had verified took from them (see `events.credentialsDetached`). */
export interface DetachedCredentials {
  /** The provider accounts that were linked to the user, now unlinked. */
  accounts: { provider: string; providerAccountId: string }[];
  /** The credential ids of the passkeys that were registered to the user, now deleted. */
  authenticators: string[];
  /** How many database sessions of the user were ended. */
  sessions: number;
}

/** A user claimed by the person who proved its address, and what was detached from it. */
export interface ClaimedUser extends DetachedCredentials {
  /** The user as stored after the claim: same id, address verified. */
  user: AdapterUser;
}

export interface EventCallbacks {
  /** Someone signed in (`isNewUser` on their first sign-in). */
  signIn?: (message: {
    user: User;
    account?: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
  }) => Awaitable<void>;
  /** Someone signed out: the database `session` or the JWT `token` that ended. */
  signOut?: (message: { session?: AdapterSession | null | void; token?: JWT | null }) => Awaitable<void>;
  /** The adapter stored a new user. */
  createUser?: (message: { user: User }) => Awaitable<void>;
  /** A user was updated (their address was verified). */
  updateUser?: (message: { user: User }) => Awaitable<void>;
  /** A provider account was linked to a user. */
  linkAccount?: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>;
  /** A session was read. */
  session?: (message: { session: Session; token?: JWT }) => Awaitable<void>;
  /**
   * Someone proved an address (an email link, or a provider asserting it verified and allowed to link
   * by email) that `user` had while nobody had verified it. The user is theirs now, same id, address
   * verified; what had been attached before the proof was detached (it may have been a squatter's, a
   * pre-hijacked account): the linked `accounts`, the passkeys (`authenticators`, their credential ids)
   * and `sessions` database sessions ended (JWT sessions issued before stop opening too). `account` is
   * the one the prover signed in with. Tell the person: they can link a provider or add a passkey
   * again while signed in. Fired once the sign-in completed.
   */
  credentialsDetached?: (message: { user: AdapterUser; account: Account } & DetachedCredentials) => Awaitable<void>;
  /**
   * An OpenID Provider's back-channel logout token ended sessions: those of its user `sub` and/or of
   * its session `sid`, signed in through `provider`; `count` of them were found (possibly 0).
   */
  backchannelLogout?: (message: { provider: string; sub?: string; sid?: string; count: number }) => Awaitable<void>;
  /**
   * A rate limit refused an attempt (see `rateLimit`): `scope` is the flow (`credentials`, `email`,
   * or `requests` for the client's request ceiling), `limit` the limit that refused, `retryAfter`
   * the seconds until its window closes. Nothing was checked, sent or stored.
   */
  rateLimited?: (message: { providerId: string; scope: string; limit: string; retryAfter: number }) => Awaitable<void>;
  /**
   * A signed-in user confirmed a new second factor (`type: "totp"`, `factorId` its id) or got a new
   * set of recovery codes (`type: "recovery"`). Never carries a secret or a code.
   */
  twoFactorEnrolled?: (message: { userId: string; type: SecondFactorType; factorId: string }) => Awaitable<void>;
  /** A sign-in of a user with a second factor stopped at its challenge (nothing was written yet). */
  twoFactorChallenged?: (message: { userId: string }) => Awaitable<void>;
  /** A second factor was proved at the challenge (`type`: which); the sign-in goes on. Never carries the code. */
  twoFactorPassed?: (message: { userId: string; type: SecondFactorType }) => Awaitable<void>;
  /** A code at the challenge was wrong, or refused by the rate limit without being checked (`rateLimited`). */
  twoFactorFailed?: (message: { userId: string; rateLimited: boolean }) => Awaitable<void>;
  /** A signed-in user removed one of their second factors. */
  twoFactorRemoved?: (message: { userId: string; type: SecondFactorType; factorId: string }) => Awaitable<void>;
  /**
   * Sessions were ended on purpose (a person's "sign out" of a device or everywhere, an application's
   * `revokeAllSessions(userId)`): one session of `userId` (`sessionId`), or every one signed in before
   * now but `exceptSessionId`. `strategy` says which kind: `jwt` sessions stop opening on every instance
   * sharing the store within about a second; `database` sessions are deleted.
   */
  sessionRevoked?: (message: SessionRevokedMessage) => Awaitable<void>;
}

/** What `events.sessionRevoked` is told. */
export interface SessionRevokedMessage {
  userId: string;
  /** The one session ended; absent when every session of the user was (but `exceptSessionId`). */
  sessionId?: string;
  /** The session kept when every other one was ended. */
  exceptSessionId?: string;
  strategy: "jwt" | "database";
}

/**
 * An observer of every machine the library runs: a function, or an observer object such as a Stately
 * inspector's `inspect` (`createWebSocketInspector({ url }).inspect`). It receives XState inspection
 * events whose data is redacted and whose actors are read-only stand-ins.
 */
export type InspectionObserver = ((event: InspectionEvent) => void) | { next?: (event: InspectionEvent) => void };

export interface AuthConfig {
  /**
   * The ways to sign in: catalog providers (listed bare, `[GitHub]`, or called with options),
   * `Credentials`, `Email`, `Passkey`, or any OpenID Provider by its issuer. Required.
   */
  providers: Provider[];
  /**
   * Where users, accounts, database sessions, email tokens and passkeys are kept (see Adapters). Without
   * one, sessions are JWTs and nothing is stored.
   */
  adapter?: Adapter;
  /** The path the library's routes are served under. Default `/auth` (Next.js: `/api/auth`), or the path of `AUTH_URL`. */
  basePath?: string;
  /**
   * The secret that encrypts session tokens and signs cookies; several during a rotation (the first
   * encrypts, all decrypt). Default `AUTH_SECRET`; required in production.
   */
  secret?: string | string[];
  /** How sessions are kept and how long they live. */
  session?: SessionOptions;
  /** How JWT session tokens are made and read. */
  jwt?: JWTOptions;
  /** Where your code decides: who may sign in, where to redirect, what the JWT and the session hold. */
  callbacks?: CallbacksOptions;
  /** Told what happened (sign-in, sign-out, a new user...), for logs and side effects; they cannot change it. */
  events?: EventCallbacks;
  /** Your own pages instead of the built-in sign-in, sign-out, error and verify-request pages. */
  pages?: PagesOptions;
  /** Overrides of the cookies' names and attributes, by cookie; the defaults are safe. */
  cookies?: CookiesOptions;
  /** `__Secure-` cookie names and the `Secure` attribute. Default: on when the site's URL is `https:`. */
  useSecureCookies?: boolean;
  /**
   * Trust the request's `Host` and `X-Forwarded-*` headers to know the site's URL (behind a proxy you
   * control). Default: `AUTH_TRUST_HOST`; on with `AUTH_URL` set, on Vercel and Cloudflare Pages, and
   * outside production.
   */
  trustHost?: boolean;
  /** A stable URL that forwards OAuth callbacks to preview deployments (their URLs change). Default `AUTH_REDIRECT_PROXY_URL`. */
  redirectProxyUrl?: string;
  /** Logs what each flow does, through `logger.debug`. Secrets are redacted; leave it off in production. */
  debug?: boolean;
  /** Where the library logs (`error`, `warn`, `debug`); default the console. */
  logger?: Partial<LoggerInstance>;
  /** Features whose API may change: `enableWebAuthn` turns on passkeys. */
  experimental?: { enableWebAuthn?: boolean };
  /** The look of the built-in pages and of the sign-in email. */
  theme?: Theme;
  /**
   * Turns off the CSRF check of the sign-in and sign-out actions, for integrations that check the origin
   * themselves: pass the `skipCSRFCheck` symbol.
   */
  skipCSRFCheck?: typeof skipCSRFCheck;
  /** Watch every flow as it runs; secrets are redacted before an event reaches the observer. */
  inspect?: InspectionObserver;
  /**
   * Brute-force and flood protection of the sign-in flows: on by default, `false` switches it off.
   * See {@link RateLimitOptions} for the limits and where they are counted.
   */
  rateLimit?: false | RateLimitOptions;
  /**
   * Second factors (authenticator-app codes, recovery codes, a passkey): signed-in users enroll them
   * at `/two-factor`, and every sign-in of an enrolled user asks for one. Needs an adapter with the
   * two-factor methods (see {@link TwoFactorOptions}).
   */
  twoFactor?: TwoFactorOptions;
  /** Options used internally by integrations; not part of the stable API. */
  raw?: unknown;
}

/** `Auth`'s config argument: an object, or a function of the request (which may be absent). */
export type AuthConfigInput = AuthConfig | ((request: Request | undefined) => Awaitable<AuthConfig>);

export type CustomFetch = typeof customFetch;
export type { AuthError, CredentialsSignin };
