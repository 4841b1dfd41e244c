/**
 * What a session cookie must look like before anything is asked about it. A value that cannot be a
 * token (a control character, a byte outside the alphabet, an absurd length) is bad input: it reads
 * as no session, with no store call, no decryption and no error log. Checked here, once, so every
 * adapter is spared it — a NUL byte, for one, makes PostgreSQL refuse the query as if it were down.
 */
import { MAX_TOKEN_LENGTH } from "../jwt/jwe.js";

/**
 * The longest database session token read. Ours are UUIDs (36 characters), Auth.js's UUIDs or 64
 * hex characters; the room above is for a custom `generateSessionToken`.
 */
export const MAX_SESSION_TOKEN_LENGTH = 512;

/**
 * The characters a database session token may hold: base64 and base64url (UUIDs and hex are inside
 * both), and `.` and `~` for generators that join parts. Nothing a cookie parser or a SQL driver
 * treats specially, and no whitespace or control character.
 */
const SESSION_TOKEN = /^[A-Za-z0-9_\-+/=.~]+$/;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `token` can be a database session token (ours, Auth.js's, or a generator's that keeps the alphabet). */
export function isReadableSessionToken(token: string): boolean {
  return token.length <= MAX_SESSION_TOKEN_LENGTH && SESSION_TOKEN.test(token);
}

/** Whether `token` can be a JWT session token: not longer than any the library opens, no control character. */
export function isReadableJwt(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && !CONTROL.test(token);
}
