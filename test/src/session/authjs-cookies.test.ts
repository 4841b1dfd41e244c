/**
 * Switching from Auth.js signs nobody out: a session cookie that a real @auth/core made (JWT,
 * plain and chunked; database, through the same store) is read by appauth with the same secret,
 * re-issued as appauth's cookie on that first read, and the old cookie expired. next-auth v4's
 * format (A256GCM under its own key derivation) is read too.
 */
import type { AuthConfig as AuthJsConfig } from "@auth/core";
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters";
import { encode as authJsEncode } from "@auth/core/jwt";
import CredentialsJs from "@auth/core/providers/credentials";
import NodemailerJs from "@auth/core/providers/nodemailer";
import { EncryptJWT } from "jose";
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getToken } from "../../../src/jwt/index.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, checkAda, ORIGIN, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { isDeletion, setCookieNamed, setCookiesOf, type ParsedSetCookie } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";
import { AuthJsBrowser } from "../../helpers/authjs-browser.js";

function authJsCredentialsConfig(extra: Partial<AuthJsConfig> = {}): AuthJsConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      CredentialsJs({
        credentials: { username: {}, password: {} },
        authorize: (credentials) => checkAda(credentials),
      }),
    ],
    ...extra,
  };
}

async function signedInWithAuthJs(config: AuthJsConfig): Promise<AuthJsBrowser> {
  const browser = new AuthJsBrowser(config);
  const csrfToken = await browser.csrf();
  const response = await browser.fetch("/auth/callback/credentials", {
    method: "POST",
    form: { csrfToken, username: ADA_USERNAME, password: ADA_PASSWORD },
  });
  expect(response.status).toBe(302);
  expect(browser.sessionCookies().length).toBeGreaterThan(0);
  return browser;
}

function appauthWith(cookies: Array<[string, string]>, overrides: Parameters<typeof testConfig>[0] = {}): TestClient {
  const client = new TestClient(testConfig(overrides));
  for (const [name, raw] of cookies) client.setCookie(name, raw);
  return client;
}

function expired(response: Response, name: string): boolean {
  const cookie = setCookiesOf(response).find((c: ParsedSetCookie) => c.name === name);
  return cookie !== undefined && isDeletion(cookie);
}

describe("an Auth.js v5 JWT session cookie", () => {
  it("signs its holder in on the first read, which re-issues it as appauth's and expires the old one", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig());
    const client = appauthWith(authjs.sessionCookies());

    const first = await client.get("/session");
    expect(await first.json()).toMatchObject({ user: { name: ADA.name, email: ADA.email } });
    expect(setCookieNamed(first, SESSION_COOKIE)?.value).toMatch(/^ey/);
    expect(expired(first, "authjs.session-token")).toBe(true);

    // The browser now holds only appauth's cookie, and stays signed in.
    expect(client.cookieNames()).toEqual([SESSION_COOKIE]);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("keeps the claims its jwt callback added, for appauth's jwt callback to read", async () => {
    const authjs = await signedInWithAuthJs(
      authJsCredentialsConfig({ callbacks: { jwt: ({ token }) => ({ ...token, role: "admin" }) } }),
    );
    const seen: unknown[] = [];
    const client = appauthWith(authjs.sessionCookies(), {
      callbacks: {
        jwt: ({ token }) => {
          seen.push(token.role);
          return token;
        },
      },
    });
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    expect(seen).toEqual(["admin"]);
  });

  it("is read when Auth.js had to split it into chunks, and every chunk is expired", async () => {
    const big = "x".repeat(6000);
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig({ callbacks: { jwt: ({ token }) => ({ ...token, big }) } }));
    const chunks = authjs.sessionCookies();
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every(([name]) => /^authjs\.session-token\.\d+$/.test(name))).toBe(true);
    const client = appauthWith(chunks);
    const first = await client.get("/session");
    expect(await first.json()).toMatchObject({ user: { email: ADA.email } });
    expect(chunks.filter(([name]) => !expired(first, name))).toEqual([]);
    expect(client.cookieNames().every((name) => name.startsWith(SESSION_COOKIE))).toBe(true);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("opens with any secret of the rotation list, as Auth.js orders it", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig({ secret: "the-old-secret-0123456789abcdef" }));
    const client = appauthWith(authjs.sessionCookies(), { secret: [SECRET, "the-old-secret-0123456789abcdef"] });
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("is nobody's session under another secret, and is expired", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig({ secret: "someone-elses-secret-0123456789" }));
    const client = appauthWith(authjs.sessionCookies());
    const response = await client.get("/session");
    expect(await response.json()).toBeNull();
    expect(expired(response, "authjs.session-token")).toBe(true);
  });

  it("is nobody's session once it has expired", async () => {
    const token = await authJsEncode({ token: { sub: ADA.id, email: ADA.email }, secret: SECRET, salt: "authjs.session-token", maxAge: -60 });
    expect(await appauthWith([["authjs.session-token", token]]).session()).toBeNull();
  });

  it("is ignored when appauth's own cookie is present: ours wins", async () => {
    const someoneElse = await authJsEncode({
      token: { sub: "mallory", email: "mallory@example.com" },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    const client = new TestClient(testConfig());
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    client.setCookie("authjs.session-token", someoneElse);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });

  it("is not read with session.acceptAuthJsCookies: false", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig());
    const client = appauthWith(authjs.sessionCookies(), { session: { acceptAuthJsCookies: false } });
    expect(await client.session()).toBeNull();
  });

  it("is never opened as an appauth cookie, nor an appauth token as an Auth.js one (the keys differ)", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig());
    const [, raw] = authjs.sessionCookies()[0]!;
    expect(await appauthWith([[SESSION_COOKIE, raw]]).session()).toBeNull();

    const ours = new TestClient(testConfig());
    await ours.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await appauthWith([["authjs.session-token", ours.cookie(SESSION_COOKIE)!]]).session()).toBeNull();
  });

  it("signs out: sign-out expires it too", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig());
    const client = appauthWith(authjs.sessionCookies());
    const response = await client.signOut();
    expect(expired(response, "authjs.session-token")).toBe(true);
    expect(await client.session()).toBeNull();
  });

  it("is read by getToken() from middleware before the first session read", async () => {
    const authjs = await signedInWithAuthJs(authJsCredentialsConfig());
    const cookie = authjs.sessionCookies().map(([k, v]) => `${k}=${v}`).join("; ");
    const token = await getToken({ req: new Request(`${ORIGIN}/`, { headers: { cookie } }), secret: SECRET });
    expect(token).toMatchObject({ sub: expect.any(String), email: ADA.email });
  });
});

describe("a next-auth v4 JWT session cookie", () => {
  /** The v4 format: HKDF-SHA256, empty salt, its own info, 32 bytes; JWE dir + A256GCM, no kid. */
  async function v4Token(claims: Record<string, unknown>, secret: string, maxAge = 3600): Promise<string> {
    const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"]);
    const info = new TextEncoder().encode("NextAuth.js Generated Encryption Key");
    const key = new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info }, ikm, 256));
    const now = Math.floor(Date.now() / 1000);
    return new EncryptJWT(claims).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setIssuedAt(now).setExpirationTime(now + maxAge).setJti(crypto.randomUUID()).encrypt(key);
  }

  it("signs its holder in and is replaced by appauth's cookie", async () => {
    const token = await v4Token({ name: ADA.name, email: ADA.email, sub: ADA.id }, SECRET);
    const client = appauthWith([["next-auth.session-token", token]]);
    const first = await client.get("/session");
    expect(await first.json()).toMatchObject({ user: { email: ADA.email } });
    expect(expired(first, "next-auth.session-token")).toBe(true);
    expect(client.cookieNames()).toEqual([SESSION_COOKIE]);
  });

  it("under another secret, or tampered with, is nobody's session", async () => {
    const other = await v4Token({ email: ADA.email }, "another-secret-0123456789abcdef");
    expect(await appauthWith([["next-auth.session-token", other]]).session()).toBeNull();
    const token = await v4Token({ email: ADA.email }, SECRET);
    const parts = token.split(".");
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith("AA") ? "BA" : "AA");
    expect(await appauthWith([["next-auth.session-token", parts.join(".")]]).session()).toBeNull();
  });
});

describe("an Auth.js database session cookie", () => {
  it("signs its holder in from the shared store and moves into appauth's cookie with the stored expiry", async () => {
    const adapter = MemoryAdapter();
    let link = "";
    const authjs = new AuthJsBrowser({
      secret: SECRET,
      trustHost: true,
      adapter: adapter as unknown as AuthJsAdapter,
      providers: [
        NodemailerJs({
          server: "smtp://127.0.0.1:1",
          from: "auth@example.com",
          sendVerificationRequest: ({ url }) => {
            link = url;
          },
        }),
      ],
    });
    const csrfToken = await authjs.csrf();
    await authjs.fetch("/auth/signin/nodemailer", { method: "POST", form: { csrfToken, email: ADA.email } });
    expect(link).toContain("/auth/callback/nodemailer");
    await authjs.fetch(new URL(link).pathname + new URL(link).search);
    const [[name, sessionToken]] = authjs.sessionCookies() as [[string, string]];
    expect(name).toBe("authjs.session-token");

    const client = appauthWith([[name, sessionToken]], { adapter });
    const first = await client.get("/session");
    expect(await first.json()).toMatchObject({ user: { email: ADA.email } });
    const ours = setCookieNamed(first, SESSION_COOKIE)!;
    expect(ours.value).toBe(decodeURIComponent(sessionToken));
    const stored = await adapter.getSessionAndUser(decodeURIComponent(sessionToken));
    expect(ours.expires?.getTime()).toBe(Math.floor(stored!.session.expires.getTime() / 1000) * 1000);
    expect(expired(first, "authjs.session-token")).toBe(true);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
  });
});
