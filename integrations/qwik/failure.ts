/**
 * How a failed sign-in reads on a Qwik form: the value `useSignIn` fails with. Kept out of the
 * optimizer's file so it can be tested alone. A refused attempt says when to try again, as a number
 * of seconds on the value (never in a URL, where it would tell a stranger when to renew).
 */
import { rateLimitedMessage } from "../../src/pages/messages.js";

/** The value of a failed action, less what Qwik adds (`failed: true`). */
export interface SignInFailure {
  formErrors: string[];
  fieldErrors: Record<string, string[] | undefined>;
  /** The library's error type: `CredentialsSignin`, `RateLimited`, ... */
  error: string;
  /** The error's code, when it has one (`credentials`; for `RateLimited` the seconds, as text). */
  code?: string;
  /** For `RateLimited`: the seconds until the person may try again. */
  retryAfter?: number;
}

function messageOf(type: string, retryAfter: number | undefined): string {
  if (type === "CredentialsSignin") return "Wrong username or password.";
  if (type === "InvalidProvider") return "There is no such sign-in method.";
  // The sign-in page's own words: "Too many attempts. Please try again in 14 minutes."
  if (type === "RateLimited") return rateLimitedMessage(retryAfter === undefined ? undefined : String(retryAfter));
  return "Sign-in failed.";
}

/**
 * The HTTP status and the failure value for an error a sign-in threw, or `null` for an error that is
 * not the library's (the action throws it again: Qwik answers a 500 without its details).
 */
export function signInFailure(error: unknown): { status: number; value: SignInFailure } | null {
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== "string") return null;
  const code = (error as { code?: unknown }).code;
  const wait = (error as { retryAfter?: unknown }).retryAfter;
  const retryAfter = type === "RateLimited" && typeof wait === "number" && Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : undefined;
  return {
    // A refusal stays a 400 like every other failed attempt: the form reads the value, not the status.
    status: type === "Configuration" ? 500 : 400,
    value: {
      formErrors: [messageOf(type, retryAfter)],
      fieldErrors: {},
      error: type,
      ...(typeof code === "string" ? { code } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    },
  };
}
