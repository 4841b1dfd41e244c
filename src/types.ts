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

export type Awaitable<T> = T | PromiseLike<T>;

export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn";

export interface User {
  id?: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}

export interface AdapterUser extends User {
  id: string;
  /** `null` for a user whose provider gave no address (as Auth.js stores it): any number of them can exist. */
  email: string | null;
  emailVerified: Date | null;
}

export interface DefaultSession {
  user?: User;
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
  provider: string;
  providerAccountId: string;
  type: "oauth" | "oidc";
  access_token?: string;
  refresh_token?: string;
  /** Seconds since the epoch when `access_token` expires. */
  expires_at?: number;
  token_type?: Lowercase<string>;
  scope?: string;
  /** Kept for RP-initiated logout (`id_token_hint`). */
  id_token?: string;
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
  name?: string | null;
  email?: string | null;
  picture?: string | null;
  sub?: string;
  iat?: number;
  exp?: number;
  jti?: string;
  /** The signed-in OAuth/OIDC account's tokens, when the library manages them (refresh, logout). */
  account?: SessionAccount;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JWT extends DefaultJWT {}

export interface AdapterSession {
  sessionToken: string;
  userId: string;
  expires: Date;
  /**
   * The OAuth/OIDC account the session was signed in with (appauth's addition; absent or null for
   * other sign-ins). The session read refreshes this account's access token; a back-channel logout
   * from `provider` ends the sessions of `providerAccountId` or of the provider's session `providerSessionId`.
   */
  provider?: string | null;
  providerAccountId?: string | null;
  /** The OpenID Provider's session id (the ID token's `sid` claim) at sign-in. */
  providerSessionId?: string | null;
}

export interface Account {
  provider: string;
  providerAccountId: string;
  type: ProviderType;
  userId?: string;
  access_token?: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  token_type?: Lowercase<string>;
  expires_in?: number;
  expires_at?: number;
  authorization_details?: unknown[];
  session_state?: string;
  [key: string]: unknown;
}

export interface AdapterAccount extends Account {
  userId: string;
  type: Extract<ProviderType, "oauth" | "oidc" | "email" | "webauthn">;
}

export interface AdapterAuthenticator {
  credentialID: string;
  credentialPublicKey: string;
  counter: number;
  credentialDeviceType: string;
  credentialBackedUp: boolean;
  transports?: string | null;
  providerAccountId: string;
  userId: string;
}

export interface VerificationToken {
  identifier: string;
  token: string;
  expires: Date;
}

export interface Profile {
  sub?: string | null;
  /** Some providers (GitHub, Kakao, Strava) send numeric ids; the library makes them strings. */
  id?: string | number | null;
  name?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  picture?: unknown;
  [claim: string]: unknown;
}

/** The adapter contract: every method optional; a flow that needs a missing one fails loudly. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  getUser?(id: string): Awaitable<AdapterUser | null>;
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>;
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>;
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>;
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>;
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>;
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
  createSession?(session: AdapterSession): Awaitable<AdapterSession>;
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>;
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>;
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>;
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>;
}

// ---------------------------------------------------------------------------------------------
// Providers

export interface CommonProviderOptions {
  id: string;
  name: string;
  type: ProviderType;
}

export interface CredentialInput {
  label?: string;
  type?: string;
  placeholder?: string;
  autocomplete?: string;
  required?: boolean;
}

export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials";
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
  options?: Partial<Omit<CredentialsConfig<C>, "options" | "type">>;
}

export interface ProviderStyle {
  brandColor?: string;
  logo?: string;
  /** @deprecated use `brandColor` */
  bg?: string;
  /** @deprecated */
  text?: string;
}

/** What `sendVerificationRequest` receives: where to send, the link, and the context to render it. */
export interface SendVerificationRequestParams {
  identifier: string;
  url: string;
  expires: Date;
  provider: EmailConfig;
  token: string;
  theme: Theme;
  request: Request;
}

export interface EmailConfig extends CommonProviderOptions {
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
  style?: ProviderStyle;
  options?: Partial<Omit<EmailConfig, "options" | "type">>;
}

/** Placeholder shape for provider types whose flows are not built yet (webauthn). */
export interface OtherProviderConfig extends CommonProviderOptions {
  type: Exclude<ProviderType, "credentials">;
  style?: ProviderStyle;
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
  signinUrl: string;
  callbackUrl: string;
};

// ---------------------------------------------------------------------------------------------
// Configuration

export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
  /** The application's name: the sign-in page says "Sign in to <brandName>" and links back to it. */
  brandName?: string;
}

export interface PagesOptions {
  signIn?: string;
  signOut?: string;
  error?: string;
  verifyRequest?: string;
  newUser?: string;
}

export interface CookieOption {
  name: string;
  options: CookieSerializeOptions;
}

/** A cookie a response sets (or, expired, clears): what a flow's output carries for the server to write. */
export interface SetCookie {
  name: string;
  value: string;
  options: CookieSerializeOptions;
}

export interface CookieSerializeOptions {
  httpOnly?: boolean;
  sameSite?: "lax" | "strict" | "none";
  path?: string;
  secure?: boolean;
  domain?: string;
  maxAge?: number;
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
  | "device";

export type CookiesOptions = Partial<Record<CookieName, Partial<CookieOption>>>;

export interface LoggerInstance {
  error(code: string, ...message: unknown[]): void;
  warn(code: string, ...message: unknown[]): void;
  debug(code: string, ...message: unknown[]): void;
}

export interface JWTEncodeParams<Payload = JWT> {
  token?: Payload;
  /** The session cookie's name: keys derived for one cookie never open another. */
  salt: string;
  secret: string | string[];
  /** Seconds from now; default 30 days. */
  maxAge?: number;
}

export interface JWTDecodeParams {
  token?: string;
  salt: string;
  secret: string | string[];
}

export interface JWTOptions {
  /** Seconds; defaults to `session.maxAge`. */
  maxAge?: number;
  encode?: (params: JWTEncodeParams) => Awaitable<string>;
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}

export interface SessionOptions {
  strategy?: "jwt" | "database";
  maxAge?: number;
  updateAge?: number;
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
  signIn?: (params: {
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    credentials?: Record<string, unknown>;
    email?: { verificationRequest?: boolean };
  }) => Awaitable<boolean | string>;
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>;
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
  user: AdapterUser;
}

export interface EventCallbacks {
  signIn?: (message: {
    user: User;
    account?: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
  }) => Awaitable<void>;
  signOut?: (message: { session?: AdapterSession | null | void; token?: JWT | null }) => Awaitable<void>;
  createUser?: (message: { user: User }) => Awaitable<void>;
  updateUser?: (message: { user: User }) => Awaitable<void>;
  linkAccount?: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>;
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
}

/**
 * An observer of every machine the library runs: a function, or an observer object such as a Stately
 * inspector's `inspect` (`createWebSocketInspector({ url }).inspect`). It receives XState inspection
 * events whose data is redacted and whose actors are read-only stand-ins.
 */
export type InspectionObserver = ((event: InspectionEvent) => void) | { next?: (event: InspectionEvent) => void };

export interface AuthConfig {
  providers: Provider[];
  adapter?: Adapter;
  basePath?: string;
  secret?: string | string[];
  session?: SessionOptions;
  jwt?: JWTOptions;
  callbacks?: CallbacksOptions;
  events?: EventCallbacks;
  pages?: PagesOptions;
  cookies?: CookiesOptions;
  useSecureCookies?: boolean;
  trustHost?: boolean;
  redirectProxyUrl?: string;
  debug?: boolean;
  logger?: Partial<LoggerInstance>;
  experimental?: { enableWebAuthn?: boolean };
  theme?: Theme;
  skipCSRFCheck?: typeof skipCSRFCheck;
  /** Watch every flow as it runs; secrets are redacted before an event reaches the observer. */
  inspect?: InspectionObserver;
  /**
   * Brute-force and flood protection of the sign-in flows: on by default, `false` switches it off.
   * See {@link RateLimitOptions} for the limits and where they are counted.
   */
  rateLimit?: false | RateLimitOptions;
  /** Options used internally by integrations; not part of the stable API. */
  raw?: unknown;
}

/** `Auth`'s config argument: an object, or a function of the request (which may be absent). */
export type AuthConfigInput = AuthConfig | ((request: Request | undefined) => Awaitable<AuthConfig>);

export type CustomFetch = typeof customFetch;
export type { AuthError, CredentialsSignin };
