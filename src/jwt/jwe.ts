/**
 * JWE compact serialisation (RFC 7516 §7.1) for exactly one algorithm pair: direct key agreement
 * (`dir`, RFC 7518 §4.5) with AES-256-CBC + HMAC-SHA-512 (`A256CBC-HS512`, RFC 7518 §5.2.5). Written
 * against Web Crypto with keys imported once (see key.ts): a general JOSE library re-imports both
 * halves of the key on every call, which is most of the cost of reading a session.
 * Parsing rejects any other header before a key is touched; opening checks the tag before decrypting.
 */
import { decodeBase64url, encodeBase64url } from "./base64url.js";
import type { SessionKey } from "./key.js";
import { nodeCrypto } from "./native.js";

/** Direct use of a shared symmetric key as the content key (RFC 7518 §4.5). */
export const ALG = "dir";
/** AES-256-CBC with HMAC-SHA-512, truncated to 256 bits (RFC 7518 §5.2.5). */
export const ENC = "A256CBC-HS512";

/** Longer input is refused unread. Chunked cookies give plenty of room below this. */
export const MAX_TOKEN_LENGTH = 64 * 1024;

const IV_BYTES = 16;
const TAG_BYTES = 32;
const AES_BLOCK = 16;
const HEADER_MEMBERS = new Set(["alg", "enc", "kid"]);

const encoder = new TextEncoder();
/** Refuses malformed UTF-8 instead of replacing it; shared, since a non-streaming decode keeps no state. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A compact JWE whose shape and header passed inspection; nothing about it is authenticated yet. */
export interface ParsedJwe {
  readonly kid: string | undefined;
  readonly aad: Uint8Array<ArrayBuffer>;
  readonly iv: Uint8Array<ArrayBuffer>;
  readonly ciphertext: Uint8Array<ArrayBuffer>;
  readonly tag: Uint8Array<ArrayBuffer>;
}

function protectedHeader(kid: string): string {
  return encodeBase64url(encoder.encode(JSON.stringify({ alg: ALG, enc: ENC, kid })));
}

/** RFC 7518 §5.2.2.1 step 5: the MAC covers AAD, IV, ciphertext and the AAD's length in bits (64-bit big-endian). */
async function authenticationTag(
  key: SessionKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const input = new Uint8Array(aad.length + iv.length + ciphertext.length + 8);
  input.set(aad, 0);
  input.set(iv, aad.length);
  input.set(ciphertext, aad.length + iv.length);
  const view = new DataView(input.buffer);
  const bits = aad.length * 8;
  view.setUint32(input.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(input.length - 4, bits >>> 0);
  if (nodeCrypto && key.native) return nodeCrypto.createHmac("sha512", key.native.macKey).update(input).digest().subarray(0, TAG_BYTES);
  const mac = await crypto.subtle.sign("HMAC", key.macKey, input);
  return new Uint8Array(mac, 0, TAG_BYTES);
}

/** Compares without an early exit, so the time taken says nothing about where two tags differ. */
function equalTags(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** AES-256-CBC with PKCS#7 padding (RFC 7518 §5.2.2.1 step 3), synchronously where Node allows. */
async function encrypt(key: SessionKey, iv: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  if (nodeCrypto && key.native) {
    const cipher = nodeCrypto.createCipheriv("aes-256-cbc", key.native.encryptionKey, iv);
    return concat(cipher.update(plaintext), cipher.final());
  }
  return new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, key.encryptionKey, plaintext));
}

/** Encrypts `plaintext` under `key` into a compact JWE whose header names the key by `kid`. */
export async function sealJwe(plaintext: Uint8Array<ArrayBuffer>, key: SessionKey): Promise<string> {
  const header = protectedHeader(key.kid);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await encrypt(key, iv, plaintext);
  const tag = await authenticationTag(key, encoder.encode(header), iv, ciphertext);
  // The encrypted-key segment is empty: with `dir` the shared key is the content key.
  return `${header}..${encodeBase64url(iv)}.${encodeBase64url(ciphertext)}.${encodeBase64url(tag)}`;
}

function readHeader(segment: string): { kid: string | undefined } | null {
  const bytes = decodeBase64url(segment);
  if (!bytes) return null;
  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(bytes));
  } catch {
    return null;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) return null;
  const members = header as Record<string, unknown>;
  for (const name of Object.keys(members)) if (!HEADER_MEMBERS.has(name)) return null;
  if (members.alg !== ALG || members.enc !== ENC) return null;
  const kid = members.kid;
  if (kid !== undefined && typeof kid !== "string") return null;
  return { kid };
}

/**
 * Splits and checks a compact JWE: five segments, an empty encrypted key, a header of exactly
 * `alg: "dir"`, `enc: "A256CBC-HS512"` and an optional string `kid`, and segment sizes the
 * algorithm allows. Anything else is `null`.
 */
export function parseJwe(token: string): ParsedJwe | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [headerPart, encryptedKey, ivPart, ciphertextPart, tagPart] = parts as [string, string, string, string, string];
  if (encryptedKey !== "") return null;
  const header = readHeader(headerPart);
  if (!header) return null;
  const iv = decodeBase64url(ivPart);
  const ciphertext = decodeBase64url(ciphertextPart);
  const tag = decodeBase64url(tagPart);
  if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES) return null;
  if (!ciphertext || ciphertext.length === 0 || ciphertext.length % AES_BLOCK !== 0) return null;
  return { kid: header.kid, aad: encoder.encode(headerPart), iv, ciphertext, tag };
}

/** The plaintext if `key` authenticates the token, else `null`. The tag is checked before any decryption. */
export async function openJwe(jwe: ParsedJwe, key: SessionKey): Promise<Uint8Array<ArrayBuffer> | null> {
  const expected = await authenticationTag(key, jwe.aad, jwe.iv, jwe.ciphertext);
  if (!equalTags(expected, jwe.tag)) return null;
  try {
    if (nodeCrypto && key.native) {
      const decipher = nodeCrypto.createDecipheriv("aes-256-cbc", key.native.encryptionKey, jwe.iv);
      return concat(decipher.update(jwe.ciphertext), decipher.final());
    }
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv: jwe.iv }, key.encryptionKey, jwe.ciphertext));
  } catch {
    return null;
  }
}
