/**
 * Cookie names, parsing, serialisation and chunking. A session cookie too large for one cookie is
 * split into `<name>.0`, `<name>.1`, ... and joined on read; whatever chunks a write no longer needs
 * are expired in the same response, so a shorter session never inherits a stale tail.
 */
import type { CookieName, CookieOption, CookieSerializeOptions, CookiesOptions, SetCookie } from "./types.js";

// Public (machines' outputs carry it), so declared with the public types; re-exported for src/.
export type { SetCookie };

export type CookieJar = ReadonlyMap<string, string>;

/** Browsers keep at most 4096 bytes per cookie, name and attributes included. */
const COOKIE_SIZE_LIMIT = 4096;
/** Room left for the name, `=`, and the attributes we write (Path, Expires, HttpOnly, ...). */
const ATTRIBUTE_ALLOWANCE = 160;
export const CHUNK_SIZE = COOKIE_SIZE_LIMIT - ATTRIBUTE_ALLOWANCE;
/** Chunks joined on read: 32 × ~4 KB is more than the longest JWT the library opens (64 KiB). */
const MAX_CHUNKS = 32;

const PREFIX = "appauth";

export type ResolvedCookies = Record<CookieName, CookieOption>;

/**
 * The cookie set for a configuration: secure mode adds `Secure` and the `__Secure-`/`__Host-` prefixes.
 * `basePath` scopes the cookies only the library's own routes read (the page hint).
 */
export function defaultCookies(useSecureCookies: boolean, overrides: CookiesOptions = {}, basePath = "/"): ResolvedCookies {
  const secure = useSecureCookies ? "__Secure-" : "";
  const base: CookieSerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure: useSecureCookies };
  const short: CookieSerializeOptions = { ...base, maxAge: 60 * 15 };
  const defaults: ResolvedCookies = {
    sessionToken: { name: `${secure}${PREFIX}.session-token`, options: base },
    callbackUrl: { name: `${secure}${PREFIX}.callback-url`, options: base },
    csrfToken: { name: `${useSecureCookies ? "__Host-" : ""}${PREFIX}.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${secure}${PREFIX}.pkce.code_verifier`, options: short },
    state: { name: `${secure}${PREFIX}.state`, options: short },
    nonce: { name: `${secure}${PREFIX}.nonce`, options: base },
    webauthnChallenge: { name: `${secure}${PREFIX}.challenge`, options: short },
    // What a built-in page shows again after a redirect (page-hint.ts): a few minutes, the auth routes only.
    pageHint: { name: `${secure}${PREFIX}.page-hint`, options: { ...base, path: basePath, maxAge: 60 * 5 } },
    // A sign-in waiting for its second factor (two-factor/pending.ts): five minutes, the auth routes only.
    twoFactorPending: { name: `${secure}${PREFIX}.two-factor`, options: { ...base, path: basePath, maxAge: 60 * 5 } },
    // A browser that passed a challenge with "remember this browser" (two-factor/remember.ts): the
    // auth routes only; its lifetime is set when written (twoFactor.rememberBrowser).
    twoFactorRemembered: { name: `${secure}${PREFIX}.two-factor-remembered`, options: { ...base, path: basePath } },
    // A browser that signed in keeps its own password budget (rate-limit/device.ts): a year.
    device: { name: `${secure}${PREFIX}.device`, options: { ...base, maxAge: 365 * 24 * 60 * 60 } },
  };
  for (const key of Object.keys(overrides) as CookieName[]) {
    const override = overrides[key];
    if (!override) continue;
    defaults[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    };
  }
  return defaults;
}

/** Parses a `Cookie` header. Malformed pairs are skipped; a value that fails to decode is kept raw. */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  if (!header) return jar;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || jar.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    jar.set(name, safeDecode(value));
  }
  return jar;
}

function safeDecode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What `encodeURIComponent` leaves as it is: a value of only these is written unchanged. */
const UNESCAPED = /^[A-Za-z0-9\-_.!~*'()]*$/;

/**
 * A cookie value as written: percent-encoded, as Auth.js writes it. Most values (tokens in base64url,
 * hex MACs) have nothing to encode, and one test says so for a fraction of what encoding a session
 * token's kilobyte costs.
 */
function encodeValue(value: string): string {
  return UNESCAPED.test(value) ? value : encodeURIComponent(value);
}

/** Serialises one `Set-Cookie` value. */
export function serializeCookie(cookie: SetCookie): string {
  if (!NAME_PATTERN.test(cookie.name)) throw new TypeError(`cookie name ${JSON.stringify(cookie.name)} is invalid`);
  const o = cookie.options;
  let out = `${cookie.name}=${encodeValue(cookie.value)}`;
  if (o.maxAge !== undefined) out += `; Max-Age=${Math.floor(o.maxAge)}`;
  if (o.expires) out += `; Expires=${o.expires.toUTCString()}`;
  if (o.domain) out += `; Domain=${o.domain}`;
  out += `; Path=${o.path ?? "/"}`;
  if (o.httpOnly) out += "; HttpOnly";
  if (o.secure) out += "; Secure";
  if (o.sameSite) out += `; SameSite=${o.sameSite[0]!.toUpperCase()}${o.sameSite.slice(1)}`;
  return out;
}

/** A cookie that expires the named one. */
export function expireCookie(name: string, options: CookieSerializeOptions): SetCookie {
  const { expires: _e, ...rest } = options;
  return { name, value: "", options: { ...rest, maxAge: 0 } };
}

const CHUNK_SUFFIX = /^(.*)\.(\d+)$/;

/** Names of the chunks of `name` present in the jar, in order (`name.0`, `name.1`, ...). */
function chunkNames(jar: CookieJar, name: string): string[] {
  const found: Array<[number, string]> = [];
  for (const key of jar.keys()) {
    const m = CHUNK_SUFFIX.exec(key);
    if (m && m[1] === name) found.push([Number(m[2]), key]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, key]) => key);
}

/** Reads a possibly chunked cookie: the whole one if present, else its chunks joined in order. */
export function readChunkedCookie(jar: CookieJar, name: string): string | undefined {
  const whole = jar.get(name);
  if (whole !== undefined) return whole;
  let value = "";
  // Past MAX_CHUNKS the joined value is longer than any token the library opens: it is not joined further.
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const chunk = jar.get(`${name}.${i}`);
    if (chunk === undefined) break;
    value += chunk;
  }
  return value || undefined;
}

/**
 * The cookies that store `value` under `name`: one cookie when it fits, otherwise numbered chunks.
 * Cookies of an earlier write (the whole cookie or surplus chunks) that the jar still holds are expired.
 */
export function writeChunkedCookie(
  jar: CookieJar,
  name: string,
  value: string,
  options: CookieSerializeOptions,
): SetCookie[] {
  const out: SetCookie[] = [];
  const existingChunks = chunkNames(jar, name);
  const encoded = encodeURIComponent(value);
  if (name.length + encoded.length <= CHUNK_SIZE) {
    out.push({ name, value, options });
    for (const chunk of existingChunks) out.push(expireCookie(chunk, options));
    return out;
  }
  // Values we write are URL-safe (base64url JWTs), so a character-based split matches the encoded size.
  const size = CHUNK_SIZE - name.length - 4;
  const written = new Set<string>();
  for (let i = 0, offset = 0; offset < value.length; i++, offset += size) {
    const chunkName = `${name}.${i}`;
    written.add(chunkName);
    out.push({ name: chunkName, value: value.slice(offset, offset + size), options });
  }
  if (jar.has(name)) out.push(expireCookie(name, options));
  for (const chunk of existingChunks) if (!written.has(chunk)) out.push(expireCookie(chunk, options));
  return out;
}

/** Expires a possibly chunked cookie: the whole one and every chunk the jar holds. */
export function clearChunkedCookie(jar: CookieJar, name: string, options: CookieSerializeOptions): SetCookie[] {
  const out: SetCookie[] = [];
  if (jar.has(name)) out.push(expireCookie(name, options));
  for (const chunk of chunkNames(jar, name)) out.push(expireCookie(chunk, options));
  if (out.length === 0) out.push(expireCookie(name, options));
  return out;
}
