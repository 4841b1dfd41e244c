/**
 * `auth` used bare as middleware (`export { auth as middleware }`): it keeps the session alive and
 * applies `callbacks.authorized` — true lets the request through, false or nothing sends the visitor
 * to sign in with the full URL to come back to, a Response answers instead — and it never guards
 * the library's own routes or the sign-in page, so a denial cannot loop.
 */
import { NextRequest, NextResponse } from "next/server.js";
import { describe, expect, it, vi } from "vitest";
import AppAuth, { type AppAuthConfig } from "../../../integrations/next/index.js";
import { appConfig, Browser, ORIGIN, SESSION_COOKIE, signedIn } from "./fixtures.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

type Authorized = NonNullable<NonNullable<AppAuthConfig["callbacks"]>["authorized"]>;

/** Middleware for a config whose `authorized` callback is `authorized`. */
function middlewareWith(authorized: Authorized | undefined, overrides: Partial<AppAuthConfig> = {}) {
  const config = appConfig({ ...overrides, callbacks: { ...overrides.callbacks, ...(authorized ? { authorized } : {}) } });
  return { config, middleware: AppAuth(config).auth };
}

function passedThrough(response: Response): boolean {
  return response.headers.get("x-middleware-next") === "1";
}

function redirectTarget(response: Response): URL {
  expect([302, 303, 307, 308]).toContain(response.status);
  return new URL(response.headers.get("location")!, ORIGIN);
}

const signedInOnly: Authorized = ({ auth }) => Boolean(auth?.user);

describe("auth as middleware: the authorized callback", () => {
  it("lets a request through when authorized returns true", async () => {
    const { middleware } = middlewareWith(() => true);
    expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}/dashboard`)))).toBe(true);
  });

  it("sends a denied visitor to the sign-in page with callbackUrl set to the full URL asked for", async () => {
    const { middleware } = middlewareWith(() => false);
    const target = redirectTarget(await middleware(new NextRequest(`${ORIGIN}/dashboard/reports?year=2026#top`)));
    expect(target.pathname).toBe("/api/auth/signin");
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard/reports?year=2026`);
  });

  it("treats a callback that returns nothing as a denial", async () => {
    const { middleware } = middlewareWith(() => undefined);
    expect(redirectTarget(await middleware(new NextRequest(`${ORIGIN}/dashboard`))).pathname).toBe("/api/auth/signin");
  });

  it("answers with the callback's own Response when it returns one", async () => {
    const { middleware } = middlewareWith(() => NextResponse.json({ error: "Unauthorized" }, { status: 401 }));
    const response = await middleware(new NextRequest(`${ORIGIN}/api/reports`));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Unauthorized" });
  });

  it("passes the session and the request to the callback", async () => {
    const seen: Array<{ auth: unknown; path: string }> = [];
    const config = appConfig({
      callbacks: {
        authorized({ auth, request }) {
          seen.push({ auth, path: request.nextUrl.pathname });
          return true;
        },
      },
    });
    const app = AppAuth(config);
    const browser = new Browser();
    await browser.signIn(app);
    await app.auth(browser.request("/dashboard"));
    expect(seen).toEqual([{ auth: expect.objectContaining({ user: expect.objectContaining({ name: "Ada Lovelace" }) }), path: "/dashboard" }]);
  });

  it("lets a signed-in person through and turns a visitor away with the same callback", async () => {
    const { app, browser } = await signedIn(appConfig({ callbacks: { authorized: signedInOnly } }));
    expect(passedThrough(await app.auth(browser.request("/dashboard")))).toBe(true);
    expect(redirectTarget(await app.auth(new Browser().request("/dashboard"))).pathname).toBe("/api/auth/signin");
  });

  it("lets everything through when no authorized callback is configured (it only keeps the session alive)", async () => {
    const { middleware } = middlewareWith(undefined);
    expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}/dashboard`)))).toBe(true);
  });

  it("denies when the callback throws", async () => {
    const { middleware, config } = middlewareWith(() => {
      throw new Error("database down");
    });
    expect(redirectTarget(await middleware(new NextRequest(`${ORIGIN}/dashboard`))).pathname).toBe("/api/auth/signin");
    expect((config.logger as { codes(level: string): string[] }).codes("error")).toContain("AuthorizedCallbackError");
  });
});

describe("auth as middleware: no redirect loop", () => {
  it("never guards the library's routes, the built-in sign-in page included", async () => {
    const authorized = vi.fn(() => false);
    const { middleware } = middlewareWith(authorized);
    for (const path of ["/api/auth/signin", "/api/auth/signin?callbackUrl=%2Fx", "/api/auth/session", "/api/auth/callback/credentials"]) {
      expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}${path}`))), path).toBe(true);
    }
    expect(authorized).not.toHaveBeenCalled();
  });

  it("sends a denied visitor to pages.signIn, and never guards that page itself", async () => {
    const { middleware } = middlewareWith(() => false, { pages: { signIn: "/login", error: "/oops" } });
    const target = redirectTarget(await middleware(new NextRequest(`${ORIGIN}/dashboard`)));
    expect(target.pathname).toBe("/login");
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}/login?callbackUrl=%2Fdashboard`)))).toBe(true);
    expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}/oops?error=Configuration`)))).toBe(true);
  });

  it("follows a base path the config sets", async () => {
    const { middleware } = middlewareWith(() => false, { basePath: "/auth" });
    expect(redirectTarget(await middleware(new NextRequest(`${ORIGIN}/dashboard`))).pathname).toBe("/auth/signin");
    expect(passedThrough(await middleware(new NextRequest(`${ORIGIN}/auth/signin`)))).toBe(true);
  });
});

describe("auth as middleware: keeping the session alive", () => {
  it("forwards the re-issued session cookie on the response that lets the request through", async () => {
    const { app, browser } = await signedIn(appConfig({ session: { updateAge: 0 }, callbacks: { authorized: signedInOnly } }));
    const response = await app.auth(browser.request("/dashboard"));
    expect(passedThrough(response)).toBe(true);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).not.toBe(`${SESSION_COOKIE}=${browser.cookies.get(SESSION_COOKIE)}`);
  });

  it("does not re-issue the cookie on every request (only once per updateAge)", async () => {
    const { app, browser } = await signedIn(appConfig({ callbacks: { authorized: signedInOnly } }));
    const response = await app.auth(browser.request("/dashboard"));
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("clears a session cookie that no longer opens, on the redirect to sign in", async () => {
    const { middleware } = middlewareWith(signedInOnly);
    const browser = new Browser();
    browser.cookies.set(SESSION_COOKIE, "not-a-token");
    const response = await middleware(browser.request("/dashboard"));
    expect(redirectTarget(response).pathname).toBe("/api/auth/signin");
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(true);
  });
});
