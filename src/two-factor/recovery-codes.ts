/**
 * Recovery codes: shown once, stored only as keyed hashes (HMAC-SHA-256 under a key derived with HKDF
 * from the configured secret, with its own salt and info), each usable once. A code is ten characters
 * from an alphabet without look-alikes (no 0/o, 1/l/i, u), shown as `xxxxx-xxxxx`; what a person types
 * is compared after folding case and dropping dashes and spaces. ~49 bits each: with attempts limited
 * per user, guessing is hopeless. With several configured secrets, a code is hashed under each (the
 * hashes stored under an older secret still match during a rotation).
 */
import { toHex } from "../encoding.js";

/** Lowercase letters and digits without look-alikes (30 symbols: ten of them make ~49 bits). */
const ALPHABET = "23456789abcdefghjkmnpqrstvwxyz";
const CODE_LENGTH = 10;
/** How many codes a user gets by default. */
export const DEFAULT_RECOVERY_CODES = 10;

const SALT = "appauth.recovery-codes";
const INFO = "appauth recovery code hash key, HMAC-SHA-256";
const encoder = new TextEncoder();

/** `count` fresh codes, `xxxxx-xxxxx`. Shown to the person once; only their hashes are kept. */
export function generateRecoveryCodes(count: number = DEFAULT_RECOVERY_CODES): string[] {
  return Array.from({ length: count }, () => {
    let code = "";
    // Rejection sampling: 256 is not a multiple of the alphabet's size, so out-of-range bytes are redrawn.
    const limit = 256 - (256 % ALPHABET.length);
    while (code.length < CODE_LENGTH) {
      for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
        if (byte < limit && code.length < CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
      }
    }
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What a person typed, as it is hashed: lowercase, no dashes or spaces; null when it cannot be a code. */
export function normalizeRecoveryCode(typed: string): string | null {
  if (typeof typed !== "string") return null;
  const code = typed.normalize("NFKC").toLowerCase().replace(/[\s-]/g, "");
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

async function hashKey(secret: string): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(SALT), info: encoder.encode(INFO) },
    ikm,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
}

/** The stored form of one code (normalised first) under one secret; null when it cannot be a code. */
export async function hashRecoveryCode(typed: string, secret: string): Promise<string | null> {
  const code = normalizeRecoveryCode(typed);
  if (code === null) return null;
  const key = await hashKey(secret);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(code))));
}

/**
 * The hashes a typed code may be stored under: one per configured secret, the current one first. Try
 * `useRecoveryCode` with each until one succeeds. Empty when the input cannot be a code.
 */
export async function recoveryCodeCandidates(typed: string, secret: string | readonly string[]): Promise<string[]> {
  const secrets = typeof secret === "string" ? [secret] : [...secret];
  const hashes = await Promise.all(secrets.map((s) => hashRecoveryCode(typed, s)));
  return hashes.filter((h): h is string => h !== null);
}
