/** Byte encodings the library needs in more than one place. */

/** Lower-case hex, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
