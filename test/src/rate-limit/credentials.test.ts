/**
 * Password guessing through `Auth`: attempts are counted per account identifier and client address
 * (5 per 15 minutes) and per identifier from all addresses (20), before `authorize` is called. The
 * client address comes from `X-Forwarded-For` here, because the test says a proxy sets it.
 */
import { describe, expect, it, vi } from "vitest";
import { memoryRateLimitStore } from "../../../src/index.js";
import type { User } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, checkAda, passwordProvider, SESSION_COOKIE, testConfig, type RecordingLogger } from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

/** A config whose `authorize` is counted, behind one proxy, with the extra options given. */
function countedConfig(extra: Parameters<typeof testConfig>[0] = {}) {
  const authorize = vi.fn((credentials: Partial<Record<string, unknown>>): User | null => checkAda(credentials));
  const events: unknown[] = [];
  const config = testConfig({
    providers: [passwordProvider({ authorize })],
    rateLimit: { trustProxy: true },
    events: { rateLimited: (message) => void events.push(message) },
    ...extra,
  });
  return { config, authorize, events };
}

const from = (address: string) => ({ headers: { "x-forwarded-for": `203.0.113.250, ${address}` } });

function location(response: Response): URL {
  const value = response.headers.get("location");
  if (!value) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(value);
}

describe("password guessing", () => {
  it("refuses the 6th wrong password from one address without calling authorize, and says when to try again", async () => {
    const { config, authorize, events } = countedConfig();
    const client = new TestClient(config);
    for (let i = 0; i < 5; i++) {
      const refused = location(await client.signIn(ADA_USERNAME, `guess ${i}`, from("198.51.100.7")));
      expect(refused.searchParams.get("error")).toBe("CredentialsSignin");
    }
    expect(authorize).toHaveBeenCalledTimes(5);

    const sixth = await client.signIn(ADA_USERNAME, "guess 6", from("198.51.100.7"));
    const target = location(sixth);
    expect(target.pathname).toBe("/auth/signin");
    expect(target.searchParams.get("error")).toBe("RateLimited");
    const wait = Number(target.searchParams.get("code"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(900);
    expect(authorize).toHaveBeenCalledTimes(5);
    expect(setCookieNamed(sixth, SESSION_COOKIE)).toBeUndefined();
    expect(events).toEqual([{ providerId: "credentials", scope: "credentials", limit: "perClient", retryAfter: wait }]);

    // Even the right password is not checked from there until the window closes.
    const right = await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.7"));
    expect(location(right).searchParams.get("error")).toBe("RateLimited");
    expect(authorize).toHaveBeenCalledTimes(5);

    // The page says when to try again.
    const page = await (await client.get(`${target.pathname.replace("/auth", "")}${target.search}`)).text();
    expect(page).toContain(`Too many attempts. Please try again in ${Math.ceil(wait / 60)} minutes.`);

    // Another address still has its own budget for the same account.
    const elsewhere = await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.8"));
    expect(location(elsewhere).pathname).toBe("/");
    expect(authorize).toHaveBeenCalledTimes(6);
  });

  it("refuses the 21st wrong password across 21 addresses without calling authorize", async () => {
    const { config, authorize, events } = countedConfig();
    const client = new TestClient(config);
    for (let i = 0; i < 20; i++) {
      const refused = location(await client.signIn(ADA_USERNAME, "wrong", from(`192.0.2.${i + 1}`)));
      expect(refused.searchParams.get("error")).toBe("CredentialsSignin");
    }
    const last = location(await client.signIn(ADA_USERNAME, "wrong", from("192.0.2.21")));
    expect(last.searchParams.get("error")).toBe("RateLimited");
    expect(authorize).toHaveBeenCalledTimes(20);
    expect(events).toMatchObject([{ limit: "perIdentifier" }]);
  });

  it("counts variants of one identifier (case, whitespace, Unicode forms) as one", async () => {
    const { config, authorize } = countedConfig();
    const client = new TestClient(config);
    // Fullwidth letters fold to ASCII under NFKC.
    const variants = ["ada", "ADA", "  Ada ", "\uFF41\uFF44\uFF41", "a\u0064a", "aDa"];
    const answers: string[] = [];
    for (const username of variants) {
      answers.push(location(await client.signIn(username, "wrong", from("198.51.100.9"))).searchParams.get("error")!);
    }
    expect(answers).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "RateLimited"]);
    expect(authorize).toHaveBeenCalledTimes(5);
  });

  it("refuses a configuration whose credentials provider names no identifier field, and counts by the one it names", async () => {
    const authorize = vi.fn((): User | null => null);
    const unnamed = new TestClient(testConfig({ providers: [passwordProvider({ credentials: {}, authorize })], rateLimit: { trustProxy: true } }));
    const answer = await unnamed.post("/callback/credentials", { email: "bob@example.com", secret: "x" }, from("198.51.100.30"));
    // A configuration fault of the server: 500, logged with the fix (declare the fields or name one).
    expect(answer.status).toBe(500);
    expect(authorize).not.toHaveBeenCalled();

    const client = new TestClient(testConfig({ providers: [passwordProvider({ credentials: {}, identifier: "email", authorize })], rateLimit: { trustProxy: true } }));
    const post = async (fields: Record<string, string>) =>
      location(await client.post("/callback/credentials", { csrfToken: await client.csrf(), ...fields }, from("198.51.100.30"))).searchParams.get("error");
    // Another name for the account is not a fresh budget: only `email` is read.
    for (let i = 0; i < 5; i++) expect(await post({ email: i % 2 ? "Bob@Example.com" : "bob@example.com", username: `u${i}`, secret: "x" })).toBe("CredentialsSignin");
    expect(await post({ email: "BOB@example.com", secret: "x" })).toBe("RateLimited");
    // No identifier at all: refused without authorize, and counted against the address.
    expect(await post({ username: "bob@example.com", secret: "x" })).toBe("CredentialsSignin");
    expect(authorize).toHaveBeenCalledTimes(5);
  });

  it("lets the right password in once the window has closed, and a success clears the failures", async () => {
    let now = Date.now();
    const { config, authorize } = countedConfig({ rateLimit: { trustProxy: true, store: memoryRateLimitStore({ now: () => now }) } });
    const client = new TestClient(config);
    for (let i = 0; i < 5; i++) await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.10"));
    expect(location(await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.10"))).searchParams.get("error")).toBe("RateLimited");

    now += 15 * 60 * 1000;
    const signedIn = await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.10"));
    expect(location(signedIn).pathname).toBe("/");
    expect(setCookieNamed(signedIn, SESSION_COOKIE)).toBeDefined();

    // The success cleared the failures: four more wrong passwords are still checked, the fifth too.
    authorize.mockClear();
    for (let i = 0; i < 5; i++) {
      expect(location(await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.10"))).searchParams.get("error")).toBe("CredentialsSignin");
    }
    expect(authorize).toHaveBeenCalledTimes(5);
  });

  it("answers a success only once its failures are cleared, and signs in when the store cannot clear them (logged)", async () => {
    // A store shared by instances answers later than the memory one: its reset takes a while.
    const counts = memoryRateLimitStore();
    const resets: string[] = [];
    let failReset = false;
    const slowStore = {
      hit: (key: string, windowMs: number) => counts.hit(key, windowMs),
      reset: async (key: string) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (failReset) throw new Error("the store went away");
        await counts.reset(key);
        resets.push(key);
      },
    };
    const { config } = countedConfig({ rateLimit: { trustProxy: true, store: slowStore } });
    const client = new TestClient(config);
    for (let i = 0; i < 4; i++) await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.15"));
    const signedIn = await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.15"));
    expect(location(signedIn).pathname).toBe("/");
    // Both of the identifier's counts were cleared before the answer went out.
    expect(resets).toHaveLength(2);
    expect(await counts.hit(resets.find((key) => key.includes("\u0000"))!, 60_000)).toMatchObject({ count: 1 });

    failReset = true;
    const again = await client.signIn(ADA_USERNAME, ADA_PASSWORD, from("198.51.100.15"));
    expect(location(again).pathname).toBe("/");
    expect(setCookieNamed(again, SESSION_COOKIE)).toBeDefined();
    const logged = (config.logger as RecordingLogger).entries.filter((entry) => entry.level === "error");
    expect(logged.map((entry) => entry.code)).toEqual(["RateLimitStoreError"]);
    expect(String(logged[0]!.message[0])).toContain("could not clear the failures of a successful sign-in");
  });

  it("answers a fetch client with 429 and Retry-After, and the sign-in page's URL", async () => {
    const { config } = countedConfig({ rateLimit: { trustProxy: true, credentials: { perClient: 1 } } });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.11"));
    const response = await client.signIn(ADA_USERNAME, "wrong", { headers: { ...from("198.51.100.11").headers, "x-auth-return-redirect": "1" } });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    const body = (await response.json()) as { error: string; retryAfter: number; url: string };
    expect(body).toMatchObject({ error: "RateLimited", retryAfter });
    expect(new URL(body.url).pathname).toBe("/auth/signin");
    expect(new URL(body.url).searchParams.get("error")).toBe("RateLimited");
  });

  it("counts nothing with rateLimit: false, and per identifier only when the client address is unknown", async () => {
    const off = countedConfig({ rateLimit: false });
    const offClient = new TestClient(off.config);
    for (let i = 0; i < 25; i++) await offClient.signIn(ADA_USERNAME, "wrong", from("198.51.100.12"));
    expect(off.authorize).toHaveBeenCalledTimes(25);

    // No proxy is trusted: the header is not read, so only the identifier's own budget (20) applies.
    const unknown = countedConfig({ rateLimit: {} });
    const client = new TestClient(unknown.config);
    for (let i = 0; i < 21; i++) await client.signIn(ADA_USERNAME, "wrong", from(`198.51.100.${i}`));
    expect(unknown.authorize).toHaveBeenCalledTimes(20);
  });

  it("reads the address from the app's clientAddress hook when it has one", async () => {
    const { config, authorize } = countedConfig({
      rateLimit: { clientAddress: (request) => request.headers.get("x-real-ip"), credentials: { perClient: 2 } },
    });
    const client = new TestClient(config);
    const as = (ip: string) => ({ headers: { "x-real-ip": ip } });
    for (let i = 0; i < 3; i++) await client.signIn(ADA_USERNAME, "wrong", as("2001:db8:1:2::1"));
    // The same /64 is the same client.
    expect(location(await client.signIn(ADA_USERNAME, "wrong", as("2001:db8:1:2:ffff::9"))).searchParams.get("error")).toBe("RateLimited");
    expect(authorize).toHaveBeenCalledTimes(2);
    expect(location(await client.signIn(ADA_USERNAME, ADA_PASSWORD, as("2001:db8:1:3::1"))).pathname).toBe("/");
  });
});

describe("in the inspector", () => {
  it("shows the limiter's step and the counts it saw, like any other step", async () => {
    const seen: { snapshot?: { value?: unknown; context?: { limit?: unknown } } }[] = [];
    const { config } = countedConfig({ inspect: (event) => void seen.push(event as (typeof seen)[number]) });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.20"));
    await client.signIn(ADA_USERNAME, "wrong", from("198.51.100.20"));
    const values = seen.map((event) => event.snapshot?.value);
    expect(values).toContain("checkingAttempts");
    const limits = seen.map((event) => event.snapshot?.context?.limit).filter(Boolean);
    expect(limits.at(-1)).toEqual({ allowed: true, retryAfter: 0, counts: { perAddress: 2, perClient: 2, perIdentifier: 2 }, scope: "credentials" });
  });
});

describe("the request ceiling", () => {
  it("refuses a client's POSTs past 100 in 10 seconds: 429 with Retry-After for JSON routes", async () => {
    const { config } = countedConfig({ rateLimit: { trustProxy: true, requests: { perClient: 3 } } });
    const client = new TestClient(config);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await client.post("/session", { csrfToken: await client.csrf() }, from("198.51.100.13"));
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // The first three go on to the route (which answers as it does); the fourth is refused before it.
    expect(statuses.map((status) => status === 429)).toEqual([false, false, false, true]);
    // Another client is not affected.
    const other = await client.post("/session", { csrfToken: await client.csrf() }, from("198.51.100.14"));
    expect(other.status).not.toBe(429);
  });

  it("refuses a browser's form POST past the ceiling back to the sign-in page, before the CSRF check", async () => {
    const { config } = countedConfig({ rateLimit: { trustProxy: true, requests: { perClient: 1 } } });
    const client = new TestClient(config);
    await client.post("/signout", {}, from("198.51.100.15"));
    const target = location(await client.post("/signout", {}, from("198.51.100.15")));
    expect(target.pathname).toBe("/auth/signin");
    expect(target.searchParams.get("error")).toBe("RateLimited");
  });
});
