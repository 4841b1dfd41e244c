/**
 * Passkey (WebAuthn) providers, behind `experimental.enableWebAuthn`. `Passkey()` (id `passkey`) offers
 * conditional UI (autofill) on the built-in sign-in page; `WebAuthn()` (id `webauthn`) is the same
 * ceremony without it. The relying party's id and origin come from the trusted request URL unless set
 * here. This entry point (`appauth/providers/webauthn`) default-exports `WebAuthn`;
 * `appauth/providers/passkey` default-exports `Passkey`, as Auth.js users import them.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { CommonProviderOptions, ProviderStyle } from "../types.js";

/**
 * The ceremony's implementation (@simplewebauthn/server), carried by the provider rather than
 * imported by the core: only a configuration that lists a WebAuthn provider loads it, so the
 * handler and the middleware of every other application stay free of it (some of its dependencies
 * cannot load on an edge runtime).
 */
export interface SimpleWebAuthn {
  /** Makes the options the browser needs to create a passkey. */
  generateRegistrationOptions: typeof generateRegistrationOptions;
  /** Makes the options the browser needs to sign in with a passkey. */
  generateAuthenticationOptions: typeof generateAuthenticationOptions;
  /** Checks the browser's answer to a registration: the new passkey's attestation. */
  verifyRegistrationResponse: typeof verifyRegistrationResponse;
  /** Checks the browser's answer to a sign-in: the passkey's signature over the challenge. */
  verifyAuthenticationResponse: typeof verifyAuthenticationResponse;
}

export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn";
  /** The relying party: `id` (default: the host name), `name` (default: the host), `origin` (default: the app's origin). */
  relayingParty?: { id?: string; name?: string; origin?: string };
  /** Offer passkeys in the browser's autofill on the sign-in page. */
  enableConditionalUI?: boolean;
  /** Seconds a ceremony may take between the options and the answer; default 5 minutes. */
  challengeMaxAge?: number;
  /** How the provider's button looks on the built-in sign-in page. */
  style?: ProviderStyle;
  /** Set by `WebAuthn()`/`Passkey()`; a provider object written by hand must supply it. */
  simpleWebAuthn?: SimpleWebAuthn;
  /** The options the provider was created with. */
  options?: Partial<Omit<WebAuthnConfig, "options" | "type">>;
}

export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type" | "options">>;

const simpleWebAuthn: SimpleWebAuthn = {
  generateRegistrationOptions,
  generateAuthenticationOptions,
  verifyRegistrationResponse,
  verifyAuthenticationResponse,
};

export function WebAuthn(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    type: "webauthn",
    enableConditionalUI: false,
    challengeMaxAge: 300,
    simpleWebAuthn,
    ...options,
    options,
  };
}

export function Passkey(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({ id: "passkey", name: "Passkey", enableConditionalUI: true, ...options });
}

export default WebAuthn;
