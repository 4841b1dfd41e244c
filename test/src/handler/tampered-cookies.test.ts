import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ADA_PASSWORD, ADA_USERNAME, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { propertyOptions } from "../../helpers/property.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

/** Characters a tampered cookie may gain: the token's own alphabet and the punctuation around it. */
const TAMPER_CHARS = [
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  ..."./+=%|,:!*'()~@\\\"[]{}",
  "\u00e9",
  "\u00ff",
];

type Tamper =
  | { kind: "replace"; at: number; char: string }
  | { kind: "insert"; at: number; char: string }
  | { kind: "delete"; at: number; length: number }
  | { kind: "truncate"; keep: number };

function tamperArb(length: number): fc.Arbitrary<Tamper> {
  const at = fc.nat({ max: length - 1 });
  const char = fc.constantFrom(...TAMPER_CHARS);
  return fc.oneof(
    fc.record({ kind: fc.constant("replace" as const), at, char }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat({ max: length }), char }),
    fc.record({ kind: fc.constant("delete" as const), at, length: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ kind: fc.constant("truncate" as const), keep: fc.integer({ min: 1, max: length - 1 }) }),
  );
}

function apply(value: string, t: Tamper): string {
  switch (t.kind) {
    case "replace":
      return value.slice(0, t.at) + t.char + value.slice(t.at + 1);
    case "insert":
      return value.slice(0, t.at) + t.char + value.slice(t.at);
    case "delete":
      return value.slice(0, t.at) + value.slice(t.at + t.length);
    case "truncate":
      return value.slice(0, t.keep);
  }
}

describe("a tampered session cookie", () => {
  const config = testConfig();
  let token = "";

  beforeAll(async () => {
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    token = client.cookie(SESSION_COOKIE)!;
    expect(await client.session()).not.toBeNull();
  });

  it("reads as no session (200 null, never a 5xx) and is cleared, wherever and however it was changed", async () => {
    await fc.assert(
      fc.asyncProperty(tamperArb(token.length), async (tamper) => {
        const tampered = apply(token, tamper);
        fc.pre(tampered !== token && tampered.length > 0);
        const client = new TestClient(config);
        client.setCookie(SESSION_COOKIE, tampered);
        const response = await client.get("/session");
        expect(response.status).toBe(200);
        expect(await response.json()).toBeNull();
        const cleared = setCookiesOf(response).find((c) => c.name === SESSION_COOKIE);
        expect(cleared?.maxAge).toBe(0);
        expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
      }),
      propertyOptions(300),
    );
  });

  it("cannot update a session (400 null), and signing out with it still just clears it", async () => {
    await fc.assert(
      fc.asyncProperty(tamperArb(token.length), async (tamper) => {
        const tampered = apply(token, tamper);
        fc.pre(tampered !== token && tampered.length > 0);
        const client = new TestClient(config);
        client.setCookie(SESSION_COOKIE, tampered);
        const csrfToken = await client.csrf();
        const updated = await client.postJson("/session", { csrfToken, data: { name: "Mallory" } });
        expect(updated.status).toBe(400);
        expect(await updated.json()).toBeNull();
        const signedOut = await client.post("/signout", { csrfToken });
        expect(signedOut.status).toBe(302);
        expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
      }),
      propertyOptions(60),
    );
  });

  it("reads as no session when it is a whole other kind of value", async () => {
    const client = new TestClient(config);
    for (const value of ["null", "{}", "a.b.c.d.e", "....", "eyJhbGciOiJub25lIn0.e30.", token.split(".").reverse().join("."), "%", "%E0%A4%A"]) {
      client.setCookie(SESSION_COOKIE, value);
      const response = await client.get("/session");
      expect(response.status, value).toBe(200);
      expect(await response.json(), value).toBeNull();
    }
  });

  it("reads as no session when it is enormous", async () => {
    const client = new TestClient(config);
    client.setCookie(SESSION_COOKIE, token.repeat(200));
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
  });
});

describe("a tampered chunked session cookie", () => {
  const config = testConfig({
    callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, blob: "y".repeat(7000) } : token) },
  });
  let chunks: Array<[string, string]> = [];

  beforeAll(async () => {
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    chunks = client
      .cookieNames()
      .filter((n) => n.startsWith(`${SESSION_COOKIE}.`))
      .map((n) => [n, client.cookie(n)!]);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
  });

  function clientWith(pairs: Array<[string, string]>): TestClient {
    const client = new TestClient(config);
    for (const [name, value] of pairs) client.setCookie(name, value);
    return client;
  }

  it("reads back when every chunk is intact", async () => {
    expect(await clientWith(chunks).session()).not.toBeNull();
  });

  it("reads as no session, and every chunk is cleared, when a middle chunk is missing", async () => {
    const client = clientWith(chunks.filter((_, i) => i !== 1));
    const response = await client.get("/session");
    expect(await response.json()).toBeNull();
    expect(client.cookieNames()).toEqual([]);
  });

  it("reads as no session when the chunks are swapped", async () => {
    const swapped = chunks.map(([name], i) => [name, chunks[(i + 1) % chunks.length]![1]] as [string, string]);
    expect(await clientWith(swapped).session()).toBeNull();
  });

  it("reads as no session when the last chunk is dropped", async () => {
    expect(await clientWith(chunks.slice(0, -1)).session()).toBeNull();
  });
});
