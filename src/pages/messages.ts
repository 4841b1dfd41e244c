/**
 * What the pages say about an error. The `error` query parameter is untrusted: it selects one of
 * these messages or the default, and is never shown itself.
 */
import type { ErrorType } from "../errors.js";

/** Every error type, so a string from a request can be recognised (the compiler keeps it complete). */
const ERROR_TYPES = {
  AccessDenied: true,
  AccountNotLinked: true,
  AdapterError: true,
  CallbackRouteError: true,
  Configuration: true,
  CredentialsSignin: true,
  DPoPError: true,
  ErrorPageLoop: true,
  EventError: true,
  ExperimentalFeatureNotEnabled: true,
  InvalidCallbackUrl: true,
  InvalidCheck: true,
  InvalidEndpoints: true,
  InvalidProvider: true,
  JWTSessionError: true,
  MissingAdapter: true,
  MissingAdapterMethods: true,
  MissingAuthorize: true,
  MissingCSRF: true,
  MissingSecret: true,
  OAuthAccountNotLinked: true,
  OAuthCallbackError: true,
  OAuthProfileParseError: true,
  OAuthSignInError: true,
  PayloadTooLarge: true,
  RateLimited: true,
  RefreshTokenError: true,
  SecondFactorRequired: true,
  EmailSignInError: true,
  SessionTokenError: true,
  SignOutError: true,
  StoreUnavailable: true,
  UnknownAction: true,
  UnsupportedStrategy: true,
  UntrustedHost: true,
  Verification: true,
  WebAuthnVerificationError: true,
} satisfies Record<ErrorType, true>;

/** Whether `value` names one of the library's error types. */
export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(ERROR_TYPES, value);
}

/** The sign-in page's messages; `SessionRequired` comes from middleware, not from an error class. */
const SIGN_IN_MESSAGES: Record<string, string> = {
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  OAuthAccountNotLinked:
    "This email address is already linked to another sign-in method. To confirm your identity, sign in the same way you did before.",
  OAuthCallbackError: "The sign-in service returned an error. Please try again.",
  OAuthSignInError: "Sign-in with this service could not be started. Please try again, or choose another way to sign in.",
  // The email flow refuses an address before sending anything: it is the address that is wrong.
  EmailSignInError: "That email address is not valid. Check it for typos and try again.",
  AccessDenied: "You do not have permission to sign in.",
  Verification: "The sign-in link is no longer valid. It may have been used already, or it may have expired.",
  MissingCSRF: "The form expired before it was sent. Please try again.",
  AccountNotLinked: "This email already has an account. Sign in another way first, then add a passkey.",
  WebAuthnVerificationError: "Your passkey could not be verified. Please try again.",
  RateLimited: "Too many attempts. Please wait a while before you try again.",
  SessionRequired: "Please sign in to see this page.",
};

const DEFAULT_SIGN_IN_MESSAGE = "Sign in failed. Please try again.";

/** Messages for an error with a `code` that says more than its type; keyed `<type>:<code>`. */
const CODE_MESSAGES: Record<string, string> = {
  // Each error's default code: the type's message says it all.
  "CredentialsSignin:credentials": SIGN_IN_MESSAGES.CredentialsSignin as string,
  "OAuthCallbackError:access_denied": "Sign-in was cancelled. Choose a way to sign in when you are ready.",
  "WebAuthnVerificationError:unknown_passkey":
    "This passkey is not registered on this site. Sign in another way, or create a new passkey.",
};

/**
 * What the sign-in page says for an `error` and `code` (any strings). `known` and `code` say what
 * the page may name in its markup for scripts: only a type it recognises and a code it has words for.
 */
export function signInError(error: string, code?: string): { message: string; showCode: boolean; known: boolean; code?: string } {
  const known = Object.prototype.hasOwnProperty.call(SIGN_IN_MESSAGES, error);
  // RateLimited's code is the number of seconds to wait: said in words, never shown as is.
  if (error === "RateLimited") return { message: rateLimitedMessage(code), showCode: false, known };
  const key = `${error}:${code ?? ""}`;
  if (code && Object.prototype.hasOwnProperty.call(CODE_MESSAGES, key)) {
    return { message: CODE_MESSAGES[key] as string, showCode: false, known, code };
  }
  // Only CredentialsSignin carries codes an application chose, and only a code that is an identifier
  // is shown: the page cannot tell an application's code from text someone put in a link.
  if (error === "CredentialsSignin" && isShowableCode(code)) return { message: signInErrorMessage(error), showCode: true, known, code };
  return { message: signInErrorMessage(error), showCode: false, known };
}

/**
 * The shape of a code the sign-in page shows as text: a short identifier (`invalid_otp`,
 * `account-locked`), lowercase letters, digits, `_` and `-`, starting with a letter. The `code`
 * parameter comes from the URL, where anyone can write anything; a sentence shown on the real
 * origin would be content spoofing, and a bare number may be a one-time code.
 */
const SHOWABLE_CODE = /^[a-z][a-z0-9_-]{0,39}$/;

/** Whether the sign-in page may show `code` as text (and forward it to an application's page). */
export function isShowableCode(code: string | undefined): code is string {
  return code !== undefined && SHOWABLE_CODE.test(code);
}

/** When to try again, from the seconds a RateLimited refusal carries (anything else: the plain message). */
export function rateLimitedMessage(code: string | undefined): string {
  const seconds = code && /^\d{1,7}$/.test(code) ? Number(code) : 0;
  if (seconds <= 0) return SIGN_IN_MESSAGES.RateLimited as string;
  const minutes = Math.ceil(seconds / 60);
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Too many attempts. Please try again in ${wait}.`;
}

/** Whether the page reports a cancel (a choice) rather than a failure. */
export function isCancel(error: string, code?: string): boolean {
  return error === "OAuthCallbackError" && code === "access_denied";
}

/** The message shown on the sign-in page for the `error` parameter (any string). */
export function signInErrorMessage(error: string): string {
  return Object.prototype.hasOwnProperty.call(SIGN_IN_MESSAGES, error)
    ? (SIGN_IN_MESSAGES[error] as string)
    : DEFAULT_SIGN_IN_MESSAGE;
}

/** How the error page presents one error. */
export interface ErrorPageContent {
  /** The `data-error-type` of the page: the error's type when known, else `Default`. */
  type: ErrorType | "Default";
  status: number;
  heading: string;
  message: string;
  /** Whether signing in again is the way forward (a link to the sign-in page is offered): all but Configuration. */
  offerSignIn: boolean;
}

/** The error page's content for the `error` parameter (any string). */
export function errorPageContent(error: string): ErrorPageContent {
  const type = isErrorType(error) ? error : "Default";
  switch (type) {
    case "Configuration":
      return {
        type,
        status: 500,
        heading: "Server error",
        message: "There is a problem with the server configuration. The server logs have more details.",
        offerSignIn: false,
      };
    case "PayloadTooLarge":
      return {
        type,
        status: 413,
        heading: "Request too large",
        message: "The form sent more data than sign-in accepts. Go back and try again.",
        offerSignIn: true,
      };
    case "AccessDenied":
      return {
        type,
        status: 403,
        heading: "Access denied",
        message: "You do not have permission to sign in.",
        offerSignIn: true,
      };
    case "StoreUnavailable":
      // The server's fault, not the person's: nothing they entered was wrong; trying again later works.
      return {
        type,
        status: 503,
        heading: "Temporarily unavailable",
        message: "Sign-in is temporarily unavailable. Nothing you did caused this; please try again in a moment.",
        offerSignIn: true,
      };
    case "Verification":
      return {
        type,
        status: 403,
        heading: "Unable to sign in",
        message: "The sign-in link is no longer valid. It may have been used already, or it may have expired.",
        offerSignIn: true,
      };
    default: {
      // A known type with a sign-in message (say MissingCSRF) keeps its explanation; the rest,
      // and anything unknown, get the generic one.
      const specific = type !== "Default" && Object.prototype.hasOwnProperty.call(SIGN_IN_MESSAGES, type);
      return {
        type,
        status: 400,
        heading: specific ? "Unable to sign in" : "Something went wrong",
        message: specific ? (SIGN_IN_MESSAGES[type] as string) : "Sign-in could not be completed. Please try again.",
        offerSignIn: true,
      };
    }
  }
}
