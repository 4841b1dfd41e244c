/**
 * Double-submit CSRF protection. The cookie holds `token|hash(token, secret)`: the hash proves the
 * token was minted here (a cookie planted by a sibling subdomain does not verify), and a POST proves
 * it can read the page by sending the same token in its body as `csrfToken`.
 */
import { toHex } from "./encoding.js";
import type { CookieJar, SetCookie } from "./cookies.js";
import type { CookieOption } from "./types.js";
import { nodeCrypto } from "./jwt/native.js";

const encoder = new TextEncoder();

/**
 * SHA-256 of the token and the secret, in hex. Node's synchronous hash where there is one: a Web
 * Crypto digest is a job on the thread pool, and it was half the time of `GET /csrf` and of every
 * POST's CSRF check. The same hex either way (UTF-8 input).
 */
export async function csrfHash(token: string, secret: string): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash("sha256").update(`${token}${secret}`).digest("hex");
  return webCryptoHash(token, secret);
}

export async function webCryptoHash(token: string, secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${token}${secret}`));
  return toHex(new Uint8Array(digest));
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export interface CsrfResult {
  /** The token the page or `GET /csrf` hands out. */
  token: string;
  /** A new cookie to set, when the request had no valid one. */
  cookie?: SetCookie;
  /** Whether `submitted` matched a valid cookie. */
  verified: boolean;
}

/**
 * Reads the CSRF cookie; keeps its token while it verifies against one of the secrets, mints a new
 * one otherwise; and says whether `submitted` (the body's `csrfToken`) matches it.
 */
export async function resolveCsrf(
  jar: CookieJar,
  cookie: CookieOption,
  secrets: readonly string[],
  submitted?: unknown,
): Promise<CsrfResult> {
  const raw = jar.get(cookie.name);
  if (raw) {
    const bar = raw.indexOf("|");
    const token = raw.slice(0, bar);
    const hash = raw.slice(bar + 1);
    if (bar > 0 && token.length <= 256) {
      for (const secret of secrets) {
        if (constantTimeEqual(hash, await csrfHash(token, secret))) {
          const verified = typeof submitted === "string" && constantTimeEqual(submitted, token);
          return { token, verified };
        }
      }
    }
  }
  const token = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const hash = await csrfHash(token, secrets[0]!);
  return { token, verified: false, cookie: { name: cookie.name, value: `${token}|${hash}`, options: cookie.options } };
}
