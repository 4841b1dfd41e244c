/**
 * The credentials form of Auth.js's documentation (`credentials: { email: {}, password: {} }`, no
 * field typed) with one-time-code fields beside it: after a wrong password, none of what was typed
 * reaches a URL or a cookie, whichever way the refusal is answered (a redirect, a fetch client's
 * `{ url }`, an application's own sign-in page, the built-in page, the server-side `signIn`).
 */
import { describe, expect, it } from "vitest";
import { CredentialsSignin } from "../../../src/errors.js";
import Credentials from "../../../src/providers/credentials.js";
import { signInAction } from "../../../src/server/index.js";
import type { AuthConfig, User } from "../../../src/types.js";
import { BASE_URL, ORIGIN, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const TYPED = { email: "grace@example.test", password: "Tr0ub4dor&3 wrong", otp: "40913377", pin: "80417" };
const RIGHT_PASSWORD = "right";

class WrongOtp extends CredentialsSignin {
  override code = "wrong_otp";
}

/** Auth.js's documented form plus `otp` and `pin`: no field declares a type. */
function docsConfig(overrides: Partial<AuthConfig> = {}, authorize?: () => User | null): TestConfig {
  return testConfig({
    providers: [
      Credentials({
        credentials: { email: {}, password: {}, otp: {}, pin: {} },
        authorize: authorize ?? ((fields) => (fields.password === RIGHT_PASSWORD ? { id: "u1", email: String(fields.email) } : null)),
      }),
    ],
    ...overrides,
  });
}

/** Every place a typed value could show: the Location, the Set-Cookie lines, a JSON body. */
async function exposedBy(response: Response): Promise<string> {
  const body = (response.headers.get("content-type") ?? "").includes("json") ? await response.clone().text() : "";
  return [response.headers.get("location") ?? "", ...response.headers.getSetCookie(), body].join("\n");
}

function expectNoneTyped(text: string): void {
  for (const value of Object.values(TYPED)) {
    expect(text).not.toContain(value);
    expect(text).not.toContain(encodeURIComponent(value));
    expect(text).not.toContain(new URLSearchParams({ v: value }).toString().slice(2));
  }
}

async function refuse(client: TestClient, headers: Record<string, string> = {}): Promise<Response> {
  const csrfToken = await client.csrf();
  return client.post("/callback/credentials", { ...TYPED, csrfToken, callbackUrl: "/after" }, { headers });
}

describe("a wrong password on Auth.js's documented credentials form with otp and pin fields", () => {
  it("redirects to the sign-in page with the error and code only, and sets no cookie carrying what was typed", async () => {
    const response = await refuse(new TestClient(docsConfig()));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${BASE_URL}/signin?error=CredentialsSignin&code=credentials`);
    expectNoneTyped(await exposedBy(response));
  });

  it("answers a fetch client with a { url } that carries nothing typed", async () => {
    const response = await refuse(new TestClient(docsConfig()), { "X-Auth-Return-Redirect": "1" });
    expect(await response.clone().json()).toEqual({ url: `${BASE_URL}/signin?error=CredentialsSignin&code=credentials` });
    expectNoneTyped(await exposedBy(response));
  });

  it("sends an application's own sign-in page the error and code only", async () => {
    const response = await refuse(new TestClient(docsConfig({ pages: { signIn: "/login" } })));
    expect(response.headers.get("location")).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`);
    expectNoneTyped(await exposedBy(response));
  });

  it("shows the built-in page with every field empty: no value typed comes back, not even the untyped email", async () => {
    const client = new TestClient(docsConfig());
    const refused = await refuse(client);
    const page = await client.get(refused.headers.get("location")!);
    const html = await page.text();
    expect(html).toContain("Sign in failed. Check the details you provided are correct.");
    expect(html).not.toMatch(/<input class="input"[^>]* value=/);
    expectNoneTyped(html);
    expectNoneTyped(await exposedBy(page));
  });

  it("keeps an application's short code, in the URL and on the page", async () => {
    const client = new TestClient(
      docsConfig({}, () => {
        throw new WrongOtp();
      }),
    );
    const refused = await refuse(client);
    expect(refused.headers.get("location")).toBe(`${BASE_URL}/signin?error=CredentialsSignin&code=wrong_otp`);
    expect(await (await client.get(refused.headers.get("location")!)).text()).toContain("Code: wrong_otp");
  });

  it("is still reported by the server-side signIn, as CredentialsSignin with its code", async () => {
    const config = docsConfig({}, () => {
      throw new WrongOtp();
    });
    const request = new Request(`${ORIGIN}/account`, { headers: { cookie: "" } });
    const refused = signInAction(request, config, { provider: "credentials", fields: TYPED, redirectTo: "/after" });
    await expect(refused).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(refused).rejects.toMatchObject({ code: "wrong_otp" });
    const plain = signInAction(request, docsConfig(), { provider: "credentials", fields: TYPED });
    await expect(plain).rejects.toMatchObject({ type: "CredentialsSignin", code: "credentials" });
    expectNoneTyped(config.logger.entries.map((entry) => JSON.stringify(entry.message, (_, v: unknown) => (v instanceof Error ? `${v.message}` : v))).join("\n"));
  });
});

describe("an account field the form declares as an email", () => {
  const typedConfig = () =>
    testConfig({
      providers: [
        Credentials({
          credentials: { email: { type: "email" }, password: { type: "password" }, otp: { type: "text" } },
          authorize: () => null,
        }),
      ],
    });

  it("comes back on the built-in page from an encrypted, HttpOnly, short-lived cookie scoped to the auth routes, never the URL", async () => {
    const client = new TestClient(typedConfig());
    const refused = await refuse(client);
    expectNoneTyped(await exposedBy(refused));
    const hint = client.lastSetCookies.find((cookie) => cookie.name === "appauth.page-hint");
    expect(hint).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/auth", maxAge: 300 });
    const html = await (await client.get(refused.headers.get("location")!)).text();
    expect(html).toContain(`value="${TYPED.email}"`);
    expect(html).not.toContain(TYPED.otp);
    // Read once: the page clears it.
    expect(client.cookie("appauth.page-hint")).toBeUndefined();
  });

  it("is Secure and __Secure- prefixed on https", async () => {
    const client = new TestClient(typedConfig(), "https://app.example/auth");
    await refuse(client);
    expect(client.lastSetCookies.find((cookie) => cookie.name === "__Secure-appauth.page-hint")).toMatchObject({ secure: true, httpOnly: true });
  });

  it("is not written for an application's own sign-in page, which could not read it", async () => {
    const client = new TestClient({ ...typedConfig(), pages: { signIn: "/login" } });
    await refuse(client);
    expect(client.lastSetCookies.map((cookie) => cookie.name)).not.toContain("appauth.page-hint");
  });
});

describe("the sign-in page's code parameter", () => {
  it("is not forwarded to an application's page, nor any other query value, unless it is a short identifier", async () => {
    const client = new TestClient(docsConfig({ pages: { signIn: "/login" } }));
    const spoof = await client.get(`/signin?error=CredentialsSignin&code=${encodeURIComponent("Call 555-0100 now")}&email=${TYPED.email}`);
    expect(spoof.headers.get("location")).toBe(`${ORIGIN}/login?callbackUrl=${encodeURIComponent(`${ORIGIN}/`)}&error=CredentialsSignin`);
    const own = await client.get("/signin?error=CredentialsSignin&code=wrong_otp");
    expect(new URL(own.headers.get("location")!).searchParams.get("code")).toBe("wrong_otp");
  });
});
