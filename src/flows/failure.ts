/** How a flow's refusal becomes the AuthError the browser is redirected with. */
import type { FlowFailure, LimitVerdict } from "../../machines/shared.js";
import type { Runtime } from "../config/runtime.js";
import type { ResponsePlan } from "../response.js";
import { logAuthError } from "../logger.js";
import { rateLimitedMessage } from "../pages/messages.js";
import {
  AccessDenied,
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  EmailSignInError,
  InvalidConfiguration,
  isStoreFault,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  RateLimited,
  Verification,
  WebAuthnVerificationError,
} from "../errors.js";

/**
 * The error a refused sign-in is reported as, for every flow: the machine's failure (what an effect
 * threw, and the type the machine decided on) becomes one typed AuthError.
 */
export function refusalError(failure: FlowFailure): AuthError {
  const { error, as } = failure;
  // A store that could not answer refused nobody: whatever the machine would have called it, it is a fault.
  if (isStoreFault(error)) return error;
  if (error instanceof CredentialsSignin) return error;
  if (as === "RateLimited") return rateLimitedError(error as LimitVerdict);
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
    if (cancelledAtProvider(error)) {
      // The person said no at the provider: a choice, reported as a cancel rather than a failure.
      const cancelled = new OAuthCallbackError("The sign-in was cancelled at the provider (access_denied).", { cause: error });
      cancelled.code = "access_denied";
      return cancelled;
    }
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

/** The error of a limiter's refusal: which limit, and the seconds until its window closes. */
export function rateLimitedError(verdict: LimitVerdict): RateLimited {
  const what = verdict.scope === "email" ? "sign-in links" : verdict.scope === "credentials" ? "sign-in attempts" : "requests";
  return new RateLimited(`Too many ${what} (limit ${verdict.limit ?? "requests"}); retry in ${verdict.retryAfter} s.`, verdict.retryAfter);
}

/**
 * A refusal answered as `429 Too Many Requests` with `Retry-After`: to JSON routes, and to fetch
 * clients (`X-Auth-Return-Redirect`), which get the sign-in page's `url` as well.
 */
export function rateLimitedPlan(rt: Runtime, error: RateLimited, url?: string): ResponsePlan {
  logAuthError(rt.logger, error);
  return {
    status: 429,
    headers: { "Retry-After": String(error.retryAfter) },
    json: { error: error.type, message: rateLimitedMessage(error.code), retryAfter: error.retryAfter, ...(url ? { url } : {}) },
  };
}

/** An authorization response with `error=access_denied` (RFC 6749 §4.1.2.1): the person declined. */
function cancelledAtProvider(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { error?: unknown }).error === "access_denied";
}
