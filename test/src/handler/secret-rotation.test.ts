import { describe, expect, it } from "vitest";
import { decode } from "../../../src/jwt/index.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

const A = "newest-secret-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const B = "older-secret-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
const C = "retired-secret-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC";

/** A session cookie issued by an application that knew only `secret`. */
async function sessionUnder(secret: string | string[]): Promise<string> {
  const client = new TestClient(testConfig({ secret }));
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  return client.cookie(SESSION_COOKIE)!;
}

describe("rotating the secret", () => {
  it("keeps a session issued under the older secret B readable with secret: [A, B], and re-issues it under A", async () => {
    const old = await sessionUnder(B);
    expect(await decode({ token: old, secret: [A], salt: SESSION_COOKIE })).toBeNull();

    const client = new TestClient(testConfig({ secret: [A, B] }));
    client.setCookie(SESSION_COOKIE, old);
    const response = await client.get("/session");
    expect(await response.json()).toMatchObject({ user: { email: ADA.email } });

    const reissued = setCookieNamed(response, SESSION_COOKIE);
    expect(reissued).toBeDefined();
    const underA = await decode({ token: reissued!.value, secret: [A], salt: SESSION_COOKIE });
    expect(underA).toMatchObject({ sub: ADA.id, email: ADA.email });
    expect(await decode({ token: reissued!.value, secret: [B], salt: SESSION_COOKIE })).toBeNull();
  });

  it("does not re-issue on the next read once the session is under A", async () => {
    const client = new TestClient(testConfig({ secret: [A, B] }));
    client.setCookie(SESSION_COOKIE, await sessionUnder(B));
    await client.get("/session");
    const next = await client.get("/session");
    expect(await next.json()).not.toBeNull();
    expect(setCookieNamed(next, SESSION_COOKIE)).toBeUndefined();
  });

  it("issues new sessions under A, the first secret", async () => {
    const client = new TestClient(testConfig({ secret: [A, B] }));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const value = client.cookie(SESSION_COOKIE)!;
    expect(await decode({ token: value, secret: [A], salt: SESSION_COOKIE })).toMatchObject({ sub: ADA.id });
    expect(await decode({ token: value, secret: [B], salt: SESSION_COOKIE })).toBeNull();
  });

  it("works with more than two secrets: one under the third still reads", async () => {
    const client = new TestClient(testConfig({ secret: [A, B, C] }));
    client.setCookie(SESSION_COOKIE, await sessionUnder(C));
    const response = await client.get("/session");
    expect(await response.json()).not.toBeNull();
    expect(await decode({ token: setCookieNamed(response, SESSION_COOKIE)!.value, secret: [A], salt: SESSION_COOKIE })).not.toBeNull();
  });

  it("signs out a session whose secret was dropped from the list: null, cookie cleared", async () => {
    const client = new TestClient(testConfig({ secret: [A, B] }));
    client.setCookie(SESSION_COOKIE, await sessionUnder(C));
    const response = await client.get("/session");
    expect(await response.json()).toBeNull();
    expect(setCookieNamed(response, SESSION_COOKIE)?.maxAge).toBe(0);
  });

  it("keeps the CSRF cookie minted under B valid, so a form loaded before the rotation still posts", async () => {
    const before = new TestClient(testConfig({ secret: B }));
    const csrfToken = await before.csrf();
    const client = new TestClient(testConfig({ secret: [A, B] }));
    client.setCookie("appauth.csrf-token", encodeURIComponent(before.cookie("appauth.csrf-token")!));
    expect(await client.csrf()).toBe(csrfToken);
    const response = await client.post("/callback/credentials", { csrfToken, username: ADA_USERNAME, password: ADA_PASSWORD });
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
  });
});
