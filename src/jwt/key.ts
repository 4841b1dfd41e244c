/**
 * The session token key: 64 bytes derived with HKDF-SHA256 (RFC 5869) from one secret, salted with
 * the session cookie's name, and split into the HMAC and AES halves that A256CBC-HS512 needs. Deriving
 * and importing costs far more than opening a token, so keys are memoised per (secret, salt) as
 * promises — concurrent first uses share one derivation — in a small least-recently-used cache. The
 * cache only remembers results of a pure function, so configurations sharing a process never see
 * each other's behaviour change.
 */
import { encodeBase64url } from "./base64url.js";
import { nodeCrypto } from "./native.js";

/** A derived key, ready for A256CBC-HS512 (RFC 7518 §5.2.2.1: MAC key first, encryption key second). */
export interface SessionKey {
  /** RFC 7638 thumbprint (SHA-256) of the derived key as an `oct` JWK: names the key, reveals nothing of it. */
  readonly kid: string;
  /** HMAC-SHA-512 over the first 32 bytes. */
  readonly macKey: CryptoKey;
  /** AES-256-CBC over the last 32 bytes. */
  readonly encryptionKey: CryptoKey;
  /** The same two halves as Node key objects, when Node's synchronous crypto is at hand (see native.ts). */
  readonly native?: { readonly macKey: unknown; readonly encryptionKey: unknown };
}

/** Bytes of key material for A256CBC-HS512. */
export const KEY_BYTES = 64;

/** At most this many derived keys are kept; the least recently used goes first. */
export const MAX_CACHED_KEYS = 100;

const encoder = new TextEncoder();

/**
 * The HKDF `info` for a salt. It is part of the token format: changing it signs everyone out.
 */
export function keyInfo(salt: string): string {
  return `appauth session token key, A256CBC-HS512, for cookie "${salt}"`;
}

async function deriveSessionKey(secret: string, salt: string, info: string): Promise<SessionKey> {
  const subtle = crypto.subtle;
  const ikm = await subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = new Uint8Array(
    await subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(info) },
      ikm,
      KEY_BYTES * 8,
    ),
  );
  try {
    const half = KEY_BYTES / 2;
    const [macKey, encryptionKey, thumbprint] = await Promise.all([
      subtle.importKey("raw", bits.subarray(0, half), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
      subtle.importKey("raw", bits.subarray(half), "AES-CBC", false, ["encrypt", "decrypt"]),
      // RFC 7638 §3: the required members of an `oct` JWK, in lexicographic order, no whitespace.
      subtle.digest("SHA-256", encoder.encode(`{"k":"${encodeBase64url(bits)}","kty":"oct"}`)),
    ]);
    const kid = encodeBase64url(new Uint8Array(thumbprint));
    // Key objects copy the bytes, so zeroing `bits` below leaves them intact.
    const native = nodeCrypto
      ? { macKey: nodeCrypto.createSecretKey(bits.slice(0, half)), encryptionKey: nodeCrypto.createSecretKey(bits.slice(half)) }
      : undefined;
    return native ? { kid, macKey, encryptionKey, native } : { kid, macKey, encryptionKey };
  } finally {
    bits.fill(0);
  }
}

const cache = new Map<string, Promise<SessionKey>>();

/**
 * The key for `secret` and `salt`, derived once and then served from the cache.
 * Both must be non-empty strings; callers validate them. `info` is ours unless a session made by
 * another library is being opened (see session/legacy-session.ts).
 */
export function sessionKey(secret: string, salt: string, info?: string): Promise<SessionKey> {
  // The length prefixes keep ("a:b", "c") and ("a", "b:c") apart; a foreign `info` starts with a
  // letter where ours starts with a digit, so the two kinds of id never meet.
  const id = info === undefined ? `${salt.length}:${salt}:${secret}` : `i${info.length}:${info}|${salt.length}:${salt}:${secret}`;
  const cached = cache.get(id);
  if (cached) {
    cache.delete(id);
    cache.set(id, cached);
    return cached;
  }
  const pending = deriveSessionKey(secret, salt, info ?? keyInfo(salt));
  cache.set(id, pending);
  // A failed derivation is not remembered; the caller still sees the rejection.
  pending.catch(() => {
    if (cache.get(id) === pending) cache.delete(id);
  });
  if (cache.size > MAX_CACHED_KEYS) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  return pending;
}

/** Forgets every derived key. For tests and benchmarks that need a cold start. */
export function clearKeyCache(): void {
  cache.clear();
}
