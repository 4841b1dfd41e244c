import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Auth } from "../../../src/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { resolveRuntime } from "../../../src/handler.js";
import { decode } from "../../../src/jwt/index.js";
import type { AuthConfig, CredentialsConfig, Session } from "../../../src/types.js";
import {
  ADA,
  ADA_PASSWORD,
  ADA_USERNAME,
  BASE_URL,
  passwordProvider,
  SECRET,
  SESSION_COOKIE,
  testConfig,
} from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

const T0 = Date.UTC(2031, 5, 1, 8, 0, 0);

describe("defaults", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("serve the routes under /auth when basePath is unset", async () => {
    const config = testConfig();
    expect((await new TestClient(config, "http://localhost:3000/auth").get("/providers")).status).toBe(200);
    expect((await new TestClient(config, "http://localhost:3000/api/auth").get("/providers")).status).toBe(400);
  });

  it("serve the routes under a configured basePath instead", async () => {
    const config = testConfig({ basePath: "/api/auth" });
    const client = new TestClient(config, "http://localhost:3000/api/auth");
    const providers = (await (await client.get("/providers")).json()) as Record<string, { signinUrl: string }>;
    expect(providers.credentials?.signinUrl).toBe("http://localhost:3000/api/auth/signin/credentials");
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await client.session()).not.toBeNull();
    expect((await new TestClient(config).get("/providers")).status).toBe(400);
  });

  it("resolve to the documented values: jwt strategy, maxAge 2592000, updateAge 86400", () => {
    const rt = getRuntime({ providers: [passwordProvider()], secret: SECRET }, {});
    expect(rt.basePath).toBe("/auth");
    expect(rt.session).toMatchObject({ strategy: "jwt", maxAge: 2_592_000, updateAge: 86_400 });
    expect(rt.jwt.maxAge).toBe(2_592_000);
    expect(rt.useSecureCookies).toBeUndefined();
    expect(rt.skipCSRFCheck).toBe(false);
    expect(rt.trustHost).toBe(true);
    expect(rt.theme.colorScheme).toBe("auto");
    expect(rt.pages).toEqual({});
    expect(rt.events).toEqual({});
    expect(rt.session.generateSessionToken()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keep a session for 30 days and re-issue it at most once a day", async () => {
    const client = new TestClient(testConfig());
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(setCookieNamed(response, SESSION_COOKIE)?.expires?.getTime()).toBe(T0 + 2_592_000_000);

    vi.setSystemTime(T0 + 86_399_000);
    expect(setCookieNamed(await client.get("/session"), SESSION_COOKIE)).toBeUndefined();
    vi.setSystemTime(T0 + 86_400_000);
    expect(setCookieNamed(await client.get("/session"), SESSION_COOKIE)).toBeDefined();
  });

  it("store the session as an encrypted JWT in the cookie (the jwt strategy)", async () => {
    const client = new TestClient(testConfig());
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const value = client.cookie(SESSION_COOKIE)!;
    expect(value.split(".")).toHaveLength(5);
    expect(value).not.toContain(Buffer.from(ADA.email).toString("base64url").slice(0, 10));
    expect(await decode({ token: value, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ADA.email });
  });

  it("keep the jwt strategy when it is forced alongside an adapter", async () => {
    const client = new TestClient(testConfig({ adapter: {}, session: { strategy: "jwt" } }));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(((await client.session()) as Session).user?.email).toBe(ADA.email);
  });
});

describe("the lazy form (a function of the request)", () => {
  it("is called with the request, and its config serves it", async () => {
    const config = testConfig();
    const seen: Array<Request | undefined> = [];
    const lazy = (request: Request | undefined): AuthConfig => {
      seen.push(request);
      return config;
    };
    const request = new Request(`${BASE_URL}/providers`);
    const response = await Auth(request, lazy);
    expect(response.status).toBe(200);
    expect(seen).toEqual([request]);
  });

  it("may return a promise", async () => {
    const config = testConfig();
    const client = new TestClient(async () => config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("lets the configuration vary by request, e.g. different providers per tenant", async () => {
    const tenants: Record<string, AuthConfig> = {
      a: testConfig({ providers: [passwordProvider({ id: "a-password", name: "Tenant A" })] }),
      b: testConfig({ providers: [passwordProvider({ id: "b-password", name: "Tenant B" })] }),
    };
    const lazy = (request: Request | undefined) => tenants[request?.headers.get("x-tenant") ?? "a"]!;
    const client = new TestClient(lazy);
    const a = await (await client.get("/providers", { headers: { "x-tenant": "a" } })).json();
    const b = await (await client.get("/providers", { headers: { "x-tenant": "b" } })).json();
    expect(Object.keys(a as object)).toEqual(["a-password"]);
    expect(Object.keys(b as object)).toEqual(["b-password"]);
  });

  it("is called without a request when there is none, and must cope with that", async () => {
    const lazy = vi.fn((request: Request | undefined) => testConfig({ basePath: request ? "/auth" : "/fallback" }));
    const rt = await resolveRuntime(undefined, lazy);
    expect(lazy).toHaveBeenCalledWith(undefined);
    expect(rt.basePath).toBe("/fallback");
  });

  it("answers 500 Configuration, without detail, when the function throws", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await new TestClient(() => {
        throw new Error("tenant lookup failed: secret=abc");
      }).get("/session");
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: "Configuration" });
      expect(text).not.toContain("tenant lookup failed");
      expect(errors).toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});

describe("providers", () => {
  /** A provider factory, as provider packages export them. */
  function Password(overrides: Partial<CredentialsConfig> = {}): CredentialsConfig {
    return passwordProvider({ id: "password", name: "Password", ...overrides });
  }

  it("may be listed bare, as the factory itself", async () => {
    const client = new TestClient(testConfig({ providers: [Password] }));
    const providers = (await (await client.get("/providers")).json()) as Record<string, unknown>;
    expect(providers).toEqual({ password: expect.objectContaining({ id: "password", name: "Password", type: "credentials" }) });
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { providerId: "password" });
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
  });

  it("may be called with overrides", async () => {
    const client = new TestClient(testConfig({ providers: [Password({ id: "pin", name: "PIN" })] }));
    const providers = (await (await client.get("/providers")).json()) as Record<string, unknown>;
    expect(providers).toEqual({ pin: expect.objectContaining({ id: "pin", name: "PIN" }) });
    expect((await client.signIn(ADA_USERNAME, ADA_PASSWORD, { providerId: "pin" })).headers.get("location")).toBe(
      "http://localhost:3000/",
    );
    expect((await client.signIn(ADA_USERNAME, ADA_PASSWORD, { providerId: "password" })).status).toBe(404);
  });

  it("take the overrides in their options over the factory's defaults", async () => {
    const base = passwordProvider();
    const provider = { ...base, options: { ...base.options, name: "Company login" } } as CredentialsConfig;
    const providers = (await (await new TestClient(testConfig({ providers: [provider] })).get("/providers")).json()) as Record<
      string,
      { name: string }
    >;
    expect(providers.credentials?.name).toBe("Company login");
  });

  it("may be several of the same type under different ids", async () => {
    const config = testConfig({
      providers: [Password, Password({ id: "admin", authorize: () => ({ id: "root", name: "Root" }) })],
    });
    const client = new TestClient(config);
    await client.signIn("anyone", "anything", { providerId: "admin" });
    expect(await client.session()).toMatchObject({ user: { name: "Root" } });
  });
});
