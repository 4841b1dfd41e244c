/**
 * The server half of `appauth/qwik` on plain request events (Qwik City's own request event needs
 * its Vite-generated route plan; the e2e test drives the real one): configuration from `event.env`
 * alone, the configurable base path, the core's CSRF check kept on the library's routes, cookies
 * with every attribute, and a session read once per request and only when asked.
 */
import { describe, expect, it } from "vitest";
import type { CookieOptions } from "@builder.io/qwik-city";
import Credentials from "../../../src/providers/credentials.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { configOf, handleAuthRoute, navigationTo, registerConfig, sessionOf, signIn, type AuthRequestEvent } from "../../../integrations/qwik/server.js";
import { Email } from "../../../src/providers/email.js";
import { RateLimited } from "../../../src/errors.js";
import type { ResumableAuthConfig } from "../../../integrations/qwik/env.js";
import { signInFailure } from "../../../integrations/qwik/failure.js";

interface Written {
  value: string;
  options: CookieOptions;
}

function eventFor(url: string, init: RequestInit & { env?: Record<string, string>; ip?: string } = {}) {
  const written = new Map<string, Written>();
  const env = init.env ?? {};
  const request = new Request(url, init);
  const event = {
    request,
    url: new URL(url),
    env: { get: (name: string) => env[name] },
    sharedMap: new Map<string, unknown>(),
    headers: new Headers(),
    clientConn: init.ip === undefined ? {} : { ip: init.ip },
    cookie: {
      set: (name: string, value: string, options: CookieOptions = {}) => written.set(name, { value, options }),
    },
  } as unknown as AuthRequestEvent;
  return { event, written };
}

const SECRET = "a-test-secret-that-is-long-enough-for-hkdf-0123456789";

function credentialsConfig(extra: Partial<ResumableAuthConfig> = {}): ResumableAuthConfig {
  return {
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) => (username === "demo" && password === "demo" ? { id: "1", name: "Demo" } : null),
      }),
    ],
    ...extra,
  };
}

describe("appauth/qwik on the server", () => {
  it("takes the secret from event.env and puts the library under /auth by default", async () => {
    const config = credentialsConfig();
    const { event } = eventFor("http://localhost/", { env: { AUTH_SECRET: SECRET } });
    const core = await configOf(event, async () => config);
    expect(core.secret).toBe(SECRET);
    expect(core.basePath).toBe("/auth");
    // The user's object is left as it was: the defaults live in the core's copy.
    expect(config.secret).toBeUndefined();
  });

  it("refuses to run in production (per event.env) without a secret", async () => {
    const { event } = eventFor("http://localhost/", { env: { NODE_ENV: "production" } });
    await expect(configOf(event, async () => credentialsConfig())).rejects.toMatchObject({ type: "MissingSecret" });
  });

  it("answers only the configured base path and leaves every other request alone", async () => {
    const config = credentialsConfig({ secret: SECRET, basePath: "/account" });
    const mine = eventFor("http://localhost/account/providers");
    const response = await handleAuthRoute(mine.event, async () => config);
    expect(response?.status).toBe(200);
    expect(Object.keys((await response!.json()) as object)).toEqual(["credentials"]);

    const other = eventFor("http://localhost/auth/providers");
    expect(await handleAuthRoute(other.event, async () => config)).toBeUndefined();
  });

  it("keeps the CSRF check: a text/plain credentials POST from another site signs nobody in", async () => {
    const config = credentialsConfig({ secret: SECRET });
    const { event, written } = eventFor("http://localhost/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example" },
      body: "username=demo&password=demo",
    });
    const response = await handleAuthRoute(event, async () => config);
    expect(response!.status).toBeLessThan(500);
    expect(new URL(response!.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect([...written.keys()].filter((name) => name.includes("session-token"))).toEqual([]);
  });

  it("hands the core's cookies to Qwik's cookie API with their attributes and strips them from the response", async () => {
    const config = credentialsConfig({ secret: SECRET, cookies: { csrfToken: { name: "csrf", options: { domain: "localhost", sameSite: "strict", secure: true, httpOnly: true, path: "/" } } } });
    const { event, written } = eventFor("http://localhost/auth/csrf");
    const response = await handleAuthRoute(event, async () => config);
    expect(response!.headers.getSetCookie()).toEqual([]);
    const csrf = written.get("csrf");
    expect(csrf?.options).toMatchObject({ domain: "localhost", sameSite: "strict", secure: true, httpOnly: true, path: "/" });
    expect(decodeURIComponent(csrf!.value)).toContain("|");
  });

  it("reads the session only when asked, once per request, and fails closed without a configuration", async () => {
    let calls = 0;
    const config = credentialsConfig({ secret: SECRET });
    const { event } = eventFor("http://localhost/");
    registerConfig(event, async () => {
      calls++;
      return config;
    });
    expect(calls).toBe(0);
    const [first, second] = await Promise.all([sessionOf(event), sessionOf(event)]);
    expect(first).toBe(second);
    expect(first.data).toBeNull();
    expect(calls).toBe(1);

    const orphan = eventFor("http://localhost/").event;
    expect((await sessionOf(orphan)).data).toBeNull();
  });

  it("tells a store that cannot be reached (unavailable) from a visitor without a session, and keeps the cookie", async () => {
    const down = {
      ...MemoryAdapter(),
      getSessionAndUser: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      },
    };
    const config = credentialsConfig({ secret: SECRET, adapter: down, session: { strategy: "database" } });
    const { event, written } = eventFor("http://localhost/protected", { headers: { cookie: "appauth.session-token=a-stored-session" } });
    registerConfig(event, async () => config);
    const read = await sessionOf(event);
    expect(read).toMatchObject({ data: null, unavailable: true });
    expect(written.size).toBe(0);

    const { event: visitor } = eventFor("http://localhost/protected");
    registerConfig(visitor, async () => config);
    expect((await sessionOf(visitor)).unavailable).toBeUndefined();
  });

  it("sends pages of the app by a Qwik redirect and the library's pages and other origins as documents", async () => {
    const config = await configOf(eventFor("http://localhost/").event, async () => credentialsConfig({ secret: SECRET }));
    const { event } = eventFor("http://localhost/");
    expect(navigationTo(event, config, "http://localhost/protected/?tab=1")).toEqual({ kind: "page", path: "/protected/?tab=1" });
    expect(navigationTo(event, config, "/auth/verify-request")).toEqual({ kind: "document", url: "/auth/verify-request" });
    expect(navigationTo(event, config, "https://op.example/authorize?x=1")).toEqual({ kind: "document", url: "https://op.example/authorize?x=1" });
  });
});

describe("sign-in from a Qwik action, per client address", () => {
  /** An email sign-in config that records the addresses links were sent to. */
  function linkConfig(extra: Partial<ResumableAuthConfig> = {}): { config: ResumableAuthConfig; sent: string[] } {
    const sent: string[] = [];
    const providers = [Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) })];
    return { config: { trustHost: true, secret: SECRET, adapter: MemoryAdapter(), providers, ...extra }, sent };
  }

  /** `useSignIn` as an action calls it: the action's own request event, from `ip`. */
  async function askForLink(config: ResumableAuthConfig, n: number, init: { ip: string; headers?: Record<string, string> }): Promise<unknown> {
    const { event } = eventFor("http://localhost/login?qaction=signin", { method: "POST", ...init });
    registerConfig(event, async () => config);
    return signIn(event, { providerId: "email", email: `visitor${n}@example.test` }).catch((error: unknown) => error);
  }

  it("counts link requests by the action's connection address: the 21st from one address is refused, 25 addresses get 25 links", async () => {
    const { config, sent } = linkConfig();
    for (let n = 0; n < 20; n++) expect(await askForLink(config, n, { ip: "203.0.113.7" })).toMatchObject({ kind: "document" });
    expect(await askForLink(config, 20, { ip: "203.0.113.7" })).toBeInstanceOf(RateLimited);
    expect(sent).toHaveLength(20);

    const other = linkConfig();
    for (let n = 0; n < 25; n++) await askForLink(other.config, n, { ip: `198.51.100.${n + 1}` });
    expect(other.sent).toHaveLength(25);
  });

  it("behind a proxy with trustProxy, counts the visitor X-Forwarded-For names, not the proxy's connection", async () => {
    const { config, sent } = linkConfig({ rateLimit: { trustProxy: true } });
    for (let n = 0; n < 25; n++) await askForLink(config, n, { ip: "10.0.0.2", headers: { "x-forwarded-for": `198.51.100.${n + 1}` } });
    expect(sent).toHaveLength(25);
  });
});

describe("what a failed Qwik sign-in action gives the form", () => {
  /** `useSignIn` posting a password for `username` from `ip`; what it threw. */
  async function attempt(config: ResumableAuthConfig, password: string, ip = "203.0.113.8"): Promise<unknown> {
    const { event } = eventFor("http://localhost/login?qaction=signin", { method: "POST", ip });
    registerConfig(event, async () => config);
    return signIn(event, { providerId: "credentials", username: "demo", password }).catch((error: unknown) => error);
  }

  it("says a wrong password is one, with its type and code", async () => {
    const failed = signInFailure(await attempt(credentialsConfig({ secret: SECRET }), "wrong"));
    expect(failed).toEqual({ status: 400, value: { formErrors: ["Wrong username or password."], fieldErrors: {}, error: "CredentialsSignin", code: "credentials" } });
  });

  it("says a refused attempt is too many, with the type RateLimited and the seconds to wait as a number", async () => {
    const config = credentialsConfig({ secret: SECRET, rateLimit: { credentials: { perClient: 1, window: 600 } } });
    await attempt(config, "wrong");
    const failed = signInFailure(await attempt(config, "wrong"));
    expect(failed?.value).toMatchObject({ error: "RateLimited", formErrors: ["Too many attempts. Please try again in 10 minutes."] });
    const { retryAfter } = failed!.value;
    expect(typeof retryAfter).toBe("number");
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
  });

  it("leaves an error that is not the library's to be thrown again", () => {
    expect(signInFailure(new Error("disk full"))).toBeNull();
  });
});
