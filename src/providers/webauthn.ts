/**
 * Passkey (WebAuthn) providers, behind `experimental.enableWebAuthn`. `Passkey()` offers conditional
 * UI (autofill) on the built-in sign-in page; `WebAuthn()` is the same ceremony without it.
 * The relying party's id and origin come from the trusted request URL unless set here.
 */
import type { CommonProviderOptions, ProviderStyle } from "../types.js";

export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn";
  /** The relying party: `id` (default: the host name), `name` (default: the host), `origin` (default: the app's origin). */
  relayingParty?: { id?: string; name?: string; origin?: string };
  /** Offer passkeys in the browser's autofill on the sign-in page. */
  enableConditionalUI?: boolean;
  /** Seconds a ceremony may take between the options and the answer; default 5 minutes. */
  challengeMaxAge?: number;
  style?: ProviderStyle;
  options?: Partial<Omit<WebAuthnConfig, "options" | "type">>;
}

export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type" | "options">>;

export default function WebAuthn(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return { id: "webauthn", name: "WebAuthn", type: "webauthn", enableConditionalUI: false, challengeMaxAge: 300, ...options, options };
}

export function Passkey(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({ id: "passkey", name: "Passkey", enableConditionalUI: true, ...options });
}

export { WebAuthn };
