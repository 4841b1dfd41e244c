/**
 * Strict base64url (RFC 4648 §5, no padding) for token segments. Decoding refuses anything a
 * canonical encoder would not have produced — foreign characters, impossible lengths, non-zero
 * trailing bits — so every accepted segment has exactly one spelling and a changed character never
 * decodes to the same bytes.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Character code → 6-bit value, or -1 for characters outside the alphabet. */
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/**
 * Node's Buffer, where there is one: its native codec is several times faster than the loops below,
 * which serve runtimes without it (edge, browsers). Both give the same strings and the same verdicts.
 */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Encodes bytes as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
  return encodeInJs(bytes);
}

/** Decodes canonical unpadded base64url; anything else is `null`. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!NodeBuffer) return decodeInJs(text);
  if (text.length % 4 === 1) return null;
  // Buffer skips characters outside the alphabet and ignores trailing bits; the canonical encoding of
  // what it decoded equals the text only when there were none of either.
  const decoded = NodeBuffer.from(text, "base64url");
  if (decoded.toString("base64url") !== text) return null;
  // A copy of its own: a small Buffer is a view into a shared pool.
  return new Uint8Array(decoded);
}

export function encodeInJs(bytes: Uint8Array): string {
  let out = "";
  const whole = bytes.length - (bytes.length % 3);
  let i = 0;
  for (; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - whole;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

function value(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? VALUES[code]! : -1;
}

export function decodeInJs(text: string): Uint8Array<ArrayBuffer> | null {
  const tail = text.length % 4;
  if (tail === 1) return null;
  const out = new Uint8Array((text.length * 3) >> 2);
  const whole = text.length - tail;
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = value(text, i);
    const b = value(text, i + 1);
    const c = value(text, i + 2);
    const d = value(text, i + 3);
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (tail === 2) {
    const a = value(text, whole);
    const b = value(text, whole + 1);
    // The last character carries 2 bits of data; its other 4 must be zero.
    if ((a | b) < 0 || (b & 15) !== 0) return null;
    out[o++] = (a << 2) | (b >> 4);
  } else if (tail === 3) {
    const a = value(text, whole);
    const b = value(text, whole + 1);
    const c = value(text, whole + 2);
    if ((a | b | c) < 0 || (c & 3) !== 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
  }
  return out;
}
