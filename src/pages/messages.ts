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
  RefreshTokenError: true,
  EmailSignInError: true,
  SessionTokenError: true,
  SignOutError: true,
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
  EmailSignInError: "The sign-in email could not be sent. Check the address and try again.",
  AccessDenied: "You do not have permission to sign in.",
  Verification: "The sign-in link is no longer valid. It may have been used already, or it may have expired.",
  MissingCSRF: "The form expired before it was sent. Please try again.",
  AccountNotLinked: "This account is linked to a different user. Sign in the way you did before.",
  WebAuthnVerificationError: "Your passkey could not be verified. Please try again.",
  SessionRequired: "Please sign in to see this page.",
};

const DEFAULT_SIGN_IN_MESSAGE = "Sign in failed. Please try again.";

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
    case "AccessDenied":
      return {
        type,
        status: 403,
        heading: "Access denied",
        message: "You do not have permission to sign in.",
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
