/**
 * Shared set-up of the Next integration tests: an app (`AppAuth` over the test config), a browser
 * that signs in through the app's own route handlers, and a Node request/response pair for the
 * pages-router forms of `auth`.
 */
import { NextRequest } from "next/server.js";
import AppAuth, { type AppAuthConfig, type AppAuthResult } from "../../../integrations/next/index.js";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";

export const ORIGIN = "http://localhost:3000";
export const SESSION_COOKIE = "appauth.session-token";

/** The test configuration as an `AppAuthConfig` (base path left to the integration: `/api/auth`). */
export function appConfig(overrides: Partial<AppAuthConfig> = {}): AppAuthConfig {
  return testConfig(overrides as Parameters<typeof testConfig>[0]) as AppAuthConfig;
}

/** Cookies a browser holds, updated from each response's `Set-Cookie`. */
export class Browser {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }

  keep(response: Response): Response {
    for (const cookie of setCookiesOf(response)) {
      const gone = (cookie.maxAge !== undefined && cookie.maxAge <= 0) || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): NextRequest {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.header());
    let body: string | undefined;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    return new NextRequest(new URL(path, ORIGIN), { method: init.method ?? (body ? "POST" : "GET"), headers, ...(body ? { body } : {}) });
  }

  /** Signs in as Ada through the app's catch-all route, as the built-in sign-in form does. */
  async signIn(app: AppAuthResult): Promise<void> {
    const csrf = (await this.keep(await app.handlers.GET(this.request("/api/auth/csrf"))).json()) as { csrfToken: string };
    const response = this.keep(
      await app.handlers.POST(
        this.request("/api/auth/callback/credentials", {
          form: { csrfToken: csrf.csrfToken, username: ADA_USERNAME, password: ADA_PASSWORD, callbackUrl: "/" },
        }),
      ),
    );
    if (response.status !== 302 || !this.cookies.has(SESSION_COOKIE)) throw new Error(`sign-in failed: ${response.status}`);
  }

  /** Cookies as a plain record, for a request scope. */
  record(): Record<string, string> {
    return Object.fromEntries(this.cookies);
  }
}

/** A signed-in browser and the app it signed in to. */
export async function signedIn(config: AppAuthConfig = appConfig()): Promise<{ app: AppAuthResult; browser: Browser }> {
  const app = AppAuth(config);
  const browser = new Browser();
  await browser.signIn(app);
  return { app, browser };
}

/** A pages-router request (Node's `IncomingMessage` shape) for `path`, carrying `cookies`. */
export function nodeRequest(path: string, cookies: string) {
  return { url: path, method: "GET", headers: { host: "localhost:3000", ...(cookies ? { cookie: cookies } : {}) } };
}

/** A pages-router response that records its headers. */
export function nodeResponse() {
  const headers = new Map<string, number | string | string[]>();
  return {
    headersSent: false,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader(name: string, value: string | string[]) {
      headers.set(name.toLowerCase(), value);
      return this;
    },
    setCookies: () => [headers.get("set-cookie") ?? []].flat().map(String),
  };
}
