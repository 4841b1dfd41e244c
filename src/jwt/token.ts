/**
 * Encoding and decoding the session token: a JWT (RFC 7519) whose claims travel encrypted as a JWE
 * (`dir` + `A256CBC-HS512`), keyed per secret and cookie name. With several secrets the first
 * encrypts and all decrypt, so a secret can be rotated without signing anyone out; decoding reports
 * which secret opened a token so the session flow can re-issue it under the newest one.
 * Bad arguments (no secret, no salt) are programmer errors and throw; a bad token is `null`.
 */
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js";
import { openJwe, parseJwe, sealJwe } from "./jwe.js";
import { sessionKey, type SessionKey } from "./key.js";

/** The default session lifetime in seconds: 30 days. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

/** Seconds of clock skew forgiven when checking `exp` and `nbf`. */
export const CLOCK_TOLERANCE = 15;

const encoder = new TextEncoder();
/** Refuses malformed UTF-8 instead of replacing it; shared, since a non-streaming decode keeps no state. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The secrets as a list, newest first; throws a `TypeError` naming `secret` for anything else. */
export function secretList(secret: unknown): string[] {
  const list = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === "string" && s !== "")) {
    throw new TypeError("`secret` must be a non-empty string or a non-empty list of non-empty strings");
  }
  return list as string[];
}

function checkSalt(salt: unknown): string {
  if (typeof salt !== "string" || salt === "") {
    throw new TypeError("`salt` must be a non-empty string (the session cookie's name)");
  }
  return salt;
}

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Encrypts a session token.
 *
 * The claims are the caller's `token` (an absent one is `{}`) with `iat` (now), `exp`
 * (now + `maxAge`, default {@link DEFAULT_MAX_AGE}) and a random `jti` always set afresh
 * ([RFC 7519 §4.1](https://www.rfc-editor.org/rfc/rfc7519#section-4.1)). They are sealed as a compact
 * JWE ([RFC 7516 §7.1](https://www.rfc-editor.org/rfc/rfc7516#section-7.1)) with `alg: "dir"`
 * ([RFC 7518 §4.5](https://www.rfc-editor.org/rfc/rfc7518#section-4.5)) and `enc: "A256CBC-HS512"`
 * ([RFC 7518 §5.2.5](https://www.rfc-editor.org/rfc/rfc7518#section-5.2.5)) under a 64-byte key
 * derived with HKDF-SHA256 ([RFC 5869](https://www.rfc-editor.org/rfc/rfc5869)) from the first
 * secret, with `salt` (the session cookie's name) as the HKDF salt. The header's `kid` names the key.
 *
 * @throws TypeError when `secret`, `salt`, `maxAge` or `token` is unusable.
 */
export async function encode<P extends JWT = JWT>(params: JWTEncodeParams<P>): Promise<string> {
  const [secret] = secretList(params.secret) as [string, ...string[]];
  const salt = checkSalt(params.salt);
  const maxAge = params.maxAge ?? DEFAULT_MAX_AGE;
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
    throw new TypeError("`maxAge` must be a finite number of seconds");
  }
  const token: unknown = params.token ?? {};
  if (typeof token !== "object" || token === null || Array.isArray(token)) {
    throw new TypeError("`token` must be an object of claims");
  }
  const iat = nowInSeconds();
  const claims = { ...token, iat, exp: iat + Math.floor(maxAge), jti: crypto.randomUUID() };
  const key = await sessionKey(secret, salt);
  return sealJwe(encoder.encode(JSON.stringify(claims)), key);
}

/** The claims of a decrypted token, or `null` when they are not JSON or no longer (or not yet) valid. */
export function readClaims(plaintext: Uint8Array): JWT | null {
  let payload: unknown;
  try {
    payload = JSON.parse(utf8.decode(plaintext));
  } catch {
    return null;
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  const claims = payload as JWT;
  const now = nowInSeconds();
  // Every token this library issues expires; one without a usable `exp` is not ours to trust.
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)) return null;
  if (now - CLOCK_TOLERANCE >= claims.exp) return null;
  const nbf = (claims as Record<string, unknown>).nbf;
  if (nbf !== undefined && (typeof nbf !== "number" || now + CLOCK_TOLERANCE < nbf)) return null;
  return claims;
}

/**
 * Decrypts a session token and reports which secret opened it: `secretIndex` 0 is the newest
 * (first) secret; a higher index means the token should be re-issued under the newest.
 *
 * The key named by the header's `kid` is tried alone; only a token without a `kid`, or whose `kid`
 * matches none of the secrets, is tried against each secret in order. Everything that is not a
 * current token of ours — another format or algorithm, another key or cookie name, a changed byte,
 * an `exp` more than 15 seconds past, more than 64 KB — is `null`.
 *
 * @throws TypeError when `secret` or `salt` is unusable (never because of the token).
 */
export async function decodeWithSecretIndex(
  params: JWTDecodeParams,
): Promise<{ payload: JWT; secretIndex: number } | null> {
  const secrets = secretList(params.secret);
  const salt = checkSalt(params.salt);
  const token: unknown = params.token;
  if (typeof token !== "string" || token === "") return null;
  const jwe = parseJwe(token);
  if (!jwe) return null;
  try {
    const keys: SessionKey[] = [];
    for (const secret of secrets) {
      const key = await sessionKey(secret, salt);
      if (jwe.kid !== undefined && key.kid === jwe.kid) {
        const plaintext = await openJwe(jwe, key);
        const payload = plaintext && readClaims(plaintext);
        return payload ? { payload, secretIndex: keys.length } : null;
      }
      keys.push(key);
    }
    for (const [secretIndex, key] of keys.entries()) {
      const plaintext = await openJwe(jwe, key);
      if (!plaintext) continue;
      const payload = readClaims(plaintext);
      return payload ? { payload, secretIndex } : null;
    }
    return null;
  } catch {
    // Web Crypto refusing an operation is a token we cannot read, not a fault of the caller.
    return null;
  }
}

/**
 * Decrypts a session token made by {@link encode}: the claims, or `null` for anything that is not a
 * current token sealed under one of the secrets for this `salt`. See {@link decodeWithSecretIndex}
 * for the rules and the RFCs (7516 §7.1, 7518 §4.5 and §5.2.5, 5869).
 *
 * @throws TypeError when `secret` or `salt` is unusable (never because of the token).
 */
export async function decode<P extends JWT = JWT>(params: JWTDecodeParams): Promise<P | null> {
  const result = await decodeWithSecretIndex(params);
  return result ? (result.payload as P) : null;
}
