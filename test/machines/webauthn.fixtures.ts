/**
 * What the WebAuthn machine tests hand to the machine: the plain request facts of each request, the
 * challenge cookie as the browser sends it back, and the state the callback restores the flow in.
 */
import type { WebAuthnCredentialEvent, webauthnMachine } from "../../machines/index.js";
import type { WebAuthnContext } from "../../machines/webauthn.machine.js";
import type { RequestFacts } from "../../machines/shared.js";
import { defaultCookies, expireCookie, type SetCookie } from "../../src/cookies.js";
import type { AdapterAuthenticator } from "../../src/types.js";
import { grace } from "./completion-world.js";
import type { Resumption } from "./run-actor.js";

export const providerId = "passkey";
export const request: RequestFacts = { origin: "https://app.example", baseUrl: "https://app.example/auth", secure: true };

const cookie = defaultCookies(true).webauthnChallenge;
/** The challenge cookie the options request sets (its value as `sealChallenge` made it). */
export const challengeCookies: SetCookie[] = [{ name: cookie.name, value: "sealed-challenge", options: { ...cookie.options, maxAge: 300 } }];
/** What every answer to the callback sets: the single-use challenge cookie, cleared. */
export const clearCookies: SetCookie[] = [expireCookie(cookie.name, cookie.options)];

/** Grace's stored passkey, as the store keeps it (id in standard base64 of the browser's "cred-1"). */
export const gracesPasskey: AdapterAuthenticator = {
  credentialID: "Y3JlZC0x",
  credentialPublicKey: "cHVibGljLWtleQ==",
  counter: 4,
  credentialDeviceType: "multiDevice",
  credentialBackedUp: true,
  transports: "internal",
  providerAccountId: "cred-1",
  userId: grace.id,
};

/**
 * The WebAuthn flow as the callback resumes it: at `awaitingCredential`, with the context the callback
 * handler builds from its request alone (the sealed challenge as the browser sent it, cleared on every
 * answer), then sent the browser's credential.
 */
export function webauthnCredential(
  posted: Omit<WebAuthnCredentialEvent, "type">,
  sealed: string | undefined = "sealed-challenge",
): Resumption<typeof webauthnMachine> {
  const context: WebAuthnContext = {
    providerId,
    request,
    ...(sealed !== undefined ? { sealedChallenge: sealed } : {}),
    challengeCookies: sealed !== undefined ? clearCookies : [],
    sessionCookies: [],
    events: [],
  };
  return { value: "awaitingCredential", context, event: { type: "credential.received", ...posted } };
}
