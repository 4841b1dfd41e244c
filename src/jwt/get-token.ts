/**
 * Reading the session token from a request outside `Auth()` — in middleware, an API route, another
 * service. The token comes from the session cookie (joined from its chunks) or, failing that, from an
 * `Authorization: Bearer` header. What cannot be read is `null`; the only thing that throws is having
 * no secret at all, which is a deployment fault.
 */
import { type Env, processEnv, secretsFromEnv, urlFromEnv } from "../config/env.js";
import { defaultCookies, parseCookies, readChunkedCookie } from "../cookies.js";
import type { JWT, JWTDecodeParams } from "../types.js";
import { decodeLegacySessionToken, findLegacySessionCookie, type LegacySessionCookie } from "../session/legacy-session.js";
import { MAX_TOKEN_LENGTH } from "./jwe.js";
import { decode as defaultDecode, secretList } from "./token.js";

/** Header values as Node and most frameworks hand them over: a name may repeat, so a value may be a list. */
export type HeaderRecord = Record<string, string | string[] | undefined>;

/** Where and how {@link getToken} looks for the session token. */
export interface GetTokenParams {
  /** A `Request`, or anything with `headers` as `Headers` or a plain record (Node's `IncomingMessage`). */
  req: Request | { headers: Headers | HeaderRecord };
  /**
   * The secret, or the rotation list (newest first). Defaults to `APPAUTH_SECRET`/`AUTH_SECRET` and
   * `AUTH_SECRET_1`..`_3` from the environment.
   */
  secret?: string | string[];
  /**
   * Whether the cookie carries the `__Secure-` prefix. Defaults to true when the request URL or
   * `APPAUTH_URL`/`AUTH_URL` is https.
   */
  secureCookie?: boolean;
  /** The session cookie's name, when the configuration changed it. */
  cookieName?: string;
  /** The key derivation salt; defaults to the cookie name, as `Auth()` uses it. */
  salt?: string;
  /** Return the token as the request carries it, undecoded and unverified. */
  raw?: boolean;
  /** The decoder, when the configuration set `jwt.decode`. */
  decode?: (params: JWTDecodeParams) => Promise<JWT | null> | JWT | null;
}

const SESSION_COOKIE_INSECURE = defaultCookies(false).sessionToken.name;
const SESSION_COOKIE_SECURE = defaultCookies(true).sessionToken.name;

function isHeaders(headers: unknown): headers is Headers {
  return typeof (headers as Headers | undefined)?.get === "function";
}

/** One header's value; a repeated header is joined with `separator` (cookies) or its first value used. */
function header(req: GetTokenParams["req"], name: string, separator?: string): string | undefined {
  const headers: unknown = req.headers;
  if (isHeaders(headers)) return headers.get(name) ?? undefined;
  if (typeof headers !== "object" || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers as HeaderRecord)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === "string") return value;
    if (Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === "string");
      if (strings.length === 0) return undefined;
      return separator === undefined ? strings[0] : strings.join(separator);
    }
  }
  return undefined;
}

function isHttps(url: unknown): boolean {
  return typeof url === "string" && url.slice(0, 6).toLowerCase() === "https:";
}

/** RFC 6750 §2.1: `Bearer <token>`, the scheme case-insensitive. */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization && /^\s*bearer\s+([^\s,]+)\s*$/i.exec(authorization);
  return match ? match[1] : undefined;
}

interface FoundToken {
  token: string;
  cookieName: string;
  /** The token came from an Auth.js session cookie (no cookie of ours, default names). */
  legacy?: LegacySessionCookie;
}

/** The token the request carries and the cookie name it belongs to, or `null`. Never throws. */
function findToken(params: GetTokenParams, env: Env): FoundToken | null {
  try {
    const { req } = params;
    const secureCookie =
      params.secureCookie ?? (isHttps((req as { url?: unknown }).url) || isHttps(urlFromEnv(env)));
    const cookieName = params.cookieName ?? (secureCookie ? SESSION_COOKIE_SECURE : SESSION_COOKIE_INSECURE);
    const jar = parseCookies(header(req, "cookie", "; "));
    const cookie = readChunkedCookie(jar, cookieName);
    // Until their first session read migrates them, people switching from Auth.js carry its cookie.
    const legacy = cookie || params.cookieName !== undefined || params.salt !== undefined ? undefined : findLegacySessionCookie(jar);
    if (legacy) return legacy.value.length <= MAX_TOKEN_LENGTH ? { token: legacy.value, cookieName: legacy.name, legacy } : null;
    const token = cookie || bearerToken(header(req, "authorization"));
    return token && token.length <= MAX_TOKEN_LENGTH ? { token, cookieName } : null;
  } catch {
    return null;
  }
}

function secretsFor(params: GetTokenParams, env: Env): string[] {
  if (params.secret !== undefined) return secretList(params.secret);
  const fromEnv = secretsFromEnv(env);
  if (!fromEnv) throw new TypeError("`secret` is missing: pass `secret`, or set APPAUTH_SECRET (or AUTH_SECRET)");
  return secretList(fromEnv);
}

/**
 * Reads the session token of a request: the `appauth.session-token` cookie (`__Secure-` prefixed
 * when `secureCookie`), joined from `.0`, `.1`, ... chunks when split, else an `Authorization: Bearer`
 * header ([RFC 6750 §2.1](https://www.rfc-editor.org/rfc/rfc6750#section-2.1)). The token is decoded
 * with `decode` (default: this module's, a JWE per
 * [RFC 7516](https://www.rfc-editor.org/rfc/rfc7516) with a key from
 * [RFC 5869](https://www.rfc-editor.org/rfc/rfc5869) HKDF) and `salt` (default: the cookie name).
 *
 * Returns the claims, or with `raw: true` the token string itself (unverified, so no secret is
 * needed); `null` whenever there is nothing that can be read.
 *
 * @throws TypeError naming `secret` when the token must be decoded and no secret is given nor set
 * in the environment, or when the given secret is not a usable one.
 */
export function getToken(params: GetTokenParams & { raw: true }): Promise<string | null>;
export function getToken(params: GetTokenParams & { raw?: false }): Promise<JWT | null>;
export function getToken(params: GetTokenParams): Promise<JWT | string | null>;
export async function getToken(params: GetTokenParams): Promise<JWT | string | null> {
  const env = processEnv();
  if (params.raw) {
    if (params.secret !== undefined) secretList(params.secret);
    return findToken(params, env)?.token ?? null;
  }
  const secret = secretsFor(params, env);
  const found = findToken(params, env);
  if (!found) return null;
  try {
    if (found.legacy && !params.decode) return await decodeLegacySessionToken(found.legacy, secret);
    const decoder = params.decode ?? defaultDecode;
    const payload = await decoder({ token: found.token, secret, salt: params.salt ?? found.cookieName });
    return payload ?? null;
  } catch {
    return null;
  }
}
