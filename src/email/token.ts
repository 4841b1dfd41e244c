/**
 * Email sign-in tokens: random, mailed once in the link, stored only as a keyed hash (HMAC-SHA256
 * with the secret), so the store never holds a usable token. With rotated secrets the newest hashes
 * new tokens and every secret is tried when a link is followed.
 */
import { toHex } from "../encoding.js";
const encoder = new TextEncoder();

/** 32 random bytes as hex. */
export function randomToken(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

async function hmac(message: string, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message))));
}

export async function hashToken(token: string, secret: string): Promise<string> {
  return hmac(`appauth email token:${token}`, secret);
}

/**
 * The stored form of a magic link's token: keyed with the secret and bound to the provider that
 * minted it, so a link followed at another email provider's callback finds no record (and consumes
 * none) — each provider's `signIn` policy holds for its own links only. The two parts are
 * JSON-encoded, so no provider id and token can be read as another pair.
 */
export async function hashLinkToken(token: string, options: { providerId: string; secret: string }): Promise<string> {
  return hmac(`appauth email link:${JSON.stringify([options.providerId, token])}`, options.secret);
}
