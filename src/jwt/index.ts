/**
 * `appauth/jwt`: the session token as a JWE (`dir` + `A256CBC-HS512`) under keys derived with
 * HKDF-SHA256 from the secret and the session cookie's name, and `getToken` to read it from a request.
 * Runs wherever Web Crypto does: no Node built-ins.
 */
export { DEFAULT_MAX_AGE, decode, decodeWithSecretIndex, encode } from "./token.js";
export { getToken, type GetTokenParams } from "./get-token.js";
export type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js";
