/**
 * Types and helpers every machine shares. Machines are pure: effects are named actors whose
 * implementations `src/` provides once per configuration; a placeholder left unprovided fails loudly.
 */
import { fromPromise } from "xstate";
import type { AdapterUser, JWT, Session, SessionError, SetCookie } from "../src/types.js";

/** An effect placeholder: the machine names it, `src/` supplies it with `machine.provide()`. */
export function effect<Output, Input>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(`The effect "${name}" was not provided to this machine.`);
  });
}

/**
 * What a flow knows of the request it runs for: plain data, serialisable, with nothing of a live
 * `Request` or cookie jar (effects that need those get them from the runner, not from the machine).
 * A flow's own cookie values and form fields are fields of its input, named for what they are.
 */
export interface RequestFacts {
  /** The trusted origin the request is answered on, e.g. `https://app.example`. */
  origin: string;
  /** The origin plus the base path, e.g. `https://app.example/api/auth`. */
  baseUrl: string;
  /** Served over https: cookies carry `Secure` and their `__Secure-`/`__Host-` names. */
  secure: boolean;
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
    | "WebAuthnVerificationError"
    | "RateLimited";
}

/**
 * What the rate limiter said about an attempt, before the work it protects: the counts it saw
 * (visible in the inspector), and when refused, the limit that refused and the seconds to wait.
 */
export interface LimitVerdict {
  allowed: boolean;
  /** Seconds until the refusing window closes (0 when allowed). */
  retryAfter: number;
  /** Each limit's count in its window, this attempt included. */
  counts: Record<string, number>;
  scope?: "requests" | "credentials" | "email" | "webauthn" | "oauth";
  /** The limit that refused: `requests`, `perAddress`, `perClient`, `perDevice`, `perIdentifier` or `perEmail`. */
  limit?: string;
  /** Allowed, but the address was mailed in this window already: answer as sent, send nothing. */
  quiet?: boolean;
}

/** Emitted when a limit refuses an attempt; `config.events.rateLimited` receives it. */
export type RateLimitedEvent = { type: "rateLimited"; providerId: string; scope: string; limit: string; retryAfter: number };

/**
 * The limiter's step of a machine: `src` counts the attempt; within the limits the flow goes on to
 * `next`, past one it ends in `limited` (refused as RateLimited, announced), and when the limiter
 * cannot answer it ends in `onError` with the error (fails closed). The machine names the actions
 * `rememberLimit`, `refuseAsLimited` and `recordFailure`, and the guard `withinLimit`.
 */
export function limiterStep<Context, Src extends string, Input, Next extends string, OnError extends string>(
  src: Src,
  input: (args: { context: Context }) => Input,
  next: Next,
  onError: OnError,
) {
  const verdictOf = ({ event }: { event: { output: LimitVerdict } }) => event.output;
  return {
    invoke: {
      src,
      input,
      onDone: [
        { guard: { type: "withinLimit" as const, params: verdictOf }, target: next, actions: { type: "rememberLimit" as const, params: verdictOf } },
        { target: "limited" as const, actions: [{ type: "rememberLimit" as const, params: verdictOf }, "refuseAsLimited" as const] },
      ],
      onError: {
        target: onError,
        actions: { type: "recordFailure" as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
      },
    },
  };
}

/** The event a refusing verdict is announced with. */
export function rateLimitedEvent(providerId: string, verdict: LimitVerdict): RateLimitedEvent {
  return { type: "rateLimited", providerId, scope: verdict.scope ?? "requests", limit: verdict.limit ?? "requests", retryAfter: verdict.retryAfter };
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
