/**
 * `appauth/next/middleware`: the middleware on its own. It answers as `auth` of `appauth/next` does
 * in its middleware forms — the same `authorized` decisions, the same kept-alive cookie — resolves a
 * lazy config once per request, and, holding no token refresh, reads a session whose access token is
 * due as `RefreshTokenUnavailable` without calling the provider.
 */
import { NextRequest, NextResponse } from "next/server.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import AppAuthMiddleware from "../../../integrations/next/middleware.js";
import { encode } from "../../../src/jwt/index.js";
import type { AppAuthConfig } from "../../../integrations/next/index.js";
import { SECRET } from "../../helpers/config.js";
import { appConfig, Browser, ORIGIN, SESSION_COOKIE, signedIn } from "./fixtures.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

const signedInOnly = ({ auth }: { auth: { user?: unknown } | null }) => Boolean(auth?.user);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("appauth/next/middleware", () => {
  it("lets a signed-in person through and sends a visitor to sign in, as auth of appauth/next does", async () => {
    const config = appConfig({ callbacks: { authorized: signedInOnly } });
    const { app, browser } = await signedIn(config);
    const { auth } = AppAuthMiddleware(config);
    for (const middleware of [auth, app.auth]) {
      expect((await middleware(browser.request("/dashboard"))).headers.get("x-middleware-next")).toBe("1");
      const denied = await middleware(new NextRequest(`${ORIGIN}/dashboard?tab=1`));
      expect(denied.status).toBe(307);
      expect(new URL(denied.headers.get("location")!).searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard?tab=1`);
    }
  });

  it("forwards the re-issued session cookie on the response that lets the request through", async () => {
    const config = appConfig({ session: { updateAge: 0 }, callbacks: { authorized: signedInOnly } });
    const { browser } = await signedIn(config);
    const response = await AppAuthMiddleware(config).auth(browser.request("/dashboard"));
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/);
  });

  it("wraps a handler: request.auth holds the session, and a handler's own response is kept", async () => {
    const config = appConfig();
    const { browser } = await signedIn(config);
    const handler = AppAuthMiddleware(config).auth((request) => NextResponse.json({ name: request.auth?.user?.name ?? null }));
    expect(await (await handler(browser.request("/api/me"), undefined)).json()).toEqual({ name: "Ada Lovelace" });
    expect(await (await handler(new NextRequest(`${ORIGIN}/api/me`), undefined)).json()).toEqual({ name: null });
  });

  it("calls a lazy config once per request, with the request", async () => {
    const config = appConfig({ callbacks: { authorized: signedInOnly } });
    const { browser } = await signedIn(config);
    const lazy = vi.fn((_request: NextRequest | undefined): AppAuthConfig => config);
    const request = browser.request("/dashboard");
    const response = await AppAuthMiddleware(lazy).auth(request);
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(lazy).toHaveBeenCalledOnce();
    expect(lazy.mock.calls[0]![0]?.url).toBe(request.url);
  });

  it("lets nothing through when the configuration cannot be resolved", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await AppAuthMiddleware(() => {
      throw new Error("secrets manager unreachable");
    }).auth(new NextRequest(`${ORIGIN}/dashboard`));
    expect(response.status).toBe(500);
    expect(response.headers.get("x-middleware-next")).toBeNull();
  });

  it("does not refresh a due access token: the session reads as RefreshTokenUnavailable, and the provider is not called", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const now = Math.floor(Date.now() / 1000);
    const provider = { id: "op", name: "OP", type: "oidc" as const, issuer: "https://op.example", clientId: "app", clientSecret: "s3cret" };
    const seen: unknown[] = [];
    const config = appConfig({
      providers: [provider],
      callbacks: {
        authorized: ({ auth }) => {
          seen.push(auth);
          return true;
        },
      },
    });
    const token = await encode({
      secret: SECRET,
      salt: SESSION_COOKIE,
      token: {
        sub: "user-ada",
        name: "Ada Lovelace",
        iat: now,
        account: { provider: "op", providerAccountId: "ada", type: "oidc", access_token: "old", refresh_token: "r1", expires_at: now - 10 },
      },
    });
    const browser = new Browser();
    browser.cookies.set(SESSION_COOKIE, token);
    const response = await AppAuthMiddleware(config).auth(browser.request("/dashboard"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(seen).toEqual([expect.objectContaining({ user: expect.objectContaining({ name: "Ada Lovelace" }), error: "RefreshTokenUnavailable" })]);
    // Not kept in the token: the route handler or auth() refreshes it on a later read.
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("refuses an argument that is neither a request nor a handler", async () => {
    await expect((AppAuthMiddleware(appConfig()).auth as (x: unknown) => Promise<Response>)(42)).rejects.toThrow(TypeError);
    expect(() => AppAuthMiddleware(null as never)).toThrow(TypeError);
  });
});
