import type { AdapterUser, User } from "../types.js";

/**
 * The `twoFactor` option: second factors (an authenticator app's codes, recovery codes, a passkey)
 * that a signed-in user enrolls, and that every sign-in then asks for. See docs/concepts/two-factor.md.
 */
export interface TwoFactorOptions {
  /** The name authenticator apps show beside the account (the `issuer` of the `otpauth://` URI). Default: the theme's `brandName`, else the site's host. */
  issuer?: string;
  /** How many recovery codes a user gets at a time. Default 10. */
  recoveryCodes?: number;
  /**
   * Whether changing a user's second factors (confirming a new authenticator app, removing one) ends
   * every other session of that user, on every instance (a thief holding one of them loses it when the
   * person secures the account). The session making the change stays. Default `true`.
   */
  endOtherSessions?: boolean;
  /**
   * Whether a passkey sign-in with user verification counts as both factors (NIST SP 800-63B: it is
   * multi-factor), so it is not challenged again. Default `true`.
   */
  passkeyCountsAsBoth?: boolean;
  /**
   * Whether a user must have a second factor. One who must and has none is led, at sign-in, to enroll
   * an authenticator app before any session is issued (and before anything the sign-in writes is
   * written). A function decides per user: it gets the stored user (or, for a user the sign-in would
   * create, the user as the provider describes them); a throw refuses the sign-in. Default `false`.
   */
  required?: boolean | ((user: User | AdapterUser) => boolean | Promise<boolean>);
  /**
   * "Remember this browser": the challenge page offers a box that, ticked, lets this browser skip the
   * challenge of this user's later sign-ins for `maxAge` seconds (`true`: 30 days), until their second
   * factors change (an app confirmed or removed, new recovery codes). Such a sign-in records
   * `remembered` in `amr`, not `otp`/`mfa`, so it is no recent second factor for a step-up. Needs the
   * adapter's `getTwoFactorVersion`. Default `false`.
   */
  rememberBrowser?: boolean | { maxAge?: number };
}
