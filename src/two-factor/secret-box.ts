/**
 * The TOTP shared secret at rest: sealed as a JWE (dir, A256CBC-HS512) under a key derived with HKDF
 * from the configured secret, with a salt and info of its own so the key opens nothing else (no session
 * token, no cookie). Rotation as for sessions: the first secret seals, every secret in the list opens.
 */
import { openJwe, parseJwe, sealJwe } from "../jwt/jwe.js";
import { sessionKey } from "../jwt/key.js";

const SALT = "appauth.two-factor";
const INFO = "appauth two-factor secret key, A256CBC-HS512";
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function secretList(secret: string | readonly string[]): readonly string[] {
  const list = typeof secret === "string" ? [secret] : secret;
  if (!list.length || list.some((s) => typeof s !== "string" || !s)) throw new TypeError("secret: expected a non-empty secret or list of secrets");
  return list;
}

/** Seals `plaintext` (a TOTP secret) under the first of the configured secrets. */
export async function sealSecret(plaintext: string, secret: string | readonly string[]): Promise<string> {
  const key = await sessionKey(secretList(secret)[0]!, SALT, INFO);
  return sealJwe(encoder.encode(plaintext), key);
}

/** Opens what {@link sealSecret} sealed, with any of the configured secrets; null when none opens it. */
export async function openSecret(sealed: string, secret: string | readonly string[]): Promise<string | null> {
  const parsed = typeof sealed === "string" ? parseJwe(sealed) : null;
  if (!parsed) return null;
  for (const candidate of secretList(secret)) {
    const key = await sessionKey(candidate, SALT, INFO);
    if (parsed.kid !== undefined && parsed.kid !== key.kid) continue;
    const bytes = await openJwe(parsed, key);
    if (!bytes) continue;
    try {
      return decoder.decode(bytes);
    } catch {
      return null;
    }
  }
  return null;
}
