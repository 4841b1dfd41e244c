/**
 * Time-based one-time passwords (RFC 6238) over HOTP (RFC 4226), with Web Crypto's HMAC: no dependency,
 * runs on every runtime. Authenticator apps expect SHA-1, 6 digits and 30-second steps, so those are
 * fixed for enrollment; `digits` is an option only so the RFC's 8-digit test vectors can be checked.
 * Accepting a code returns its time step: the caller stores it (adapter `useTotpStep`) so the same code
 * is refused the second time.
 */

/** RFC 6238 §4.1: the step length in seconds (X). */
export const TOTP_PERIOD = 30;
/** Digits of the codes authenticator apps show. */
export const TOTP_DIGITS = 6;
/** RFC 4226 §4 R6 recommends 160 bits of shared secret. */
export const TOTP_SECRET_BYTES = 20;
/** At most this many steps of clock drift either way (RFC 6238 §5.2 recommends at most one). */
export const TOTP_DRIFT_STEPS = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 §6 base32, without padding (as `otpauth://` URIs carry secrets). */
export function encodeBase32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Base32 back to bytes (case, spaces and padding ignored); null for anything else. */
export function decodeBase32(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out[index++] = (buffer >>> (bits - 8)) & 255;
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/** A new shared secret: 20 random bytes, base32. */
export function generateTotpSecret(): string {
  return encodeBase32(crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES)));
}

export interface OtpOptions {
  /** Code length; default 6. */
  digits?: number;
  /** HMAC hash; default SHA-1 (what authenticator apps use). */
  hash?: "SHA-1" | "SHA-256" | "SHA-512";
}

/** RFC 4226 §5.3: the HOTP value of `counter` for the raw `key`, as a zero-padded string. */
export async function hotp(key: Uint8Array<ArrayBuffer>, counter: number, options: OtpOptions = {}): Promise<string> {
  const digits = options.digits ?? TOTP_DIGITS;
  const message = new Uint8Array(8);
  // The counter is 8 bytes big-endian; time steps stay far below 2^53.
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  new DataView(message.buffer).setUint32(4, counter >>> 0);
  const hmacKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: options.hash ?? "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, message));
  // Dynamic truncation (§5.3): 31 bits from the offset the last nibble names.
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** RFC 6238 §4.2: the time step `now` (epoch milliseconds) falls in. */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/** The code for base32 `secret` at `now` (epoch milliseconds). */
export async function generateTotp(secret: string, now: number, options: OtpOptions = {}): Promise<string> {
  const key = decodeBase32(secret);
  if (!key) throw new TypeError("generateTotp: secret must be base32");
  return hotp(key, totpStep(now), options);
}

/** Equal strings, in time independent of where they differ. */
function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The time step whose code `code` is, for base32 `secret` at `now` (epoch milliseconds), looking at
 * most one step either side; `null` when it matches none, or is not a code (spaces are ignored). The
 * caller must still record the step (`useTotpStep`) and accept the code only when that succeeds.
 */
export async function verifyTotp(secret: string, code: string, now: number, options: OtpOptions = {}): Promise<number | null> {
  const digits = options.digits ?? TOTP_DIGITS;
  const typed = typeof code === "string" ? code.replace(/\s/g, "") : "";
  const key = decodeBase32(secret);
  if (!key || !new RegExp(`^\\d{${digits}}$`).test(typed)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  // Every candidate is computed and compared, whichever matches, so timing says nothing about which.
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    if (step < 0) continue;
    if (sameCode(await hotp(key, step, options), typed) && matched === null) matched = step;
  }
  return matched;
}

/**
 * The `otpauth://` URI an authenticator app reads (Key Uri Format): `otpauth://totp/Issuer:label?…`
 * with the secret, issuer, SHA1, 6 digits, 30 seconds.
 */
export function otpauthUri(options: { secret: string; issuer: string; label: string }): string {
  const { secret, issuer, label } = options;
  const path = `${encodeURIComponent(issuer)}:${encodeURIComponent(label)}`;
  const query = new URLSearchParams({ secret, issuer, algorithm: "SHA1", digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD) });
  return `otpauth://totp/${path}?${query.toString().replace(/\+/g, "%20")}`;
}
