/**
 * The `twoFactor` option: second factors (an authenticator app's codes, recovery codes, a passkey)
 * that a signed-in user enrolls, and that every sign-in then asks for. See docs/concepts/two-factor.md.
 */
import type { Awaitable, User } from "../types.js";

export interface TwoFactorOptions {
  /** The name authenticator apps show beside the account (the `issuer` of the `otpauth://` URI). Default: the theme's `brandName`, else the site's host. */
  issuer?: string;
  /** How many recovery codes a user gets at a time. Default 10. */
  recoveryCodes?: number;
  /**
   * Whether a user must have a second factor: `true` for everyone, or a function of the user. A user
   * who must and has none is led to enrollment before a session is issued. Default `false`.
   */
  required?: boolean | ((user: User) => Awaitable<boolean>);
  /**
   * "Remember this browser": after a passed challenge, a signed cookie spares this browser the challenge
   * for `maxAge` seconds (default 30 days), void once the user's factors change. `false` (the default)
   * asks on every sign-in.
   */
  rememberBrowser?: false | { maxAge?: number };
  /**
   * Whether a passkey sign-in with user verification counts as both factors (NIST SP 800-63B: it is
   * multi-factor), so it is not challenged again. Default `true`.
   */
  passkeyCountsAsBoth?: boolean;
}
