/** How a flow's refusal becomes the AuthError the browser is redirected with. */
import type { FlowFailure } from "../../machines/shared.js";
import {
  AccessDenied,
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  EmailSignInError,
  InvalidConfiguration,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  Verification,
  WebAuthnVerificationError,
} from "../errors.js";

/**
 * The error a refused sign-in is reported as, for every flow: the machine's failure (what an effect
 * threw, and the type the machine decided on) becomes one typed AuthError.
 */
export function refusalError(failure: FlowFailure): AuthError {
  const { error, as } = failure;
  if (error instanceof CredentialsSignin) return error;
  if (as === "CredentialsSignin") return new CredentialsSignin();
  if (as === "OAuthAccountNotLinked") return new OAuthAccountNotLinked("The account is already linked to another user.");
  if (as === "EmailSignInError") return error instanceof EmailSignInError ? error : new EmailSignInError({ cause: error });
  if (as === "Verification") return new Verification("The sign-in link is invalid, used or expired.");
  if (as === "WebAuthnVerificationError") {
    return error instanceof WebAuthnVerificationError ? error : new WebAuthnVerificationError("The passkey did not verify.", { cause: error });
  }
  if (as === "Configuration" && !(error instanceof AuthError)) {
    return new InvalidConfiguration(error instanceof Error ? error.message : "The flow failed.", { cause: error });
  }
  if (as === "OAuthCallbackError") {
    if (error instanceof OAuthCallbackError) return error;
    const message = error instanceof Error ? error.message : "The OAuth callback could not be completed.";
    return new OAuthCallbackError(message, { cause: error });
  }
  if (as === "AccessDenied") {
    if (error instanceof AuthError && error.type === "AccessDenied") return error;
    const message = error instanceof Error ? error.message : undefined;
    return new AccessDenied(message || "The signIn callback refused the sign-in.", { cause: error });
  }
  if (error instanceof AuthError) return error;
  return new CallbackRouteError("The sign-in could not be completed.", { cause: error });
}
