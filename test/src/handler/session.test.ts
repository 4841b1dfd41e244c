import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decode, encode } from "../../../src/jwt/index.js";
import type { JWT, JWTDecodeParams, JWTEncodeParams, Session } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});

afterEach(() => {
  vi.useRealTimers();
});

async function signedIn(config = testConfig()): Promise<TestClient> {
  const client = new TestClient(config);
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  expect(client.cookie(SESSION_COOKIE)).toBeDefined();
  return client;
}

async function tokenOf(client: TestClient, secret: string | string[] = SECRET): Promise<JWT | null> {
  return decode({ token: client.cookie(SESSION_COOKIE)!, secret, salt: SESSION_COOKIE });
}

describe("updating the session (POST /session)", () => {
  it("hands the data to the jwt callback (trigger update) and the session callback (newSession), and the new cookie carries the change", async () => {
    const jwtCalls: unknown[] = [];
    const sessionCalls: unknown[] = [];
    const config = testConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          jwtCalls.push({ trigger, session });
          if (trigger === "update") return { ...token, name: (session as { name: string }).name };
          return token;
        },
        session: ({ session, token, newSession, trigger }) => {
          sessionCalls.push({ newSession, trigger, tokenName: token.name });
          return session;
        },
      },
    });
    const client = await signedIn(config);
    jwtCalls.length = 0;
    const csrfToken = await client.csrf();

    const response = await client.postJson("/session", { csrfToken, data: { name: "Ada King" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect(await response.json()).toMatchObject({ user: { name: "Ada King", email: ADA.email } });
    expect(jwtCalls).toEqual([{ trigger: "update", session: { name: "Ada King" } }]);
    expect(sessionCalls.at(-1)).toEqual({ newSession: { name: "Ada King" }, trigger: "update", tokenName: "Ada King" });

    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
    expect(await tokenOf(client)).toMatchObject({ name: "Ada King", sub: ADA.id });
    expect(await client.session()).toMatchObject({ user: { name: "Ada King" } });
  });

  it("re-issues the cookie on an update even when the jwt callback changes nothing", async () => {
    const client = await signedIn();
    vi.setSystemTime(T0 + 60_000);
    const csrfToken = await client.csrf();
    const response = await client.postJson("/session", { csrfToken, data: null });
    expect(response.status).toBe(200);
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
  });

  it("answers 400 null to an update without a session", async () => {
    const client = new TestClient(testConfig());
    const csrfToken = await client.csrf();
    const response = await client.postJson("/session", { csrfToken, data: { name: "x" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toBeNull();
  });

  it("does not call the callbacks with trigger update on a plain read", async () => {
    const jwt = vi.fn(({ token }: { token: JWT }) => token);
    const session = vi.fn(({ session: s }: { session: Session }) => s);
    const client = await signedIn(testConfig({ callbacks: { jwt, session } }));
    jwt.mockClear();
    await client.session();
    expect(jwt).toHaveBeenCalledOnce();
    expect(jwt.mock.calls[0]![0]).not.toHaveProperty("trigger");
    expect(session.mock.calls[0]![0]).not.toHaveProperty("trigger");
    expect(session.mock.calls[0]![0]).not.toHaveProperty("newSession");
  });
});

describe("rolling expiry", () => {
  it("does not re-issue the cookie on a read while the token is younger than updateAge and unchanged", async () => {
    const client = await signedIn();
    const issued = client.cookie(SESSION_COOKIE);
    vi.setSystemTime(T0 + DAY - 1000);
    const response = await client.get("/session");
    const session = (await response.json()) as Session;
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeUndefined();
    expect(client.cookie(SESSION_COOKIE)).toBe(issued);
    // Without a new cookie, the session still ends when the first one does.
    expect(session.expires).toBe(new Date(T0 + 30 * DAY).toISOString());
  });

  it("re-issues the cookie, pushing the expiry out, once the token is updateAge old", async () => {
    const client = await signedIn();
    vi.setSystemTime(T0 + DAY);
    const response = await client.get("/session");
    const cookie = setCookieNamed(response, SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie!.expires?.getTime()).toBe(T0 + DAY + 30 * DAY);
    expect(((await response.json()) as Session).expires).toBe(new Date(T0 + 31 * DAY).toISOString());
    const token = await tokenOf(client);
    expect(token?.iat).toBe((T0 + DAY) / 1000);
    expect(token?.exp).toBe((T0 + 31 * DAY) / 1000);
  });

  it("keeps a person signed in past maxAge as long as they come back within it", async () => {
    const client = await signedIn(testConfig({ session: { maxAge: 10 * 86_400 } }));
    for (let day = 2; day <= 40; day += 2) {
      vi.setSystemTime(T0 + day * DAY);
      expect(await client.session(), `day ${day}`).toMatchObject({ user: { email: ADA.email } });
    }
  });

  it("ends the session of a person who stays away longer than maxAge", async () => {
    const client = await signedIn(testConfig({ session: { maxAge: 3600 } }));
    const stale = client.cookie(SESSION_COOKIE)!;
    vi.setSystemTime(T0 + 2 * 3600_000);
    // The browser dropped the expired cookie...
    expect(await client.session()).toBeNull();
    // ...and one replayed by hand no longer opens.
    client.setCookie(SESSION_COOKIE, stale);
    expect(await client.session()).toBeNull();
  });

  it("re-issues on every read with updateAge: 0", async () => {
    const client = await signedIn(testConfig({ session: { updateAge: 0 } }));
    for (let i = 1; i <= 3; i++) {
      vi.setSystemTime(T0 + i * 1000);
      const response = await client.get("/session");
      expect(setCookieNamed(response, SESSION_COOKIE), `read ${i}`).toBeDefined();
    }
  });

  it("re-issues when the jwt callback changes the token, even when it is young", async () => {
    let visits = 0;
    const client = await signedIn(testConfig({ callbacks: { jwt: ({ token }) => ({ ...token, visits: ++visits }) } }));
    const response = await client.get("/session");
    expect(setCookieNamed(response, SESSION_COOKIE)).toBeDefined();
    expect((await tokenOf(client))?.visits).toBe(2);
  });

  it("ends the session when the jwt callback returns null on a read: null, cookie cleared", async () => {
    let allow = true;
    const client = await signedIn(testConfig({ callbacks: { jwt: ({ token }) => (allow ? token : null) } }));
    allow = false;
    const response = await client.get("/session");
    expect(await response.json()).toBeNull();
    expect(setCookieNamed(response, SESSION_COOKIE)?.maxAge).toBe(0);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("session lifetime", () => {
  it("defaults to 30 days in the cookie's Expires and the token's exp", async () => {
    const client = new TestClient(testConfig());
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(setCookieNamed(response, SESSION_COOKIE)?.expires?.getTime()).toBe(T0 + 2_592_000_000);
    expect((await tokenOf(client))?.exp).toBe(T0 / 1000 + 2_592_000);
  });

  it("honours session.maxAge", async () => {
    const client = new TestClient(testConfig({ session: { maxAge: 7200 } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(setCookieNamed(response, SESSION_COOKIE)?.expires?.getTime()).toBe(T0 + 7200_000);
  });

  it("honours jwt.maxAge in the cookie's Expires and the token's exp", async () => {
    const client = new TestClient(testConfig({ jwt: { maxAge: 3600 } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(setCookieNamed(response, SESSION_COOKIE)?.expires?.getTime()).toBe(T0 + 3600_000);
    const token = await tokenOf(client);
    expect(token!.exp! - token!.iat!).toBe(3600);
    expect(((await client.get("/session").then((r) => r.json())) as Session).expires).toBe(new Date(T0 + 3600_000).toISOString());
  });
});

describe("custom jwt.encode and jwt.decode", () => {
  it("are used to write and read the session cookie", async () => {
    const encodeCalls: JWTEncodeParams[] = [];
    const decodeCalls: JWTDecodeParams[] = [];
    const config = testConfig({
      jwt: {
        encode: async (params) => {
          encodeCalls.push(params);
          return `v1.${await encode(params)}`;
        },
        decode: async (params) => {
          decodeCalls.push(params);
          if (!params.token?.startsWith("v1.")) return null;
          return decode({ ...params, token: params.token.slice(3) });
        },
      },
    });
    const client = await signedIn(config);
    expect(client.cookie(SESSION_COOKIE)!.startsWith("v1.")).toBe(true);
    expect(encodeCalls[0]).toMatchObject({ salt: SESSION_COOKIE, secret: [SECRET], maxAge: 2_592_000 });
    expect(encodeCalls[0]!.token).toMatchObject({ email: ADA.email });

    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    expect(decodeCalls[0]).toMatchObject({ token: client.cookie(SESSION_COOKIE), salt: SESSION_COOKIE, secret: [SECRET] });

    // A cookie in the default format is not something the custom decoder accepts.
    client.setCookie(SESSION_COOKIE, await encode({ token: { email: "x@example.com" }, secret: SECRET, salt: SESSION_COOKIE }));
    expect(await client.session()).toBeNull();
  });

  it("treat a custom decode that throws as no session, never a 5xx", async () => {
    const config = testConfig({
      jwt: {
        decode: () => {
          throw new Error("corrupt");
        },
      },
    });
    const client = await signedIn(config);
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("the session event", () => {
  it("is called on each read with the session and the token", async () => {
    const session = vi.fn();
    const client = await signedIn(testConfig({ events: { session } }));
    await client.session();
    await client.session();
    expect(session).toHaveBeenCalledTimes(2);
    expect(session.mock.calls[0]![0]).toMatchObject({
      session: { user: { email: ADA.email }, expires: expect.any(String) },
      token: { sub: ADA.id, email: ADA.email },
    });
  });

  it("is not called when there is no session", async () => {
    const session = vi.fn();
    await new TestClient(testConfig({ events: { session } })).session();
    expect(session).not.toHaveBeenCalled();
  });

  it("does not break the read when its handler throws", async () => {
    const config = testConfig({
      events: {
        session: () => {
          throw new Error("metrics down");
        },
      },
    });
    const client = await signedIn(config);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    expect(config.logger.codes("error")).toContain("EventError");
  });
});

describe("the session callback", () => {
  it("decides what the client sees: extra fields only when returned explicitly", async () => {
    const config = testConfig({
      callbacks: {
        jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, role: "admin", internal: "do-not-leak" } : token),
        session: ({ session, token }) => ({ ...session, role: token.role }),
      },
    });
    const client = await signedIn(config);
    const session = await client.session();
    expect(session).toMatchObject({ role: "admin", user: { email: ADA.email } });
    expect(JSON.stringify(session)).not.toContain("do-not-leak");
  });

  it("by default exposes only name, email and image, not the token's other claims", async () => {
    const config = testConfig({
      callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, internal: "do-not-leak" } : token) },
    });
    const client = await signedIn(config);
    const session = (await client.session()) as Session;
    expect(Object.keys(session).sort()).toEqual(["expires", "user"]);
    expect(session.user).toEqual({ name: ADA.name, email: ADA.email, image: ADA.image });
  });

  it("answers null, never a 5xx, when it throws", async () => {
    const config = testConfig({
      callbacks: {
        session: () => {
          throw new Error("bug in app code");
        },
      },
    });
    const client = await signedIn(config);
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
  });
});
