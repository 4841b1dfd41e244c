import { describe, expect, it, vi } from "vitest";
import { CredentialsSignin } from "../../../src/index.js";
import { decode } from "../../../src/jwt/index.js";
import type { Account, JWT, User } from "../../../src/types.js";
import {
  ADA,
  ADA_PASSWORD,
  ADA_USERNAME,
  BASE_URL,
  ORIGIN,
  passwordProvider,
  SECRET,
  SESSION_COOKIE,
  testConfig,
} from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

class AccountLocked extends CredentialsSignin {
  override code = "locked";
}

function location(response: Response): URL {
  const value = response.headers.get("location");
  if (!value) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(value);
}

describe("signing in with credentials", () => {
  it("sets the session cookie and redirects to the callbackUrl", async () => {
    const client = new TestClient(testConfig());
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard?tab=1" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard?tab=1`);
    const cookie = setCookieNamed(response, SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax", secure: false });
    const token = await decode({ token: cookie!.value, secret: SECRET, salt: SESSION_COOKIE });
    expect(token).toMatchObject({ sub: ADA.id, name: ADA.name, email: ADA.email, picture: ADA.image });
    expect(await client.session()).toMatchObject({ user: { name: ADA.name, email: ADA.email } });
  });

  it("redirects to the origin when no callbackUrl was given", async () => {
    const response = await new TestClient(testConfig()).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("uses the callback URL the sign-in page remembered in its cookie", async () => {
    const client = new TestClient(testConfig());
    await client.get("/signin?callbackUrl=%2Fafter-login");
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/after-login`);
  });

  it("passes the submitted fields, without csrfToken and callbackUrl, and the request to authorize", async () => {
    const authorize = vi.fn((_credentials: Record<string, unknown>, _request: Request): User | null => ({ ...ADA }));
    const client = new TestClient(testConfig({ providers: [passwordProvider({ authorize })] }));
    await client.signIn("ada", "pw", { callbackUrl: "/x", fields: { otp: "123456" } });
    expect(authorize).toHaveBeenCalledOnce();
    const [credentials, request] = authorize.mock.calls[0]!;
    expect(credentials).toEqual({ username: "ada", password: "pw", otp: "123456" });
    expect(request).toBeInstanceOf(Request);
    expect(request.url).toBe(`${BASE_URL}/callback/credentials`);
  });

  it("sends a refused sign-in (authorize returns null) back to the sign-in page with error and code=credentials only, nothing typed, without a session", async () => {
    const client = new TestClient(testConfig());
    const response = await client.signIn(ADA_USERNAME, "wrong password");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `${BASE_URL}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("puts the code of a custom CredentialsSignin subclass in the redirect", async () => {
    const config = testConfig({
      providers: [
        passwordProvider({
          authorize: () => {
            throw new AccountLocked();
          },
        }),
      ],
    });
    const response = await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD);
    const target = location(response);
    expect(target.pathname).toBe("/auth/signin");
    expect(target.searchParams.get("error")).toBe("CredentialsSignin");
    expect(target.searchParams.get("code")).toBe("locked");
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    // A refused password is the person's mistake: a warning, not an error.
    expect(config.logger.codes("warn")).toContain("CredentialsSignin");
    expect(config.logger.codes("error")).not.toContain("CredentialsSignin");
  });

  it("shows the sign-in page with the refusal, so the person can try again", async () => {
    const client = new TestClient(testConfig());
    const refused = await client.signIn(ADA_USERNAME, "nope");
    const page = await client.get(refused.headers.get("location")!);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/error|sign in/i);
  });

  it("reports an authorize that throws a plain Error as Configuration on the error page, and logs it in full", async () => {
    const boom = new Error("database is down: connection string postgres://user:hunter2@db");
    const config = testConfig({
      providers: [
        passwordProvider({
          authorize: () => {
            throw boom;
          },
        }),
      ],
    });
    const response = await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${BASE_URL}/error?error=Configuration`);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(response.headers.get("location")).not.toContain("hunter2");
    const logged = config.logger.entries.find((e) => e.level === "error");
    expect(JSON.stringify(logged?.message, (_k, v: unknown) => (v instanceof Error ? { m: v.message, c: v.cause } : v))).toContain(
      "hunter2",
    );
  });

  it("answers a valid sign-in with 200 { url } instead of a 302 when asked with X-Auth-Return-Redirect: 1", async () => {
    const client = new TestClient(testConfig());
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, {
      callbackUrl: "/home",
      headers: { "X-Auth-Return-Redirect": "1" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.json()).toEqual({ url: `${ORIGIN}/home` });
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
  });

  it("answers a refused sign-in with 200 { url } of the sign-in page when asked with X-Auth-Return-Redirect: 1", async () => {
    const response = await new TestClient(testConfig()).signIn(ADA_USERNAME, "wrong", {
      headers: { "X-Auth-Return-Redirect": "1" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      url: `${BASE_URL}/signin?error=CredentialsSignin&code=credentials`,
    });
  });

  it("reads credentials posted as JSON as well as form fields", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    const response = await client.postJson("/callback/credentials", {
      csrfToken,
      username: ADA_USERNAME,
      password: ADA_PASSWORD,
      callbackUrl: "/json",
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/json`);
    expect(client.cookie(SESSION_COOKIE)).toBeDefined();
  });

  it("sends a POST to /signin/:credentials back to the sign-in page, where the form is", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    const response = await client.post("/signin/credentials", { csrfToken });
    expect(response.headers.get("location")).toBe(`${BASE_URL}/signin`);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("the signIn callback", () => {
  it("receives the user, the credentials account and the submitted credentials", async () => {
    const signIn = vi.fn(() => true);
    await new TestClient(testConfig({ callbacks: { signIn } })).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(signIn).toHaveBeenCalledWith({
      user: ADA,
      account: { provider: "credentials", providerAccountId: ADA.id, type: "credentials" },
      credentials: { username: ADA_USERNAME, password: ADA_PASSWORD },
    });
  });

  it("stops the sign-in when it returns false: error page AccessDenied, no session", async () => {
    const client = new TestClient(testConfig({ callbacks: { signIn: () => false } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${BASE_URL}/error?error=AccessDenied`);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("sends the refusal to pages.error when the application has its own error page", async () => {
    const config = testConfig({ callbacks: { signIn: () => false }, pages: { error: "/oops" } });
    const response = await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=AccessDenied`);
  });

  it("redirects to the URL it returns and creates no session", async () => {
    const client = new TestClient(testConfig({ callbacks: { signIn: () => "/onboarding/finish-profile" } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/onboarding/finish-profile`);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("turns an error it throws into AccessDenied, with no session and the original error logged", async () => {
    const config = testConfig({
      callbacks: {
        signIn: () => {
          throw new Error("user is banned");
        },
      },
    });
    const client = new TestClient(config);
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${BASE_URL}/error?error=AccessDenied`);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    const logged = config.logger.entries.find((e) => e.code === "AccessDenied");
    expect((logged?.message[0] as Error).message).toBe("user is banned");
  });
});

describe("the jwt callback at sign-in", () => {
  it("sees trigger signIn with the user and the account, and what it returns is the session token", async () => {
    const calls: Array<{ token: JWT; user?: User; account?: Account | null; trigger?: string }> = [];
    const config = testConfig({
      callbacks: {
        jwt: (params) => {
          calls.push(structuredClone(params));
          return params.trigger === "signIn" ? { ...params.token, role: "admin" } : params.token;
        },
      },
    });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(calls[0]).toMatchObject({
      trigger: "signIn",
      user: ADA,
      account: { provider: "credentials", providerAccountId: ADA.id, type: "credentials" },
      token: { name: ADA.name, email: ADA.email, picture: ADA.image, sub: ADA.id },
    });
    const token = await decode({ token: client.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
    expect(token?.role).toBe("admin");
  });

  it("refuses the session when it returns null: AccessDenied, no cookie", async () => {
    const client = new TestClient(testConfig({ callbacks: { jwt: () => null } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.headers.get("location")).toBe(`${BASE_URL}/error?error=AccessDenied`);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
  });
});

describe("the signIn event", () => {
  it("is called with the user, the account and isNewUser of a successful sign-in", async () => {
    const signIn = vi.fn();
    await new TestClient(testConfig({ events: { signIn } })).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(signIn).toHaveBeenCalledOnce();
    expect(signIn).toHaveBeenCalledWith({
      user: ADA,
      account: { provider: "credentials", providerAccountId: ADA.id, type: "credentials" },
      isNewUser: false,
    });
  });

  it("is not called for a refused sign-in", async () => {
    const signIn = vi.fn();
    await new TestClient(testConfig({ events: { signIn } })).signIn(ADA_USERNAME, "wrong");
    expect(signIn).not.toHaveBeenCalled();
  });

  it("does not break the sign-in when its handler throws: the error is logged", async () => {
    const config = testConfig({
      events: {
        signIn: () => {
          throw new Error("audit log unavailable");
        },
      },
    });
    const client = new TestClient(config);
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/in" });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/in`);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    expect(config.logger.codes("error")).toContain("EventError");
  });

  it("does not break the sign-in when its handler rejects", async () => {
    const config = testConfig({ events: { signIn: () => Promise.reject(new Error("later")) } });
    const client = new TestClient(config);
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.status).toBe(302);
    expect(client.cookie(SESSION_COOKIE)).toBeDefined();
    expect(config.logger.codes("error")).toContain("EventError");
  });
});
