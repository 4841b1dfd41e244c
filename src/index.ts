/**
 * appauth: sign-in and sessions for web applications, every flow an explicit state machine.
 * `Auth(request, config)` serves every route under the base path; see DESIGN.md §4 for the protocol.
 */
export { Auth } from "./handler.js";
export { setEnvDefaults } from "./config/env.js";
export { skipCSRFCheck, customFetch } from "./symbols.js";
// The error classes a caller can catch or construct (`instanceof`, `.type`); the helpers beside
// them in errors.ts are the library's own.
export {
  AuthError, SignInError, AccessDenied, AdapterError, StoreUnavailable, PayloadTooLarge, CallbackRouteError,
  ErrorPageLoop, EventError, ExperimentalFeatureNotEnabled, InvalidCallbackUrl, InvalidCheck,
  InvalidConfiguration, InvalidEndpoints, InvalidProvider, JWTSessionError, MissingAdapter,
  MissingAdapterMethods, MissingAuthorize, MissingSecret, MissingSecretError, OAuthProfileParseError,
  RefreshTokenError, SessionTokenError, SignOutError, UnknownAction, BasePathMismatch, UnsupportedStrategy,
  UntrustedHost, Verification, MissingCSRF, OAuthAccountNotLinked, OAuthCallbackError, OAuthSignInError,
  EmailSignInError, AccountNotLinked, WebAuthnVerificationError, UnknownPasskey, CredentialsSignin,
  RateLimited, DPoPError, SecondFactorRequired,
} from "./errors.js";
export type { ErrorType, AuthErrorOptions, DPoPErrorCode } from "./errors.js";
// The public types; `InternalProvider` (a provider as the library holds it at run time) is not one.
export type {
  Awaitable, ProviderType, User, AdapterUser, DefaultSession, SessionError, SessionAccount, Session,
  DefaultJWT, JWT, AdapterSession, Account, AdapterAccount, AdapterAuthenticator, VerificationToken, Profile,
  Adapter, CommonProviderOptions, CredentialInput, CredentialsConfig, ProviderStyle,
  SendVerificationRequestParams, EmailConfig, OtherProviderConfig, ProviderConfig, ProviderFactory, Provider,
  Theme, PagesOptions, CookieOption, SetCookie, CookieSerializeOptions, CookieName, CookiesOptions,
  LoggerInstance, JWTEncodeParams, JWTDecodeParams, JWTOptions, SessionOptions, CallbacksOptions,
  DetachedCredentials, ClaimedUser, EventCallbacks, InspectionObserver, AuthConfig, AuthConfigInput,
  CustomFetch,
} from "./types.js";
export { setClientAddress } from "./rate-limit/client-address.js";
export { memoryRateLimitStore } from "./rate-limit/store.js";
export type { RateLimitStore, RateLimitHit } from "./rate-limit/store.js";
export type { RateLimitOptions } from "./rate-limit/options.js";
// The person's sessions from server code ("Your devices"), and the application's "end every session of this user".
export {
  listSessionsAction as listSessions,
  revokeSessionsAction as revokeSessions,
  revokeAllSessions,
} from "./server/sessions.js";
export type { SessionInfo, RevokeRequest, RevokeResult } from "./server/sessions.js";
export type { TwoFactorOptions } from "./two-factor/options.js";
export type { SecondFactor, SecondFactorType, StoredTotpFactor } from "./two-factor/types.js";
export { recentSecondFactor } from "./two-factor/recent.js";
export type { ProvedFactors } from "./two-factor/recent.js";
export { requireRecentSecondFactor } from "./server/step-up.js";
export type { RecentSecondFactorOptions } from "./server/step-up.js";
