/**
 * The portable suite's client: plain HTTP to a runtime's server with a cookie jar, never following
 * redirects (each step looks at its `Location`). It sends its own client address (in 10.0.0.0/8, from
 * its name) in `x-portable-client`, the header the app takes the client's address from, so each test
 * has its own rate-limit budget.
 */
import { isDeletion, setCookiesOf } from "../helpers/set-cookie.js";

/** An IPv4 address in 10.0.0.0/8 for `name` (FNV-1a), so each named client counts alone. */
function addressFor(name: string): string {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`;
}

export class Browser {
  private readonly jar = new Map<string, string>();
  /** The client address this browser's requests carry. */
  readonly client: string;

  constructor(
    readonly origin: string,
    name: string,
  ) {
    this.client = addressFor(name);
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  async request(method: string, path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({ "x-portable-client": this.client });
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([name, value]) => `${name}=${value}`).join("; "));
    if (form) headers.set("content-type", "application/x-www-form-urlencoded");
    const url = /^https?:/.test(path) ? path : `${this.origin}${path}`;
    const response = await fetch(url, { method, headers, body: form ? new URLSearchParams(form) : undefined, redirect: "manual" });
    for (const cookie of setCookiesOf(response)) {
      if (isDeletion(cookie)) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.raw);
    }
    return response;
  }

  async get(path: string): Promise<Response> {
    return this.request("GET", path);
  }

  async csrfToken(basePath: string): Promise<string> {
    const response = await this.get(`${basePath}/csrf`);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** POSTs `form` with the CSRF token, as the built-in pages do. */
  async post(basePath: string, path: string, form: Record<string, string> = {}): Promise<Response> {
    const csrfToken = await this.csrfToken(basePath);
    return this.request("POST", `${basePath}${path}`, { ...form, csrfToken });
  }

  async session(basePath: string): Promise<{ user?: { name?: string; email?: string } } | null> {
    const response = await this.get(`${basePath}/session`);
    if (response.status !== 200) throw new Error(`GET ${basePath}/session answered ${response.status}`);
    return (await response.json()) as { user?: { name?: string; email?: string } } | null;
  }
}

/** Where a redirect points, resolved against the request's origin. */
export function locationOf(response: Response, origin: string): URL {
  const location = response.headers.get("location");
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, origin);
}
