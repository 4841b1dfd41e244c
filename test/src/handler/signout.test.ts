import { describe, expect, it, vi } from "vitest";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, ORIGIN, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";
import { hiddenInput, TestClient } from "../../helpers/test-client.js";

async function signedIn(config = testConfig()): Promise<TestClient> {
  const client = new TestClient(config);
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  expect(client.cookieNames().some((name) => name.startsWith(SESSION_COOKIE))).toBe(true);
  return client;
}

describe("POST /signout", () => {
  it("clears the session cookie and redirects to the same-origin callbackUrl", async () => {
    const client = await signedIn();
    const response = await client.signOut("/goodbye?from=menu");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/goodbye?from=menu`);
    const cleared = setCookiesOf(response).find((c) => c.name === SESSION_COOKIE);
    expect(cleared).toMatchObject({ maxAge: 0, value: "", path: "/" });
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("redirects to the origin when the callbackUrl points elsewhere", async () => {
    const client = await signedIn();
    const response = await client.signOut("https://evil.example/phish");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it("clears every chunk of a chunked session cookie", async () => {
    const config = testConfig({
      callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, blob: "x".repeat(9000) } : token) },
    });
    const client = await signedIn(config);
    const chunks = client.cookieNames().filter((n) => n.startsWith(`${SESSION_COOKIE}.`));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const response = await client.signOut();
    const cleared = setCookiesOf(response)
      .filter((c) => c.maxAge === 0)
      .map((c) => c.name);
    expect(cleared).toEqual(expect.arrayContaining(chunks));
    expect(client.cookieNames().filter((n) => n.startsWith(SESSION_COOKIE))).toEqual([]);
  });

  it("tells events.signOut whose session ended, with the token", async () => {
    const signOut = vi.fn();
    const client = await signedIn(testConfig({ events: { signOut } }));
    await client.signOut();
    expect(signOut).toHaveBeenCalledOnce();
    expect(signOut.mock.calls[0]![0]).toMatchObject({ token: { sub: ADA.id, email: ADA.email } });
  });

  it("tells events.signOut token: null when the cookie could not be read, and still clears it", async () => {
    const signOut = vi.fn();
    const client = new TestClient(testConfig({ events: { signOut } }));
    client.setCookie(SESSION_COOKIE, "garbage");
    const response = await client.signOut();
    expect(response.status).toBe(302);
    expect(signOut).toHaveBeenCalledWith({ token: null });
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it("signs out even when the signOut event handler throws", async () => {
    const config = testConfig({
      events: {
        signOut: () => {
          throw new Error("audit down");
        },
      },
    });
    const client = await signedIn(config);
    const response = await client.signOut("/bye");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/bye`);
    expect(await client.session()).toBeNull();
    expect(config.logger.codes("error")).toContain("EventError");
  });

  it("works without a session: nothing to end, still a redirect", async () => {
    const signOut = vi.fn();
    const response = await new TestClient(testConfig({ events: { signOut } })).signOut("/x");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/x`);
    expect(signOut).not.toHaveBeenCalled();
  });

  it("answers 200 { url } when asked with X-Auth-Return-Redirect: 1", async () => {
    const client = await signedIn();
    const csrfToken = await client.csrf();
    const response = await client.post("/signout", { csrfToken, callbackUrl: "/out" }, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${ORIGIN}/out` });
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("GET /signout", () => {
  it("shows the confirmation page, which posts back with a CSRF token and does not sign out by itself", async () => {
    const client = await signedIn();
    const response = await client.get("/signout?callbackUrl=%2Flater");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain(`action="${BASE_URL}/signout"`);
    expect(hiddenInput(html, "csrfToken")).toBe(await client.csrf());
    expect(hiddenInput(html, "callbackUrl")).toBe(`${ORIGIN}/later`);
    expect(await client.session()).not.toBeNull();
  });

  it("signs out when the confirmation form is submitted as the page built it", async () => {
    const client = await signedIn();
    const html = await (await client.get("/signout?callbackUrl=%2Flater")).text();
    const response = await client.post("/signout", {
      csrfToken: hiddenInput(html, "csrfToken")!,
      callbackUrl: hiddenInput(html, "callbackUrl")!,
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/later`);
    expect(await client.session()).toBeNull();
  });

  it("redirects to pages.signOut when the application has its own page", async () => {
    const response = await new TestClient(testConfig({ pages: { signOut: "/leave" } })).get("/signout");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/leave`);
  });
});
