/** What the built-in pages take and return. */
import type { CredentialInput, ProviderStyle, ProviderType } from "../types.js";

/** A provider as the sign-in page shows it. */
export interface PageProvider {
  id: string;
  name: string;
  type: ProviderType;
  /** Absolute URL: where the oauth/oidc/email/webauthn form posts (`/signin/:id`). */
  signinUrl: string;
  /** Absolute URL: where the credentials form posts (`/callback/:id`). */
  callbackUrl: string;
  /** `brandColor` fills the provider's button; `logo` (http(s) or `data:image/`) sits in it. */
  style?: ProviderStyle;
  /** Credentials providers only: one form field per entry, named by its key. */
  credentials?: Record<string, CredentialInput>;
  /** WebAuthn providers only: absolute URL of `/webauthn-options/:id` (derived from `signinUrl` when absent). */
  optionsUrl?: string;
  /** WebAuthn providers only: offer passkeys in the email field's autofill (conditional UI). */
  enableConditionalUI?: boolean;
  /** Set when the provider cannot work as configured (development): shown disabled, with this note. */
  unavailable?: string;
}

/** The resolved theme: `colorScheme` is required here; the rest falls back to the defaults. */
export interface PageTheme {
  colorScheme: "auto" | "dark" | "light";
  /** Shown above the card: an http(s) URL or a `data:image/` URI. */
  logo?: string;
  /** Accent colour: primary buttons, links. A CSS colour (hex, rgb(), hsl() or a name). */
  brandColor?: string;
  /** Text on primary buttons; ignored when it would not contrast 4.5:1 with `brandColor`. */
  buttonText?: string;
  /** The application's name: "Sign in to <brandName>", and the link back to it. */
  brandName?: string;
}

/** A rendered page: the HTTP status to answer with and the complete document. */
export interface PageResult {
  status: number;
  html: string;
}
