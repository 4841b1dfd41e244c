/**
 * `auth` in each of its forms — server components, pages-router API routes, getServerSideProps, a
 * wrapped route handler — reading the same session the app's own routes issued. Only
 * `next/headers` is replaced (there is no Next runtime here); NextRequest/NextResponse are Next's.
 */
import { NextRequest, NextResponse } from "next/server.js";
import { describe, expect, it, vi } from "vitest";
import AppAuth from "../../../integrations/next/index.js";
import { appConfig, Browser, nodeRequest, nodeResponse, ORIGIN, SESSION_COOKIE, signedIn } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

const ADA_SESSION = { user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://img.example/ada.png" } };

describe("auth() with no argument (server components, server actions, route handlers)", () => {
  it("returns the session of the request's cookies", async () => {
    const { app, browser } = await signedIn();
    const scope = new RequestScope({ cookies: browser.record(), canSetCookies: false });
    const session = await inRequest(scope, () => app.auth());
    expect(session).toMatchObject(ADA_SESSION);
    expect(Date.parse(session!.expires)).toBeGreaterThan(Date.now());
  });

  it("returns null for a visitor without a session cookie", async () => {
    const app = AppAuth(appConfig());
    expect(await inRequest(new RequestScope(), () => app.auth())).toBeNull();
  });

  it("returns null outside a request (a script, the build), instead of throwing", async () => {
    const app = AppAuth(appConfig());
    expect(await app.auth()).toBeNull();
  });

  it("writes a refreshed session cookie through Next's cookie API where Next allows it", async () => {
    const { app, browser } = await signedIn(appConfig({ session: { updateAge: 0 } }));
    const scope = new RequestScope({ cookies: browser.record(), canSetCookies: true });
    expect(await inRequest(scope, () => app.auth())).toMatchObject(ADA_SESSION);
    const written = scope.written(SESSION_COOKIE);
    expect(written?.value).toMatch(/^ey/);
    expect(written?.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" });
  });

  it("still returns the session in a server component, where cookies cannot be set", async () => {
    const { app, browser } = await signedIn(appConfig({ session: { updateAge: 0 } }));
    const scope = new RequestScope({ cookies: browser.record(), canSetCookies: false });
    expect(await inRequest(scope, () => app.auth())).toMatchObject(ADA_SESSION);
    expect(scope.writes).toEqual([]);
  });
});

describe("auth(req, res) in a pages-router API route and auth(context) in getServerSideProps", () => {
  it("reads the session from a Node request", async () => {
    const { app, browser } = await signedIn();
    const res = nodeResponse();
    expect(await app.auth(nodeRequest("/api/me", browser.header()), res)).toMatchObject(ADA_SESSION);
  });

  it("returns null for a Node request without a session", async () => {
    const app = AppAuth(appConfig());
    expect(await app.auth(nodeRequest("/api/me", ""), nodeResponse())).toBeNull();
  });

  it("appends a refreshed session cookie to the response, keeping the cookies the route already set", async () => {
    const { app, browser } = await signedIn(appConfig({ session: { updateAge: 0 } }));
    const res = nodeResponse();
    res.setHeader("set-cookie", ["theme=dark; Path=/"]);
    await app.auth(nodeRequest("/api/me", browser.header()), res);
    const cookies = res.setCookies();
    expect(cookies[0]).toBe("theme=dark; Path=/");
    expect(cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=ey`))).toBe(true);
  });

  it("reads the session from getServerSideProps' context", async () => {
    const { app, browser } = await signedIn();
    const context = { req: nodeRequest("/dashboard", browser.header()), res: nodeResponse(), query: {}, resolvedUrl: "/dashboard" };
    expect(await app.auth(context)).toMatchObject(ADA_SESSION);
  });
});

describe("auth(handler) around a route handler or middleware", () => {
  it("gives the handler the session as request.auth and returns its response", async () => {
    const { app, browser } = await signedIn();
    const handler = app.auth((request) => Response.json({ name: request.auth?.user?.name ?? null }));
    const response = await handler(browser.request("/api/whoami"), { params: Promise.resolve({}) });
    expect(await response.json()).toEqual({ name: "Ada Lovelace" });
  });

  it("gives request.auth = null to a visitor without a session", async () => {
    const app = AppAuth(appConfig());
    const seen: unknown[] = [];
    const handler = app.auth((request) => {
      seen.push(request.auth);
      return new Response("ok");
    });
    await handler(new Browser().request("/api/whoami"), undefined);
    expect(seen).toEqual([null]);
  });

  it("lets the request through when a wrapped middleware returns nothing", async () => {
    const app = AppAuth(appConfig());
    const middleware = app.auth(() => undefined);
    const response = await middleware(new Browser().request("/anything"), undefined);
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("adds a refreshed session cookie to the handler's response", async () => {
    const { app, browser } = await signedIn(appConfig({ session: { updateAge: 0 } }));
    const handler = app.auth(() => NextResponse.json({ ok: true }));
    const response = await handler(browser.request("/api/whoami"), undefined);
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=ey`))).toBe(true);
  });
});

describe("AppAuth(config)", () => {
  it("serves the library's routes under /api/auth by default", async () => {
    const app = AppAuth(appConfig());
    const response = await app.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/providers`));
    expect(Object.keys((await response.json()) as object)).toEqual(["credentials"]);
  });

  it("keeps a base path the config sets", async () => {
    const app = AppAuth(appConfig({ basePath: "/auth" }));
    expect((await app.handlers.GET(new NextRequest(`${ORIGIN}/auth/csrf`))).status).toBe(200);
    expect((await app.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`))).status).toBe(400);
  });

  it("calls a lazy config with the request as a NextRequest, and reads sessions with what it returns", async () => {
    const config = appConfig();
    const seen: unknown[] = [];
    const app = AppAuth((request) => {
      seen.push(request);
      return config;
    });
    const browser = new Browser();
    await browser.signIn(app);
    const session = await inRequest(new RequestScope({ cookies: browser.record() }), () => app.auth());
    expect(session).toMatchObject(ADA_SESSION);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((request) => request instanceof NextRequest)).toBe(true);
  });

  it("refuses a config that is neither an object nor a function, naming the argument", () => {
    expect(() => AppAuth(undefined as never)).toThrow(/config/);
    expect(() => AppAuth("secret" as never)).toThrow(TypeError);
  });
});
