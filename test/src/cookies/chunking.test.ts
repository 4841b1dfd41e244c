import { describe, expect, it } from "vitest";
import { decode } from "../../../src/jwt/index.js";
import type { JWT } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

/** A config whose jwt callback adds a claim of `size()` characters at sign-in and on update. */
function configWithClaimOf(size: () => number) {
  return testConfig({
    callbacks: {
      jwt: ({ token, trigger }) => {
        if (trigger !== "signIn" && trigger !== "update") return token;
        const next: JWT = { ...token };
        delete next.blob;
        // Varied text, so the claim is not a run a compressor could shrink.
        if (size() > 0) next.blob = Array.from({ length: size() }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join("");
        return next;
      },
    },
  });
}

function sessionCookieNames(client: TestClient): string[] {
  return client.cookieNames().filter((n) => n === SESSION_COOKIE || n.startsWith(`${SESSION_COOKIE}.`));
}

describe("a session too large for one cookie", () => {
  it("is written as appauth.session-token.0, .1, ... each within the browser's 4096-byte limit", async () => {
    const client = new TestClient(configWithClaimOf(() => 8000));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const written = setCookiesOf(response).filter((c) => c.name.startsWith(SESSION_COOKIE));
    expect(written.map((c) => c.name)).toEqual([`${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`, `${SESSION_COOKIE}.2`]);
    for (const cookie of written) {
      expect(new TextEncoder().encode(cookie.header).length).toBeLessThanOrEqual(4096);
      expect(cookie).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax" });
      expect(cookie.expires).toBeDefined();
    }
    expect(sessionCookieNames(client)).not.toContain(SESSION_COOKIE);
  });

  it("reads back through /session, the chunks joined in order", async () => {
    const client = new TestClient(configWithClaimOf(() => 8000));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    const joined = ["0", "1", "2"].map((i) => client.cookie(`${SESSION_COOKIE}.${i}`)).join("");
    const token = await decode({ token: joined, secret: SECRET, salt: SESSION_COOKIE });
    expect((token?.blob as string).length).toBe(8000);
  });

  it("has its stale chunks cleared when a later session fits in one cookie", async () => {
    let size = 8000;
    const client = new TestClient(configWithClaimOf(() => size));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(sessionCookieNames(client)).toHaveLength(3);

    size = 0;
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const cleared = setCookiesOf(response)
      .filter((c) => c.maxAge === 0)
      .map((c) => c.name)
      .sort();
    expect(cleared).toEqual([`${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`, `${SESSION_COOKIE}.2`]);
    expect(sessionCookieNames(client)).toEqual([SESSION_COOKIE]);
    const token = await decode({ token: client.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
    expect(token?.blob).toBeUndefined();
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("has its surplus chunks cleared when a later session needs fewer of them", async () => {
    let size = 12_000;
    const client = new TestClient(configWithClaimOf(() => size));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const before = sessionCookieNames(client).length;
    expect(before).toBeGreaterThanOrEqual(4);

    size = 4000;
    const csrfToken = await client.csrf();
    const response = await client.postJson("/session", { csrfToken, data: {} });
    expect(response.status).toBe(200);
    const after = sessionCookieNames(client);
    expect(after.length).toBeLessThan(before);
    expect(after.every((n) => n.startsWith(`${SESSION_COOKIE}.`))).toBe(true);
    expect(after).toEqual(after.map((_, i) => `${SESSION_COOKIE}.${i}`));
    expect(await client.session()).not.toBeNull();
  });

  it("replaces the single cookie when it grows into chunks", async () => {
    let size = 0;
    const client = new TestClient(configWithClaimOf(() => size));
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(sessionCookieNames(client)).toEqual([SESSION_COOKIE]);

    size = 8000;
    const csrfToken = await client.csrf();
    const response = await client.postJson("/session", { csrfToken, data: {} });
    expect(setCookiesOf(response).find((c) => c.name === SESSION_COOKIE)?.maxAge).toBe(0);
    expect(sessionCookieNames(client)).toEqual([`${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`, `${SESSION_COOKIE}.2`]);
    const joined = sessionCookieNames(client)
      .map((n) => client.cookie(n))
      .join("");
    expect(((await decode({ token: joined, secret: SECRET, salt: SESSION_COOKIE }))?.blob as string).length).toBe(8000);
  });

  it("is re-issued in as many chunks as it needs, with none cleared, when a read rolls it", async () => {
    const config = configWithClaimOf(() => 8000);
    config.session = { updateAge: 0 };
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const response = await client.get("/session");
    const written = setCookiesOf(response).filter((c) => c.name.startsWith(SESSION_COOKIE));
    expect(written.map((c) => [c.name, c.maxAge === 0])).toEqual([
      [`${SESSION_COOKIE}.0`, false],
      [`${SESSION_COOKIE}.1`, false],
      [`${SESSION_COOKIE}.2`, false],
    ]);
    expect(await client.session()).not.toBeNull();
  });
});
