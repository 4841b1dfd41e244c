/**
 * What an inspection observer may read in clear: an allowlist, per machine, of the data keys whose
 * values say how a flow went without saying who it ran for — provider ids, outcomes, error types,
 * limits and counts, times. Everything else a context, event, output or action carries (emails,
 * names, callback URLs, claims, form fields, tokens) reaches an observer as its type and length only
 * (`"[string:23]"`). State names, event types, action names and booleans are always shown.
 *
 * An entry is either a key at the top of a machine's context, an event, an actor's output or an
 * action's params (`"providerId"`), or a key under a named parent at any depth (`"limit.scope"`;
 * `"counts.*"` for every key under `counts`). A key under any other parent is not shown: a form field
 * named `providerId` inside `credentials` stays hidden. The per-machine lists are typed by the
 * machine's context, so a renamed context key fails to compile here rather than going dark.
 * docs/concepts/machines.md ("Watching and embedding") lists them for users.
 */
import type { BackchannelLogoutContext } from "../../machines/backchannel-logout.machine.js";
import type { CredentialsSignInContext } from "../../machines/credentials-signin.machine.js";
import type { DatabaseSessionContext } from "../../machines/database-session.machine.js";
import type { EmailContext } from "../../machines/email.machine.js";
import type { OAuthContext } from "../../machines/oauth.machine.js";
import type { SessionContext } from "../../machines/session.machine.js";
import type { SignInCompletionContext } from "../../machines/signin-completion.machine.js";
import type { SignOutContext } from "../../machines/signout.machine.js";
import type { TokenRefreshContext } from "../../machines/token-refresh.machine.js";
import type { WebAuthnContext } from "../../machines/webauthn.machine.js";

/** A top-level key of context `C`, or a `parent.key` entry. */
type Entry<C> = Extract<keyof C, string> | `${string}.${string}`;

/** Shown in every flow: the shapes the flows share (limits, failures, provider and account kinds). */
const SHARED: readonly string[] = [
  "providerId",
  "outcome",
  "now",
  // A rate-limit verdict, in a context (`limit`) and as the limiter's output.
  "limit.allowed",
  "limit.scope",
  "limit.limit",
  "limit.retryAfter",
  "counts.*",
  "output.allowed",
  "output.scope",
  "output.limit",
  "output.retryAfter",
  "output.outcome",
  "retryAfter",
  "scope",
  // The error type a flow ended with, and the library's own error classes.
  "failure.as",
  "failures.as",
  "error.name",
  "error.type",
  "provider.id",
  "provider.type",
  "account.provider",
  "account.type",
  // The site's own origin and base URL (trusted configuration, not the visitor's), and https or not.
  "request.origin",
  "request.baseUrl",
  "request.secure",
];

const credentialsSignIn: readonly Entry<CredentialsSignInContext>[] = ["providerId", "hasAdapter"];
const email: readonly Entry<EmailContext>[] = ["providerId", "expires"];
// Never listed: the sealed DPoP key (`dpopKey`, an account's `dpop_jwk`) and the proofs, which live only in effects.
const oauth: readonly Entry<OAuthContext>[] = ["providerId", "providerType", "emailVerified", "hasAdapter"];
const signInCompletion: readonly Entry<SignInCompletionContext>[] = ["isNewUser", "emailVerified", "hasAdapter"];
const webauthn: readonly Entry<WebAuthnContext>[] = ["providerId", "requestedAction", "action", "newCounter"];
const session: readonly Entry<SessionContext>[] = ["secretIndex", "changed", "updateAge", "expires", "refreshUnavailable"];
const databaseSession: readonly Entry<DatabaseSessionContext>[] = ["maxAge", "updateAge", "sessionError"];
const signOut: readonly Entry<SignOutContext>[] = [];
const backchannelLogout: readonly Entry<BackchannelLogoutContext>[] = ["providerId", "refusal", "count", "maxAge"];
const tokenRefresh: readonly Entry<TokenRefreshContext>[] = ["provider", "result", "source", "margin", "leaseMs"];

/** Each machine's list, by the machine's id, with the shared entries. */
const BY_MACHINE: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    credentialsSignIn,
    email,
    oauth,
    signInCompletion,
    webauthn,
    session,
    databaseSession,
    signOut,
    backchannelLogout,
    tokenRefresh,
  }).map(([id, list]) => [id, new Set([...SHARED, ...list])]),
);

const SHARED_ONLY: ReadonlySet<string> = new Set(SHARED);

/** The allowlist of the machine with id `machineId` (the shared one for any other actor). */
export function allowlistOf(machineId: string | undefined): ReadonlySet<string> {
  return (machineId !== undefined && BY_MACHINE[machineId]) || SHARED_ONLY;
}

/** The machine ids with a list of their own, for the docs test. */
export const INSPECTED_MACHINES: readonly string[] = Object.keys(BY_MACHINE);
