/**
 * A passkey's credential id in its two spellings. The browser and @simplewebauthn/server speak
 * unpadded base64url; the store keeps standard, padded base64, as the spec says and as Auth.js writes
 * it, so a table written by Auth.js works here unchanged. Earlier appauth versions stored base64url:
 * lookups try that spelling second, so nobody registered then is locked out.
 */

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** WebAuthn caps a credential id at 1023 bytes (Level 3, §5.1): 1364 base64url characters. Longer is no id. */
const MAX_CREDENTIAL_ID_LENGTH = 1364;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Standard base64 of the same bytes, re-encoded so that one credential has one spelling; null if not base64 at all. */
function canonical(standardish: string): string | null {
  const bare = standardish.replace(/=+$/, "");
  const padded = bare.padEnd(Math.ceil(bare.length / 4) * 4, "=");
  if (!BASE64.test(padded)) return null;
  try {
    // atob ignores the bits a non-canonical last character carries; btoa writes them as zeros.
    return btoa(atob(padded));
  } catch {
    return null;
  }
}

/** The stored spelling (standard base64, padded) of an id the browser or the library gave (base64url). */
export function storedCredentialId(fromBrowser: string): string | null {
  if (fromBrowser.length > MAX_CREDENTIAL_ID_LENGTH || !BASE64URL.test(fromBrowser)) return null;
  return canonical(fromBrowser.replaceAll("-", "+").replaceAll("_", "/"));
}

/** The browser's spelling (base64url, unpadded) of a stored id, whichever spelling it was stored in. */
export function browserCredentialId(stored: string): string {
  const standard = canonical(stored.replaceAll("-", "+").replaceAll("_", "/"));
  // A stored id that is not base64 at all was not written by us or Auth.js: hand it on untouched.
  if (standard === null) return stored;
  return standard.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The spellings to look a posted id up under, in order: the stored form, then the base64url form
 * earlier versions stored. Empty when the id is not base64url (it cannot name any credential).
 */
export function credentialIdLookups(fromBrowser: string): string[] {
  const stored = storedCredentialId(fromBrowser);
  if (stored === null) return [];
  const legacy = browserCredentialId(stored);
  return legacy === stored ? [stored] : [stored, legacy];
}
