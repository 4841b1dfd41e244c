/**
 * Types and helpers every machine shares. Machines are pure: effects are named actors whose
 * implementations `src/` provides once per configuration; a placeholder left unprovided fails loudly.
 */
import { fromPromise } from "xstate";
import type { SetCookie } from "../src/cookies.js";
import type { AdapterUser, JWT, Session, SessionError } from "../src/types.js";

/** An effect placeholder: the machine names it, `src/` supplies it with `machine.provide()`. */
export function effect<Output, Input>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(`The effect "${name}" was not provided to this machine.`);
  });
}

/** An error as data: what a flow ended with, for `src/` to map to a redirect or a status. */
export interface FlowFailure {
  /** The error thrown by an effect, or one the machine chose (e.g. `AccessDenied`). */
  error: unknown;
  /** The error type the machine decided on when the effect's own error is not the point. */
  as?:
    | "AccessDenied"
    | "CredentialsSignin"
    | "Configuration"
    | "SessionTokenError"
    | "OAuthAccountNotLinked"
    | "OAuthCallbackError"
    | "EmailSignInError"
    | "Verification"
    | "WebAuthnVerificationError";
}

export type { SetCookie };

/**
 * The session the client sees when the application has no `session` callback (JWT strategy). A
 * refused refresh token (kept in the token) or a refresh that could not be done now shows as `error`.
 */
export function defaultTokenSession(token: JWT, expires: string, error?: SessionError): Session {
  const session: Session = { user: { name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null }, expires };
  const shown = token.account?.error ?? error;
  if (shown) session.error = shown;
  return session;
}

/** The session the client sees when the application has no `session` callback (database strategy). */
export function defaultUserSession(user: AdapterUser, expires: string, error?: SessionError): Session {
  const session: Session = { user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires };
  if (error) session.error = error;
  return session;
}

/** Which of the application's callbacks are configured: the defaults are pure and run in the machine. */
export interface ConfiguredCallbacks {
  jwt: boolean;
  session: boolean;
}
