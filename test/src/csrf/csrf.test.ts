import { describe, expect, it, vi } from "vitest";
import { skipCSRFCheck } from "../../../src/index.js";
import fc from "fast-check";
import { csrfHash, webCryptoHash } from "../../../src/csrf.js";
import {
  ADA_PASSWORD,
  ADA_USERNAME,
  BASE_URL,
  CSRF_COOKIE,
  SECRET,
  SESSION_COOKIE,
  testConfig,
} from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

const credentials = { username: ADA_USERNAME, password: ADA_PASSWORD };
const MISSING_CSRF = `${BASE_URL}/signin?error=MissingCSRF`;

// Node's hash (used where it exists) and Web Crypto's (edge runtimes) must agree, or a cookie minted
// by one runtime would not verify in the other.
describe("the CSRF hash", () => {
  it("is the same with Node's crypto as with Web Crypto, for any token and secret", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.string({ unit: "grapheme", maxLength: 40 }), async (token, secret) => {
        expect(await csrfHash(token, secret)).toBe(await webCryptoHash(token, secret));
      }),
      { numRuns: 300 },
    );
  });
});

/** A client with a session, and the CSRF cookie that came with it. */
async function signedInClient(config = testConfig()): Promise<TestClient> {
  const client = new TestClient(config);
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  expect(client.cookie(SESSION_COOKIE)).toBeDefined();
  return client;
}

describe("a POST without a valid CSRF token", () => {
  it("does not sign in when the token is missing", async () => {
    const client = new TestClient(testConfig());
    await client.csrf();
    const response = await client.post("/callback/credentials", credentials);
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
  });

  it("does not sign in when the browser has no CSRF cookie at all", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    client.deleteCookie(CSRF_COOKIE);
    const response = await client.post("/callback/credentials", { ...credentials, csrfToken });
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
  });

  it("does not sign in when the token does not match the cookie", async () => {
    const config = testConfig();
    const client = new TestClient(config);
    await client.csrf();
    const otherToken = await new TestClient(config).csrf();
    const response = await client.post("/callback/credentials", { ...credentials, csrfToken: otherToken });
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it("does not sign in when the cookie's hash was forged by someone who does not know the secret", async () => {
    const client = new TestClient(testConfig());
    const token = "a".repeat(64);
    for (const forged of [
      `${token}|${"0".repeat(64)}`,
      `${token}|${await csrfHash(token, "a guessed secret")}`,
      `${token}|`,
      token,
      `|${await csrfHash("", SECRET)}`,
    ]) {
      client.setCookie(CSRF_COOKIE, encodeURIComponent(forged));
      const response = await client.post("/callback/credentials", { ...credentials, csrfToken: token });
      expect(response.headers.get("location"), forged).toBe(MISSING_CSRF);
      expect(client.cookie(SESSION_COOKIE), forged).toBeUndefined();
    }
  });

  it("does not sign in when the token is sent as something other than a string", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    const response = await client.postJson("/callback/credentials", { ...credentials, csrfToken: [csrfToken] });
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it("does not sign out: the session cookie stays and the session still reads", async () => {
    const signOut = vi.fn();
    const client = await signedInClient(testConfig({ events: { signOut } }));
    const response = await client.post("/signout", { csrfToken: "not-the-token" });
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(await client.session()).not.toBeNull();
    expect(signOut).not.toHaveBeenCalled();
  });

  it("does not update the session: POST /session answers 400 null and the callbacks never see the data", async () => {
    const jwt = vi.fn(({ token }) => token);
    const client = await signedInClient(testConfig({ callbacks: { jwt } }));
    jwt.mockClear();
    const before = client.cookie(SESSION_COOKIE);
    for (const body of [{ data: { name: "Mallory" } }, { csrfToken: "forged", data: { name: "Mallory" } }]) {
      const response = await client.postJson("/session", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toBeNull();
      expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    }
    expect(jwt).not.toHaveBeenCalled();
    expect(client.cookie(SESSION_COOKIE)).toBe(before);
  });

  it("is refused even with a valid token when it was minted for another secret", async () => {
    const stranger = new TestClient(testConfig({ secret: "another application's secret" }));
    const csrfToken = await stranger.csrf();
    const client = new TestClient(testConfig());
    client.setCookie(CSRF_COOKIE, encodeURIComponent(stranger.cookie(CSRF_COOKIE)!));
    const response = await client.post("/callback/credentials", { ...credentials, csrfToken });
    expect(response.headers.get("location")).toBe(MISSING_CSRF);
  });
});

describe("a POST with the CSRF token", () => {
  it("signs in, signs out and updates the session with the token of the page the browser loaded", async () => {
    const client = new TestClient(testConfig());
    const page = await client.get("/signin");
    const csrfToken = /name="csrfToken" value="([0-9a-f]+)"/.exec(await page.text())?.[1];
    expect(csrfToken).toBeDefined();
    await client.post("/callback/credentials", { ...credentials, csrfToken: csrfToken! });
    expect(await client.session()).not.toBeNull();
    expect((await client.postJson("/session", { csrfToken, data: {} })).status).toBe(200);
    await client.post("/signout", { csrfToken: csrfToken! });
    expect(await client.session()).toBeNull();
  });
});

describe("skipCSRFCheck", () => {
  it("turns the check off: sign-in, update and sign-out work without a token", async () => {
    const client = new TestClient(testConfig({ skipCSRFCheck }));
    const signedIn = await client.post("/callback/credentials", credentials);
    expect(setCookieNamed(signedIn, SESSION_COOKIE)).toBeDefined();
    const updated = await client.postJson("/session", { data: { anything: true } });
    expect(updated.status).toBe(200);
    const signedOut = await client.post("/signout", {});
    expect(signedOut.headers.get("location")).toBe("http://localhost:3000/");
    expect(await client.session()).toBeNull();
  });

  it("accepts only the exported symbol, not a look-alike", async () => {
    const config = testConfig({ skipCSRFCheck: Symbol("appauth.skip-csrf-check") as typeof skipCSRFCheck });
    const response = await new TestClient(config).post("/callback/credentials", credentials);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
  });
});
