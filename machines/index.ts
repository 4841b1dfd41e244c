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

export * from "./credentials-signin.machine.js";
export * from "./database-session.machine.js";
export * from "./email.machine.js";
export * from "./oauth.machine.js";
export * from "./signin-completion.machine.js";
export * from "./webauthn.machine.js";
export * from "./session.machine.js";
export * from "./signout.machine.js";
export * from "./token-refresh.machine.js";
export * from "./backchannel-logout.machine.js";
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
