/**
 * The flow definitions, pure and effect-free. Embed them in a custom server by providing the named
 * actors (see each machine's `setup`) with `machine.provide({ actors })`.
 */
import type { AnyStateMachine } from "xstate";
import { credentialsSignInMachine } from "./credentials-signin.machine.js";
import { databaseSessionMachine } from "./database-session.machine.js";
import { emailMachine } from "./email.machine.js";
import { oauthMachine } from "./oauth.machine.js";
import { signInCompletionMachine } from "./signin-completion.machine.js";
import { webauthnMachine } from "./webauthn.machine.js";
import { sessionMachine } from "./session.machine.js";
import { signOutMachine } from "./signout.machine.js";
import { tokenRefreshMachine } from "./token-refresh.machine.js";
import { backchannelLogoutMachine } from "./backchannel-logout.machine.js";

// Each machine with the types a custom server runs it with (input, output, events, what its effects
// take and give); not its context, which is the machine's own, nor the helpers machines are built from.
export { credentialsSignInMachine } from "./credentials-signin.machine.js";
export type { CredentialsSignInInput, CredentialsSignInOutput, CredentialsSignInEmitted } from "./credentials-signin.machine.js";
export { databaseSessionMachine } from "./database-session.machine.js";
export type { DatabaseSessionInput, DatabaseSessionOutput, DatabaseSessionEmitted, RefreshedAccount } from "./database-session.machine.js";
export { emailMachine } from "./email.machine.js";
export type { EmailInput, EmailOutput, EmailEmitted, EmailLinkEvent } from "./email.machine.js";
export { oauthMachine } from "./oauth.machine.js";
export type {
  OAuthInput,
  OAuthOutput,
  OAuthEmitted,
  OAuthCallbackEvent,
  CallbackParams,
  RestoredChecks,
  ExchangedTokens,
  AuthorizationRequest,
} from "./oauth.machine.js";
export { signInCompletionMachine } from "./signin-completion.machine.js";
export type { SignInCompletionInput, SignInCompletionOutput, CompletionEvent } from "./signin-completion.machine.js";
export { webauthnMachine } from "./webauthn.machine.js";
export type {
  WebAuthnInput,
  WebAuthnOutput,
  WebAuthnEmitted,
  WebAuthnCredentialEvent,
  WebAuthnAction,
  WebAuthnRefusal,
  PasskeyDescriptor,
  CeremonyOptions,
  CeremonyChallenge,
  VerifiedCredential,
} from "./webauthn.machine.js";
export { sessionMachine } from "./session.machine.js";
export type { SessionInput, SessionOutput, SessionEmitted } from "./session.machine.js";
export { signOutMachine } from "./signout.machine.js";
export type { SignOutInput, SignOutOutput, SignOutEmitted, EndedSession, ProviderLogout } from "./signout.machine.js";
export { tokenRefreshMachine } from "./token-refresh.machine.js";
export type { TokenRefreshInput, TokenRefreshOutput, RefreshTokens, GrantResult } from "./token-refresh.machine.js";
export { backchannelLogoutMachine, BACKCHANNEL_LOGOUT_EVENT, LOGOUT_TOKEN_CLOCK_SKEW } from "./backchannel-logout.machine.js";
export type {
  BackchannelLogoutInput,
  BackchannelLogoutOutput,
  BackchannelLogoutEmitted,
  LogoutTokenClaim,
  LogoutTokenClaims,
  LogoutTokenVerdict,
  EndedSessions,
} from "./backchannel-logout.machine.js";
export type { FlowFailure, LimitVerdict, RateLimitedEvent, RequestFacts, SetCookie } from "./shared.js";

/** Every machine the library runs, by name: the visualizations are generated from this list. */
export const allMachines: Record<string, AnyStateMachine> = {
  credentialsSignIn: credentialsSignInMachine,
  databaseSession: databaseSessionMachine,
  email: emailMachine,
  oauth: oauthMachine,
  signInCompletion: signInCompletionMachine,
  webauthn: webauthnMachine,
  session: sessionMachine,
  signOut: signOutMachine,
  tokenRefresh: tokenRefreshMachine,
  backchannelLogout: backchannelLogoutMachine,
};
