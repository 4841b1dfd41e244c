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
  | "RefreshTokenError"
  | "EmailSignInError"
  | "SessionTokenError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError";

export interface AuthErrorOptions {
  cause?: unknown;
}

/** Base class of every library error. `cause.err` keeps the original error when there was one. */
export class AuthError extends Error {
  /** Identifies the error in logs and in the `error` query parameter of client-safe redirects. */
  readonly type: ErrorType = "Configuration";
  /** The kind of error: a sign-in error is reported on the sign-in page, any other on the error page. */
  static kind: "signIn" | "error" = "error";
  static type: ErrorType = "Configuration";
  declare cause?: { err?: Error; [key: string]: unknown };

  constructor(message?: string | AuthErrorOptions, options?: AuthErrorOptions) {
    const opts = typeof message === "object" ? message : options;
    const text = typeof message === "string" ? message : undefined;
    super(text ?? "");
    this.name = new.target.name;
    this.type = (new.target as unknown as { type: ErrorType }).type;
    if (opts?.cause !== undefined) {
      const cause = opts.cause;
      this.cause =
        cause instanceof Error
          ? { err: cause }
          : typeof cause === "object" && cause !== null
            ? (cause as Record<string, unknown>)
            : { value: cause };
    }
    if (!this.message) this.message = `${this.type}. Read more in the appauth documentation under errors#${this.type.toLowerCase()}`;
  }
}

/** Errors reported on the sign-in page rather than the error page. */
export class SignInError extends AuthError {
  static override kind = "signIn" as const;
}

export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied";
}
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError";
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
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError";
}
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError";
}
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction";
}
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
 * Thrown from a credentials provider's `authorize` to refuse a sign-in. `code` ends up in the
 * redirect's query string, so it must not say which of the inputs was wrong.
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin";
  /** Put in the `code` query parameter of the redirect to the sign-in page. */
  code = "credentials";
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
  "Verification",
  "WebAuthnVerificationError",
]);

export function isClientSafeErrorType(type: string): type is ErrorType {
  return clientSafeErrorTypes.has(type as ErrorType);
}

/** Whether the error is reported on the sign-in page (as opposed to the error page). */
export function isSignInError(error: AuthError): boolean {
  return (error.constructor as typeof AuthError).kind === "signIn";
}
