/**
 * A browser-like client for `Auth`: it sends the cookies it holds, keeps what `Set-Cookie` gives it
 * (a `Max-Age=0` or past `Expires` deletes, an expired cookie is no longer sent), and never follows
 * redirects, so each test can look at the `Location` itself. No server: requests go straight to `Auth`.
 *
 * ```ts
 * const client = new TestClient(config, "http://localhost:3000/auth");
 * await client.signIn("ada", "correct horse");
 * expect(await client.session()).toMatchObject({ user: { name: "Ada Lovelace" } });
 * ```
 */
import { Auth } from "../../src/index.js";
import type { AuthConfigInput } from "../../src/types.js";
import { isDeletion, setCookiesOf, type ParsedSetCookie } from "./set-cookie.js";

interface HeldCookie {
  /** As received in `Set-Cookie` (URL-encoded), and so as sent back. */
  raw: string;
  /** Milliseconds since the epoch after which the cookie is no longer sent; undefined for a session cookie. */
  expiresAt?: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: BodyInit;
  /** Send the jar's cookies (default true). */
  withCookies?: boolean;
}

export class TestClient {
  private readonly jar = new Map<string, HeldCookie>();
  /** The `Set-Cookie` headers of the most recent response, parsed. */
  lastSetCookies: ParsedSetCookie[] = [];

  constructor(
    readonly config: AuthConfigInput,
    readonly baseUrl = "http://localhost:3000/auth",
  ) {}

  /** `path` under the base URL (`"/session"`), or an absolute URL taken as is. */
  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`;
  }

  /** The `Cookie` header a browser would send now, or undefined when it holds none. */
  cookieHeader(): string | undefined {
    const now = Date.now();
    const pairs: string[] = [];
    for (const [name, cookie] of this.jar) {
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= now) continue;
      pairs.push(`${name}=${cookie.raw}`);
    }
    return pairs.length ? pairs.join("; ") : undefined;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers = new Headers(options.headers);
    const cookie = options.withCookies === false ? undefined : this.cookieHeader();
    if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
    const request = new Request(this.url(path), {
      method,
      headers,
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    const response = await Auth(request, this.config);
    this.keep(response);
    return response;
  }

  get(path: string, options: Omit<RequestOptions, "body"> = {}): Promise<Response> {
    return this.request("GET", path, options);
  }

  /** Posts `form` URL-encoded, as an HTML form does. */
  post(path: string, form: Record<string, string>, options: Omit<RequestOptions, "body"> = {}): Promise<Response> {
    return this.request("POST", path, {
      ...options,
      headers: { "content-type": "application/x-www-form-urlencoded", ...options.headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Posts `body` as JSON, as the fetch-based client does (e.g. POST /session). */
  postJson(path: string, body: unknown, options: Omit<RequestOptions, "body"> = {}): Promise<Response> {
    return this.request("POST", path, {
      ...options,
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(body),
    });
  }

  /** The CSRF token from GET /csrf (which also sets or keeps its cookie). */
  async csrf(): Promise<string> {
    const response = await this.get("/csrf");
    const body = (await response.json()) as { csrfToken: string };
    return body.csrfToken;
  }

  /** Signs in through the credentials provider `providerId`, with the CSRF token, as the built-in form does. */
  async signIn(
    username: string,
    password: string,
    options: { callbackUrl?: string; providerId?: string; fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const csrfToken = await this.csrf();
    const form: Record<string, string> = { csrfToken, username, password, ...options.fields };
    if (options.callbackUrl !== undefined) form.callbackUrl = options.callbackUrl;
    return this.post(`/callback/${options.providerId ?? "credentials"}`, form, options.headers ? { headers: options.headers } : {});
  }

  /** Signs out with the CSRF token, as the built-in sign-out page does. */
  async signOut(callbackUrl?: string): Promise<Response> {
    const csrfToken = await this.csrf();
    return this.post("/signout", callbackUrl === undefined ? { csrfToken } : { csrfToken, callbackUrl });
  }

  /** GET /session, parsed. */
  async session(): Promise<unknown> {
    const response = await this.get("/session");
    return response.json();
  }

  /** A cookie's value as the server reads it (decoded), or undefined when not held (or expired). */
  cookie(name: string): string | undefined {
    const held = this.jar.get(name);
    if (!held || (held.expiresAt !== undefined && held.expiresAt <= Date.now())) return undefined;
    try {
      return decodeURIComponent(held.raw);
    } catch {
      return held.raw;
    }
  }

  /** Names of the cookies held now, sorted. */
  cookieNames(): string[] {
    const now = Date.now();
    return [...this.jar]
      .filter(([, c]) => c.expiresAt === undefined || c.expiresAt > now)
      .map(([name]) => name)
      .sort();
  }

  /** Plants a cookie, as an attacker or a stale browser might; `raw` is sent exactly as given. */
  setCookie(name: string, raw: string): void {
    this.jar.set(name, { raw });
  }

  deleteCookie(name: string): void {
    this.jar.delete(name);
  }

  clearCookies(): void {
    this.jar.clear();
  }

  private keep(response: Response): void {
    this.lastSetCookies = setCookiesOf(response);
    const now = Date.now();
    for (const cookie of this.lastSetCookies) {
      if (isDeletion(cookie, now)) {
        this.jar.delete(cookie.name);
        continue;
      }
      const expiresAt =
        cookie.maxAge !== undefined ? now + cookie.maxAge * 1000 : cookie.expires ? cookie.expires.getTime() : undefined;
      this.jar.set(cookie.name, expiresAt === undefined ? { raw: cookie.raw } : { raw: cookie.raw, expiresAt });
    }
  }
}

/** The value of the hidden `<input name="...">` of a built-in page (the pages quote attributes with `"`). */
export function hiddenInput(html: string, name: string): string | undefined {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (!match) return undefined;
  return match[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? "",
  );
}
