import { describe, expect, it } from "vitest";
import { Auth } from "../../../src/index.js";
import { ADA, BASE_URL, CSRF_COOKIE, passwordProvider, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

describe("GET /providers", () => {
  it("lists every provider by id with its name, type and absolute sign-in and callback URLs", async () => {
    const config = testConfig({ providers: [passwordProvider(), passwordProvider({ id: "pin", name: "PIN code" })] });
    const response = await new TestClient(config).get("/providers");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${BASE_URL}/signin/credentials`,
        callbackUrl: `${BASE_URL}/callback/credentials`,
      },
      pin: {
        id: "pin",
        name: "PIN code",
        type: "credentials",
        signinUrl: `${BASE_URL}/signin/pin`,
        callbackUrl: `${BASE_URL}/callback/pin`,
      },
    });
  });

  it("keeps the provider's secrets (its authorize function, its form fields) out of the answer", async () => {
    const response = await new TestClient(testConfig()).get("/providers");
    const text = await response.text();
    expect(text).not.toContain("authorize");
    expect(text).not.toContain("password");
  });
});

describe("GET /csrf", () => {
  it("hands out a token and sets the cookie that vouches for it", async () => {
    const client = new TestClient(testConfig());
    const response = await client.get("/csrf");
    const { csrfToken } = (await response.json()) as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const cookie = setCookieNamed(response, CSRF_COOKIE);
    expect(cookie?.value.startsWith(`${csrfToken}|`)).toBe(true);
    expect(cookie).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax" });
  });

  it("returns the same token, and sets no new cookie, while its cookie is valid", async () => {
    const client = new TestClient(testConfig());
    const first = await client.csrf();
    const again = await client.get("/csrf");
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(first);
    expect(setCookieNamed(again, CSRF_COOKIE)).toBeUndefined();
    expect(await client.csrf()).toBe(first);
  });

  it("mints a new token for a browser that has none", async () => {
    const config = testConfig();
    const first = await new TestClient(config).csrf();
    const second = await new TestClient(config).csrf();
    expect(second).not.toBe(first);
  });
});

describe("GET /session", () => {
  it("answers null without a session cookie, and is never cached", async () => {
    const response = await new TestClient(testConfig()).get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
  });

  it("answers the session JSON with a session cookie, and is never cached", async () => {
    const client = new TestClient(testConfig());
    await client.signIn("ada", "correct horse battery staple");
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    const session = (await response.json()) as { user: unknown; expires: string };
    expect(session.user).toEqual({ name: ADA.name, email: ADA.email, image: ADA.image });
    expect(new Date(session.expires).getTime()).toBeGreaterThan(Date.now());
  });
});

describe("requests the library does not serve", () => {
  const unserved: Array<[method: string, path: string]> = [
    ["GET", "/nowhere"],
    ["GET", "/"],
    ["GET", ""],
    ["GET", "/session/extra"],
    ["GET", "/error/extra"],
    ["GET", "/signin/credentials/extra"],
    ["PUT", "/session"],
    ["DELETE", "/session"],
    ["PATCH", "/signout"],
    ["OPTIONS", "/providers"],
    ["POST", "/providers"],
    ["POST", "/csrf"],
    ["POST", "/error"],
    ["POST", "/verify-request"],
    ["POST", "/signin"],
    ["GET", "/callback/credentials"],
    ["GET", "/webauthn-options/credentials"],
  ];

  it.each(unserved)("%s %s gets a typed 4xx JSON answer, not a 5xx", async (method, path) => {
    const response = await new TestClient(testConfig()).request(method, path);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe("UnknownAction");
    expect(typeof body.message).toBe("string");
  });

  it("answers paths outside the base path with UnknownAction, even when the base path appears later in them", async () => {
    const client = new TestClient(testConfig());
    for (const url of [
      "http://localhost:3000/api/auth/session",
      "http://localhost:3000/authx/session",
      "http://localhost:3000/x/auth/session",
      "http://localhost:3000//evil.example/auth/session",
      "http://localhost:3000/\\evil.example/auth/session",
    ]) {
      const response = await client.get(url);
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as { error: string }).error, url).toBe("UnknownAction");
    }
  });

  it("answers /signin/:unknown and /callback/:unknown with 404 InvalidProvider, whatever the method", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    const attempts = [
      client.get("/signin/nope"),
      client.post("/signin/nope", { csrfToken }),
      client.get("/callback/nope"),
      client.post("/callback/nope", { csrfToken, username: "ada", password: "x" }),
      client.get("/signin/%E2%9C%93"),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: "InvalidProvider" });
      expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    }
  });

  it("serves HEAD like GET", async () => {
    const response = await Auth(new Request(`${BASE_URL}/session`, { method: "HEAD" }), testConfig());
    expect(response.status).toBe(200);
  });
});

describe("pages", () => {
  it("shows the built-in sign-in page with a CSRF token and the providers' forms", async () => {
    const client = new TestClient(testConfig());
    const response = await client.get("/signin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain(`action="${BASE_URL}/callback/credentials"`);
    expect(client.cookie(CSRF_COOKIE)).toBeDefined();
  });

  it("redirects /signin to pages.signIn when the application has its own page", async () => {
    const response = await new TestClient(testConfig({ pages: { signIn: "/login" } })).get("/signin?callbackUrl=%2Fdashboard");
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("callbackUrl")).toBe("http://localhost:3000/dashboard");
  });

  it("shows the error page with the status of the error it names", async () => {
    const client = new TestClient(testConfig());
    expect((await client.get("/error?error=AccessDenied")).status).toBe(403);
    expect((await client.get("/error?error=Verification")).status).toBe(403);
    // Shown from the query, Configuration is no fault of this request: 400, not 500.
    expect((await client.get("/error?error=Configuration")).status).toBe(400);
    expect((await client.get("/error?error=SomethingMadeUp")).status).toBe(400);
    expect((await client.get("/error")).status).toBe(400);
  });

  it("shows the verify-request page", async () => {
    const response = await new TestClient(testConfig()).get("/verify-request");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
  });
});

describe("the JSON routes' cache headers", () => {
  it("add Expires: 0 and Pragma: no-cache to Cache-Control, as Auth.js does, for caches that predate it", async () => {
    const client = new TestClient(testConfig());
    await client.signIn("ada", "correct horse battery staple");
    for (const path of ["/session", "/csrf", "/providers"]) {
      const response = await client.get(path);
      expect([path, response.headers.get("cache-control"), response.headers.get("expires"), response.headers.get("pragma")]).toEqual([
        path,
        "private, no-cache, no-store",
        "0",
        "no-cache",
      ]);
    }
    const redirect = await client.signOut();
    expect(redirect.status).toBe(302);
    const fetched = await client.post("/signout", { csrfToken: await client.csrf() }, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect([fetched.headers.get("expires"), fetched.headers.get("pragma")]).toEqual(["0", "no-cache"]);
  });
});
