/**
 * Sessions made by Auth.js, read once so that switching to appauth signs nobody out. A request that
 * carries no appauth session cookie but an Auth.js one (v5 `authjs.session-token`, v4
 * `next-auth.session-token`, secure-prefixed or chunked) is read from that cookie; the session flow
 * then issues the appauth cookie and expires the old one in the same response, so each person is
 * migrated by their first session read. Nothing is read from the old cookie once ours exists.
 *
 * JWT sessions need the old key derivation: Auth.js v5 keys A256CBC-HS512 with HKDF-SHA256 over the
 * secret, salt = the cookie's name, info `Auth.js Generated Encryption Key (<salt>)`, 64 bytes;
 * next-auth v4 keys A256GCM with HKDF-SHA256, an empty salt, info `NextAuth.js Generated Encryption
 * Key`, 32 bytes. Database sessions need nothing: the cookie holds the stored session's token.
 */
import { readChunkedCookie, type CookieJar } from "../cookies.js";
import { decodeBase64url } from "../jwt/base64url.js";
import { openJwe, parseJwe } from "../jwt/jwe.js";
import { sessionKey } from "../jwt/key.js";
import { readClaims } from "../jwt/token.js";
import type { JWT } from "../types.js";

export type LegacyFormat = "authjs" | "next-auth-v4";

/** An Auth.js session cookie found on a request (joined from its chunks). */
export interface LegacySessionCookie {
  readonly name: string;
  readonly value: string;
  readonly format: LegacyFormat;
}

/** Secure names first: a browser sends a `__Secure-` cookie only over https, so it cannot be forged in plain. */
const LEGACY_NAMES: ReadonlyArray<readonly [string, LegacyFormat]> = [
  ["__Secure-authjs.session-token", "authjs"],
  ["authjs.session-token", "authjs"],
  ["__Secure-next-auth.session-token", "next-auth-v4"],
  ["next-auth.session-token", "next-auth-v4"],
];

/** Every cookie name this module reads, for the flows that expire them. */
export const LEGACY_SESSION_COOKIE_NAMES: readonly string[] = LEGACY_NAMES.map(([name]) => name);

/** The Auth.js session cookie the jar holds, if any. */
export function findLegacySessionCookie(jar: CookieJar): LegacySessionCookie | undefined {
  for (const [name, format] of LEGACY_NAMES) {
    const value = readChunkedCookie(jar, name);
    if (value) return { name, value, format };
  }
  return undefined;
}

/**
 * The claims of an Auth.js JWT session cookie sealed under one of `secrets`, or `null` for
 * anything else (another key, a changed byte, expired). Never throws because of the token.
 */
export async function decodeLegacySessionToken(cookie: LegacySessionCookie, secrets: readonly string[]): Promise<JWT | null> {
  try {
    return cookie.format === "authjs" ? await openAuthJs(cookie, secrets) : await openNextAuthV4(cookie.value, secrets);
  } catch {
    return null;
  }
}

async function openAuthJs(cookie: LegacySessionCookie, secrets: readonly string[]): Promise<JWT | null> {
  // Same JWE algorithms as ours; only the key derivation's `info` differs (and the kid's hash,
  // which is why every secret is tried instead of matching the kid).
  const jwe = parseJwe(cookie.value);
  if (!jwe) return null;
  for (const secret of secrets) {
    const key = await sessionKey(secret, cookie.name, `Auth.js Generated Encryption Key (${cookie.name})`);
    const plaintext = await openJwe(jwe, key);
    if (plaintext) return readClaims(plaintext);
  }
  return null;
}

const V4_INFO = new TextEncoder().encode("NextAuth.js Generated Encryption Key");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A compact JWE with `alg: "dir"`, `enc: "A256GCM"` (RFC 7518 §5.3): 12-byte IV, 16-byte tag. */
async function openNextAuthV4(token: string, secrets: readonly string[]): Promise<JWT | null> {
  if (token.length > 64 * 1024) return null;
  const parts = token.split(".");
  if (parts.length !== 5 || parts[1] !== "") return null;
  const [headerPart, , ivPart, ciphertextPart, tagPart] = parts as [string, string, string, string, string];
  const headerBytes = decodeBase64url(headerPart);
  if (!headerBytes) return null;
  const header: unknown = JSON.parse(utf8.decode(headerBytes));
  if (typeof header !== "object" || header === null) return null;
  const { alg, enc } = header as Record<string, unknown>;
  if (alg !== "dir" || enc !== "A256GCM") return null;
  const iv = decodeBase64url(ivPart);
  const ciphertext = decodeBase64url(ciphertextPart);
  const tag = decodeBase64url(tagPart);
  if (!iv || iv.length !== 12 || !ciphertext || !tag || tag.length !== 16) return null;
  const sealed = new Uint8Array(ciphertext.length + tag.length);
  sealed.set(ciphertext, 0);
  sealed.set(tag, ciphertext.length);
  const aad = new TextEncoder().encode(headerPart);
  for (const secret of secrets) {
    const key = await v4Key(secret);
    try {
      const plaintext = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: aad, tagLength: 128 }, key, sealed);
      return readClaims(new Uint8Array(plaintext));
    } catch {
      // Another secret's token, or a changed byte: try the next secret.
    }
  }
  return null;
}

async function v4Key(secret: string): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: V4_INFO }, ikm, 256);
  return crypto.subtle.importKey("raw", bits, "AES-GCM", false, ["decrypt"]);
}
