/**
 * The data of a second factor, as the adapter stores it and as pages and callbacks see it. Only TOTP
 * factors are stored as factor records: recovery codes are kept as keyed hashes beside them
 * (`replaceRecoveryCodes`), and a passkey used as a second factor is one of the user's authenticators.
 */

/** The kinds of second factor: an authenticator app (RFC 6238), a recovery code, a passkey. */
export type SecondFactorType = "totp" | "recovery" | "webauthn";

/** A second factor as shown to its owner (no secret in it). */
export interface SecondFactor {
  /** The factor's id (for recovery codes: `"recovery"`; for a passkey: its credential id). */
  id: string;
  /** The user it belongs to. */
  userId: string;
  /** Which kind of factor it is. */
  type: SecondFactorType;
  /** When it was enrolled (for recovery codes: when they were listed). */
  createdAt: Date;
  /** When it last proved a sign-in, when it has. */
  lastUsedAt?: Date | null;
  /** A name the user recognises it by ("Phone"). */
  label?: string | null;
}

/**
 * A TOTP factor as the adapter stores it. `secret` is the shared secret sealed with a key derived
 * from the configured secret (`sealSecret`), never the secret itself. A factor is pending
 * (`active: false`) from enrollment until its first correct code; a pending factor proves nothing.
 */
export interface StoredTotpFactor extends SecondFactor {
  /** Always `"totp"`: only authenticator apps are stored as factor records. */
  type: "totp";
  /** The shared secret, sealed (see `secret-box.ts`); opened only to check a code. */
  secret: string;
  /**
   * The last RFC 6238 time step whose code was accepted (`-1` before any): a code of this step or an
   * earlier one is refused, so a code works once even inside its window and across processes.
   */
  lastUsedStep: number;
  /** Whether the factor was confirmed with a first correct code. */
  active: boolean;
}
