import { describe, expect, it } from "vitest";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { setCookiesOf, type ParsedSetCookie } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

/** Every cookie a sign-in journey sets: the sign-in page (CSRF, callback URL) and the sign-in (session). */
async function journeyCookies(client: TestClient): Promise<ParsedSetCookie[]> {
  const page = await client.get("/signin?callbackUrl=%2Fhome");
  const cookies = setCookiesOf(page);
  const signedIn = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  return [...cookies, ...setCookiesOf(signedIn)];
}

function byName(cookies: ParsedSetCookie[]): Map<string, ParsedSetCookie> {
  return new Map(cookies.map((c) => [c.name, c]));
}

describe("secure cookies", () => {
  it("are used on an https URL: __Secure- names (__Host- for CSRF) and the Secure attribute", async () => {
    const client = new TestClient(testConfig(), "https://app.example/auth");
    const cookies = byName(await journeyCookies(client));
    expect([...cookies.keys()].sort()).toEqual(["__Host-appauth.csrf-token", "__Secure-appauth.callback-url", "__Secure-appauth.device", "__Secure-appauth.session-token"]);
    for (const cookie of cookies.values()) {
      expect(cookie, cookie.name).toMatchObject({ secure: true, httpOnly: true, path: "/", sameSite: "Lax" });
    }
    // A __Host- cookie must have no Domain and Path=/ for browsers to accept it.
    expect(cookies.get("__Host-appauth.csrf-token")?.domain).toBeUndefined();
    expect(await client.session()).not.toBeNull();
  });

  it("are used on http when useSecureCookies: true", async () => {
    const client = new TestClient(testConfig({ useSecureCookies: true }));
    const cookies = byName(await journeyCookies(client));
    expect([...cookies.keys()].sort()).toEqual(["__Host-appauth.csrf-token", "__Secure-appauth.callback-url", "__Secure-appauth.device", "__Secure-appauth.session-token"]);
    expect([...cookies.values()].every((c) => c.secure)).toBe(true);
  });

  it("are not used on http by default: plain names, no Secure attribute", async () => {
    const cookies = byName(await journeyCookies(new TestClient(testConfig())));
    expect([...cookies.keys()].sort()).toEqual(["appauth.callback-url", "appauth.csrf-token", "appauth.device", "appauth.session-token"]);
    expect([...cookies.values()].some((c) => c.secure)).toBe(false);
  });

  it("are turned off on https with useSecureCookies: false", async () => {
    const cookies = byName(await journeyCookies(new TestClient(testConfig({ useSecureCookies: false }), "https://app.example/auth")));
    expect([...cookies.keys()].sort()).toEqual(["appauth.callback-url", "appauth.csrf-token", "appauth.device", "appauth.session-token"]);
  });

  it("follow X-Forwarded-Proto behind a trusted proxy", async () => {
    const client = new TestClient(testConfig());
    const response = await client.get("/csrf", { headers: { "x-forwarded-proto": "https" } });
    expect(setCookiesOf(response).map((c) => c.name)).toEqual(["__Host-appauth.csrf-token"]);
  });

  it("are not read under the plain name: a cookie planted without the prefix is ignored on https", async () => {
    const plain = new TestClient(testConfig());
    await plain.signIn(ADA_USERNAME, ADA_PASSWORD);
    const secure = new TestClient(testConfig(), "https://app.example/auth");
    secure.setCookie("appauth.session-token", plain.cookie("appauth.session-token")!);
    expect(await secure.session()).toBeNull();
  });

  it("clear the secure session cookie on sign-out", async () => {
    const client = new TestClient(testConfig(), "https://app.example/auth");
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const response = await client.signOut();
    const cleared = setCookiesOf(response).find((c) => c.name === "__Secure-appauth.session-token");
    expect(cleared).toMatchObject({ maxAge: 0, secure: true });
    expect(await client.session()).toBeNull();
  });

  it("can be renamed through the cookies option", async () => {
    const config = testConfig({ cookies: { sessionToken: { name: "my-app.session" } } });
    const client = new TestClient(config);
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(setCookiesOf(response).map((c) => c.name)).toContain("my-app.session");
    expect(await client.session()).not.toBeNull();
  });
});
