/**
 * Reading back the `Set-Cookie` headers `Auth()` writes, so an integration can hand each cookie to
 * its framework's own cookie API (Next's `cookies().set`, a Node `ServerResponse`, ...). Only the
 * attributes `serializeCookie` emits are understood; anything else in the header is ignored.
 */
import type { SetCookie } from "../cookies.js";
import type { CookieSerializeOptions } from "../types.js";

function safeDecode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** One `Set-Cookie` header as name, decoded value and options; `null` when it has no `name=`. */
export function parseSetCookie(header: string): SetCookie | null {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const options: CookieSerializeOptions = {};
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? "" : attribute.slice(at + 1).trim();
    switch (key) {
      case "max-age": {
        const seconds = Number(value);
        if (Number.isFinite(seconds)) options.maxAge = seconds;
        break;
      }
      case "expires": {
        const date = new Date(value);
        if (!Number.isNaN(date.getTime())) options.expires = date;
        break;
      }
      case "path":
        options.path = value;
        break;
      case "domain":
        options.domain = value;
        break;
      case "samesite": {
        const same = value.toLowerCase();
        if (same === "lax" || same === "strict" || same === "none") options.sameSite = same;
        break;
      }
      case "httponly":
        options.httpOnly = true;
        break;
      case "secure":
        options.secure = true;
        break;
    }
  }
  return { name, value: safeDecode(pair.slice(eq + 1).trim()), options };
}

/** Every `Set-Cookie` of a response, parsed, in order. */
export function setCookiesOf(response: Response): SetCookie[] {
  return response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .filter((cookie): cookie is SetCookie => cookie !== null);
}

/** Whether a cookie write removes the cookie (`Max-Age=0` or an `Expires` in the past). */
export function isCookieDeletion(cookie: SetCookie, now = Date.now()): boolean {
  if (cookie.options.maxAge !== undefined) return cookie.options.maxAge <= 0;
  return cookie.options.expires !== undefined && cookie.options.expires.getTime() <= now;
}
