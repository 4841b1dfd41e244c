/**
 * A browser's worth of cookies for driving a real @auth/core (`Auth` from "@auth/core") directly, at
 * http://localhost:3000 with Auth.js's default base path `/auth`: what Auth.js wrote is then there
 * for appauth to read (cookies, and rows in a shared store).
 */
import { Auth as AuthJs, type AuthConfig as AuthJsConfig } from "@auth/core";
import { ORIGIN } from "./config.js";
import { isDeletion, setCookiesOf } from "./set-cookie.js";

export class AuthJsBrowser {
  readonly jar = new Map<string, string>();
  constructor(private readonly config: AuthJsConfig) {}

  async fetch(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers();
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    if (init.form) headers.set("content-type", "application/x-www-form-urlencoded");
    const response = await AuthJs(
      new Request(new URL(path, ORIGIN), {
        method: init.method ?? "GET",
        headers,
        ...(init.form ? { body: new URLSearchParams(init.form) } : {}),
      }),
      this.config,
    );
    for (const cookie of setCookiesOf(response)) {
      if (isDeletion(cookie)) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.raw);
    }
    return response;
  }

  async csrf(): Promise<string> {
    return ((await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  }

  /** The session cookies Auth.js left in the browser (whole or chunked). */
  sessionCookies(): Array<[string, string]> {
    return [...this.jar].filter(([name]) => name.startsWith("authjs.session-token"));
  }
}

