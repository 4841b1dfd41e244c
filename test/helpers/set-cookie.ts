/**
 * Reading `Set-Cookie` headers the way a browser does, for assertions on names, attributes and
 * expiry. Only what the library writes is understood: `name=value` then `; Attr` or `; Attr=value`.
 */

export interface ParsedSetCookie {
  name: string;
  /** The value as written in the header (URL-encoded by the library). */
  raw: string;
  /** The value decoded, as the server will read it back. */
  value: string;
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  sameSite?: string;
  httpOnly: boolean;
  secure: boolean;
  /** The header as received, for length checks. */
  header: string;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function parseSetCookie(header: string): ParsedSetCookie {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  const name = pair.slice(0, eq).trim();
  const raw = pair.slice(eq + 1).trim();
  const cookie: ParsedSetCookie = { name, raw, value: safeDecode(raw), httpOnly: false, secure: false, header };
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? "" : attribute.slice(at + 1).trim();
    if (key === "max-age") cookie.maxAge = Number(value);
    else if (key === "expires") cookie.expires = new Date(value);
    else if (key === "path") cookie.path = value;
    else if (key === "domain") cookie.domain = value;
    else if (key === "samesite") cookie.sameSite = value;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "secure") cookie.secure = true;
  }
  return cookie;
}

/** Every `Set-Cookie` of a response, parsed, in order. */
export function setCookiesOf(response: Response): ParsedSetCookie[] {
  return response.headers.getSetCookie().map(parseSetCookie);
}

/** Whether a `Set-Cookie` deletes its cookie (`Max-Age=0`, or an `Expires` in the past). */
export function isDeletion(cookie: ParsedSetCookie, now = Date.now()): boolean {
  if (cookie.maxAge !== undefined) return cookie.maxAge <= 0;
  return cookie.expires !== undefined && cookie.expires.getTime() <= now;
}

/** The `Set-Cookie` of a response for `name`; undefined when the response does not touch it. */
export function setCookieNamed(response: Response, name: string): ParsedSetCookie | undefined {
  return setCookiesOf(response).find((c) => c.name === name);
}
