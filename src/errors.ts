/**
 * Every error the library raises is an `AuthError` with a `type` from the closed `ErrorType` union,
 * so callers can `switch (err.type)`. Only the client-safe types travel to the browser by name;
 * everything else is reported to the client as `Configuration` and logged in full on the server.
 */

export type ErrorType =
  | "AccessDenied"
  | "AccountNotLinked"
  | "AdapterError"
  | "CallbackRouteError"
  | "Configuration"
  | "CredentialsSignin"
  | "DPoPError"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCallbackUrl"
  | "InvalidCheck"
  | "InvalidEndpoints"
  | "InvalidProvider"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthSignInError"
  | "PayloadTooLarge"
  | "RateLimited"
  | "RefreshTokenError"
  | "SecondFactorRequired"
  | "EmailSignInError"
  | "SessionTokenError"
  | "SignOutError"
  | "StoreUnavailable"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError";

export interface AuthErrorOptions {
  /** What caused the error: an `Error` (kept as `cause.err`) or an object of details (kept as is). */
  cause?: unknown;
}

/**
 * Where every message's "see" link points: the troubleshooting page has one section per error type,
 * anchored by the type in lowercase. A path in the package (it ships the page: the same file as
 * docs/troubleshooting.md in the repository, and the docs site's troubleshooting page), so a log
 * line leads to the page of the installed version, never to a repository that may not exist. One
 * constant, so a docs move changes one line.
 */
export const TROUBLESHOOTING_URL = "appauth/docs/troubleshooting.md";

/** The troubleshooting section of an error type (or of a configuration check with no error class). */
export function troubleshootingUrl(anchor: string): string {
  return `${TROUBLESHOOTING_URL}#${anchor.toLowerCase()}`;
}

/** Base class of every library error. `cause.err` keeps the original error when there was one. */
export class AuthError extends Error {
  /** Identifies the error in logs and in the `error` query parameter of client-safe redirects. */
  readonly type: ErrorType = "Configuration";
  /** The kind of error: a sign-in error is reported on the sign-in page, any other on the error page. */
  static kind: "signIn" | "error" = "error";
  /** The error type of the class: what `type` is on each of its errors. */
  static type: ErrorType = "Configuration";
  /** What caused it: `err`, the original error, and details; logged on the server, never sent to the browser. */
  declare cause?: { err?: Error; [key: string]: unknown };

  /** A message (default: the type and its troubleshooting link) and, in the options, a `cause`. */
  constructor(message?: string | AuthErrorOptions, options?: AuthErrorOptions) {
    const opts = typeof message === "object" ? message : options;
    const text = typeof message === "string" ? message : undefined;
    super(text ?? "");
    this.type = (new.target as unknown as { type: ErrorType }).type;
    // Named by type, not by class: a minifier renames classes, and logs must still say what happened.
    this.name = this.type;
    if (opts?.cause !== undefined) {
      const cause = opts.cause;
      this.cause =
        cause instanceof Error
          ? { err: cause }
          : typeof cause === "object" && cause !== null
            ? (cause as Record<string, unknown>)
            : { value: cause };
    }
    if (!this.message) this.message = `${this.type}. See ${troubleshootingUrl(this.type)}`;
  }
}

/**
 * Errors reported on the sign-in page rather than the error page. `code`, when set, travels with
 * the type in the redirect (`&code=`) so the page can say more than the type does.
 */
export class SignInError extends AuthError {
  static override kind = "signIn" as const;
  /** A reason the sign-in page may show, sent as `&code=`; it never says which input was wrong. */
  code?: string;
}

export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied";
}
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError";
}
/**
 * The store behind the adapter could not answer: unreachable, too slow (an adapter's time limit ran
 * out), or failing. A fault of the server, never of the person: a session read answers `503` with
 * `Retry-After`, a sign-in step goes to the error page with `error=StoreUnavailable`, and the log
 * carries the adapter's own error as `cause`. `auth()` still returns `null` (fail closed).
 */
export class StoreUnavailable extends AdapterError {
  static override type: ErrorType = "StoreUnavailable";
}
/**
 * A request body past the library's ceiling (1 MiB), declared by `Content-Length` or counted as it
 * arrived: the reading stops there and the request is answered 413. Bad input, never a server fault.
 */
export class PayloadTooLarge extends AuthError {
  static override type: ErrorType = "PayloadTooLarge";
}
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError";
}
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop";
}
export class EventError extends AuthError {
  static override type: ErrorType = "EventError";
}
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled";
}
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl";
}
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck";
}
/** A configuration that cannot work: an option of the wrong shape, or options that contradict each other. */
export class InvalidConfiguration extends AuthError {
  static override type: ErrorType = "Configuration";
}
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints";
}
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider";
}
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError";
}
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter";
}
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods";
}
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize";
}
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret";
}
/** The spec's name for `MissingSecret`. */
export { MissingSecret as MissingSecretError };
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError";
}
/** The access token of a session's account could not be refreshed (the session itself stays). */
export class RefreshTokenError extends AuthError {
  static override type: ErrorType = "RefreshTokenError";
}
/**
 * A change to a user's second factors (enrolling another, new recovery codes, removing one) asked of a
 * session that has not proved a second factor recently (five minutes): answered 403; signing in again,
 * with the second factor, gives the session that proof.
 */
export class SecondFactorRequired extends AuthError {
  static override type: ErrorType = "SecondFactorRequired";
}
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError";
}
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError";
}
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction";
}
/**
 * A request reached the handler on a path outside the configured `basePath`: the route is mounted
 * somewhere the config does not say (or the other way round). Reported as UnknownAction.
 */
export class BasePathMismatch extends UnknownAction {}
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy";
}
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost";
}
export class Verification extends AuthError {
  static override type: ErrorType = "Verification";
}

export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF";
}
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked";
}
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError";
}
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError";
}
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError";
}
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked";
}
export class WebAuthnVerificationError extends SignInError {
  static override type: ErrorType = "WebAuthnVerificationError";
}
/**
 * A passkey this server has no record of. The page removes it from the device where the browser
 * can (Signal API), so autofill stops offering a passkey that can never work here.
 */
export class UnknownPasskey extends WebAuthnVerificationError {
  /** `unknown_passkey`: the sign-in page says the passkey is not registered here and offers another way or a new passkey. */
  override code = "unknown_passkey";
}

/**
 * Thrown from a credentials provider's `authorize` to refuse a sign-in. `code` ends up in the
 * redirect's query string, so it must not say which of the inputs was wrong.
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin";
  /** Put in the `code` query parameter of the redirect to the sign-in page. */
  override code = "credentials";
}

/** Why a DPoP exchange or resource call was refused (RFC 9449); a closed set, so `switch (err.code)` narrows. */
export type DPoPErrorCode =
  /** The server answered a DPoP request with another token type (`Bearer`): the token is not bound to our key. */
  | "token_type_mismatch"
  /** The server asked for a nonce again after the one retry with the nonce it gave (or gave none to use). */
  | "use_dpop_nonce"
  /** The account has a DPoP-bound token but no key to prove it with (not stored, or sealed with an unknown secret). */
  | "key_unavailable"
  /** The discovery document lists the DPoP algorithms it accepts, and the configured one is not among them. */
  | "algorithm_not_supported"
  /** No signed-in session with a DPoP-bound account of the provider to call the resource with. */
  | "no_bound_account";

/**
 * A DPoP (RFC 9449) step refused: the token exchange, a refresh, or a call to a resource server
 * with a DPoP-bound access token. During sign-in it is the cause of the `OAuthCallbackError` the
 * browser is sent to the sign-in page with; `fetchWithDPoP` throws it as it is.
 */
export class DPoPError extends AuthError {
  static override type: ErrorType = "DPoPError";
  /** What went wrong, from a closed set. */
  readonly code: DPoPErrorCode;
  /** Why it was refused, a message for the log, and optionally a `cause`. */
  constructor(code: DPoPErrorCode, message: string, options?: AuthErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Too many attempts: a password guessed too often for one account, too many sign-in links asked
 * for one address or from one client, too many requests from one client. Nothing was checked, sent
 * or stored. `retryAfter` is the number of seconds until the window closes; it travels as the
 * redirect's `code` (the page says when to try again) or as `Retry-After` on a 429.
 */
export class RateLimited extends SignInError {
  static override type: ErrorType = "RateLimited";
  /** Seconds until the limit's window closes and an attempt may succeed (at least 1); also the error's `code`. */
  readonly retryAfter: number;
  /** A message, the seconds until the window closes, and optionally a `cause`. */
  constructor(message: string, retryAfter: number, options?: AuthErrorOptions) {
    super(message, options);
    this.retryAfter = Math.max(1, Math.ceil(retryAfter));
    this.code = String(this.retryAfter);
  }
}

/** Error types that may be shown to the client by name; everything else becomes `Configuration`. */
export const clientSafeErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "AccessDenied",
  "AccountNotLinked",
  "CredentialsSignin",
  // Beyond DESIGN.md's list: an address the email provider refused is the person's input, not a server fault.
  "EmailSignInError",
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  // Beyond DESIGN.md's list (issue 18): the person is told to wait, and for how long; nothing else is said.
  "RateLimited",
  // Says only "try again shortly": the browser client keeps the last session, the page says so.
  "StoreUnavailable",
  "Verification",
  "WebAuthnVerificationError",
]);

export function isClientSafeErrorType(type: string): type is ErrorType {
  return clientSafeErrorTypes.has(type as ErrorType);
}

/**
 * Errors caused by what a person did or typed (a wrong password, a malformed address, a stale form,
 * an unknown passkey, a cancel at the provider): logged at `warn` in one line, never with a stack,
 * because nothing on the server needs fixing. Everything else is a fault and is logged at `error`.
 * They are the client-safe types, less those that can also mean a fault.
 */
export function isUserMistake(error: AuthError): boolean {
  if (!clientSafeErrorTypes.has(error.type)) return false;
  // Named to the browser, but a fault of the server all the same.
  if (error.type === "StoreUnavailable") return false;
  // A provider's refusal can be its outage or a misconfigured client; only a cancel is the person's.
  if (error.type === "OAuthCallbackError") return (error as SignInError).code === "access_denied";
  // A signIn callback that threw may be a bug of its own: its error keeps its stack.
  if (error.type === "AccessDenied") return error.cause?.err === undefined;
  return true;
}

/** The `code` a sign-in error carries to the page, if any. */
export function errorCode(error: AuthError): string | undefined {
  return error instanceof SignInError && typeof error.code === "string" && error.code !== "" ? error.code : undefined;
}

/** Whether the error is reported on the sign-in page (as opposed to the error page). */
export function isSignInError(error: AuthError): boolean {
  return (error.constructor as typeof AuthError).kind === "signIn";
}

/** How long a client is asked to wait (`Retry-After`, seconds) before reading again after a store fault. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Whether `error` is a store fault: an adapter call failed or ran out of time. Flows report it as
 * itself, never as the refusal they would otherwise have made (AccessDenied, Verification, ...).
 */
export function isStoreFault(error: unknown): error is StoreUnavailable {
  return error instanceof StoreUnavailable;
}
