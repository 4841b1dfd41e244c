/**
 * `twoFactor.required`: a user who must have a second factor and has none is led to enroll an
 * authenticator app before any session exists (nothing the first factor alone would write is written),
 * then signed in with `otp` proved; a user with a factor is challenged as before; a policy that says
 * no leaves the sign-in as it was; an abandoned enrollment leaves no session and no factor.
 */
import { describe, expect, it } from "vitest";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import { decode } from "../../../src/jwt/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import type { AuthConfig } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const CHALLENGE = `${BASE_URL}/two-factor-challenge`;
const PENDING_COOKIE = "appauth.two-factor";

interface World {
  adapter: MemoryAdapterInstance;
  config: AuthConfig;
  events: string[];
  asked: unknown[];
}

type Required = NonNullable<NonNullable<AuthConfig["twoFactor"]>["required"]>;

async function world(required: Required, strategy: "jwt" | "database" = "jwt", extra: Partial<AuthConfig> = {}): Promise<World> {
  const adapter = MemoryAdapter();
  await adapter.createUser({ ...ADA, emailVerified: new Date() });
  const events: string[] = [];
  const asked: unknown[] = [];
  const policy: Required = typeof required === "function" ? (user) => (asked.push(user), required(user)) : required;
  const config = testConfig({
    adapter,
    session: { strategy },
    twoFactor: { required: policy },
    events: {
      signIn: () => void events.push("signIn"),
      twoFactorChallenged: () => void events.push("twoFactorChallenged"),
      twoFactorEnrolled: (message) => void events.push(`twoFactorEnrolled:${message.type}`),
    },
    ...extra,
  });
  return { adapter, config, events, asked };
}

async function password(browser: TestClient): Promise<Response> {
  return browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
}

/** The key the enrollment page shows (grouped by four for reading). */
async function shownKey(browser: TestClient): Promise<string> {
  const page = await (await browser.get("/two-factor-challenge")).text();
  const key = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)?.[1];
  expect(key).toBeDefined();
  return key!.replace(/ /g, "");
}

async function confirm(browser: TestClient, code: string): Promise<Response> {
  return browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code });
}

describe.each(["jwt", "database"] as const)("twoFactor.required (%s sessions)", (strategy) => {
  it("leads a user without a factor to enrollment with no session, then signs them in with otp proved once the app is confirmed", async () => {
    const w = await world(true, strategy);
    const browser = new TestClient(w.config);
    const answer = await password(browser);
    expect(answer.headers.get("location")).toBe(CHALLENGE);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(browser.cookie(PENDING_COOKIE)).toBeDefined();
    expect(await browser.session()).toBeNull();
    expect(w.events).toEqual([]);
    expect(await w.adapter.getTwoFactors(ADA.id)).toEqual([]);

    const page = await (await browser.get("/two-factor-challenge")).text();
    expect(page).toContain("<svg");
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).toContain('<label for="code">');
    const key = await shownKey(browser);

    const wrong = await confirm(browser, "000000" === (await generateTotp(key, Date.now())) ? "111111" : "000000");
    expect(wrong.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidCode`);
    expect(await browser.session()).toBeNull();
    expect(await w.adapter.getTwoFactors(ADA.id)).toEqual([]);

    const code = await generateTotp(key, Date.now());
    const done = await confirm(browser, code);
    expect(done.status).toBe(200);
    const shown = await done.text();
    expect(shown).toContain('href="http://localhost:3000/dashboard"');
    const codes = [...shown.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(done.headers.get("cache-control")).toContain("no-store");
    expect(browser.cookie(PENDING_COOKIE)).toBeUndefined();
    expect(((await browser.session()) as { user: { email: string } } | null)?.user.email).toBe(ADA.email);
    if (strategy === "jwt") {
      const token = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
      expect(token).toMatchObject({ sub: ADA.id, amr: ["pwd", "otp", "mfa"] });
    } else {
      const record = await w.adapter.getSessionAndUser(browser.cookie(SESSION_COOKIE)!);
      expect(record?.session.amr).toEqual(["pwd", "otp", "mfa"]);
    }
    const [factor, ...more] = await w.adapter.getTwoFactors(ADA.id);
    expect(more).toEqual([]);
    expect(factor).toMatchObject({ type: "totp", active: true });
    expect(factor!.lastUsedStep).toBeGreaterThan(0);
    expect(await w.adapter.countRecoveryCodes(ADA.id)).toBe(10);
    expect(w.events).toEqual(["twoFactorEnrolled:totp", "twoFactorEnrolled:recovery", "signIn"]);

    // The next sign-in is challenged with the new app, and the confirming code is spent.
    const next = new TestClient(w.config);
    expect((await password(next)).headers.get("location")).toBe(CHALLENGE);
    expect(await (await next.get("/two-factor-challenge")).text()).not.toContain("Key: <code>");
    const replayed = await next.post("/two-factor-challenge", { csrfToken: await next.csrf(), code });
    expect(replayed.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidCode`);
    expect(await next.session()).toBeNull();
  });

  it("challenges a user who has a factor as before", async () => {
    const w = await world(true, strategy);
    const secret = generateTotpSecret();
    await w.adapter.createTwoFactor({ id: "phone", userId: ADA.id, type: "totp", createdAt: new Date(), secret: await sealSecret(secret, SECRET), lastUsedStep: -1, active: true });
    const browser = new TestClient(w.config);
    expect((await password(browser)).headers.get("location")).toBe(CHALLENGE);
    expect(w.events).toEqual(["twoFactorChallenged"]);
    expect(await (await browser.get("/two-factor-challenge")).text()).not.toContain("Key: <code>");
    const passed = await confirm(browser, await generateTotp(secret, Date.now()));
    expect(passed.headers.get("location")).toBe("http://localhost:3000/dashboard");
    expect(await browser.session()).not.toBeNull();
    expect(await w.adapter.getTwoFactors(ADA.id)).toHaveLength(1);
  });

  it("leaves the sign-in unchanged with required: false, or a function that says false for this user", async () => {
    for (const required of [false, (user: { email?: string | null }) => user.email !== ADA.email] as Required[]) {
      const w = await world(required, strategy);
      const browser = new TestClient(w.config);
      expect((await password(browser)).headers.get("location")).toBe("http://localhost:3000/dashboard");
      expect(await browser.session()).not.toBeNull();
      expect(browser.cookie(PENDING_COOKIE)).toBeUndefined();
      if (typeof required === "function") expect(w.asked).toMatchObject([{ id: ADA.id, email: ADA.email }]);
    }
  });

  it("gives a user who abandons enrollment no session and stores nothing; the enrollment cookie works once", async () => {
    const w = await world(async () => true, strategy);
    const browser = new TestClient(w.config);
    await password(browser);
    const first = await shownKey(browser);
    // Walking away: no session, no factor, and signing in again starts afresh with a new key.
    expect(await browser.session()).toBeNull();
    expect(await new TestClient(w.config).session()).toBeNull();
    await password(browser);
    const second = await shownKey(browser);
    expect(second).not.toBe(first);
    expect(await w.adapter.getTwoFactors(ADA.id)).toEqual([]);
    expect(w.events).toEqual([]);
    // Once used, the same pending cookie cannot start another session.
    const pending = browser.cookie(PENDING_COOKIE)!;
    expect((await confirm(browser, await generateTotp(second, Date.now()))).status).toBe(200);
    const thief = new TestClient(w.config);
    thief.setCookie(PENDING_COOKIE, pending);
    const replay = await thief.post("/two-factor-challenge", { csrfToken: await thief.csrf(), code: await generateTotp(second, Date.now()) });
    expect(replay.status).not.toBe(200);
    expect(thief.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await w.adapter.getTwoFactors(ADA.id)).toHaveLength(1);
  });

  it("refuses the sign-in when the policy throws (fails closed), writing nothing", async () => {
    const w = await world(() => {
      throw new Error("directory unreachable");
    }, strategy);
    const browser = new TestClient(w.config);
    const answer = await password(browser);
    expect(answer.headers.get("location")).toContain("error=");
    expect(answer.headers.get("location")).not.toBe(CHALLENGE);
    expect(await browser.session()).toBeNull();
    expect(w.events).toEqual([]);
  });
});

describe("twoFactor.required for a person the sign-in would create", () => {
  it("creates nobody until the app is confirmed; then the new user exists with the factor, signed in", async () => {
    const links: string[] = [];
    const w = await world(true, "database", {
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@example.test", sendVerificationRequest: async ({ url }) => void links.push(url) })],
    });
    const email = "grace@example.com";
    const browser = new TestClient(w.config);
    await browser.post("/signin/nodemailer", { csrfToken: await browser.csrf(), email, callbackUrl: "/inbox" });
    const followed = await browser.get(links[0]!);
    expect(followed.headers.get("location")).toBe(CHALLENGE);
    expect(await w.adapter.getUserByEmail(email)).toBeNull();
    expect(await browser.session()).toBeNull();

    const key = await shownKey(browser);
    const done = await confirm(browser, await generateTotp(key, Date.now()));
    expect(done.status).toBe(200);
    const user = await w.adapter.getUserByEmail(email);
    expect(user).not.toBeNull();
    expect(await w.adapter.getTwoFactors(user!.id)).toMatchObject([{ active: true }]);
    expect(((await browser.session()) as { user: { email: string } } | null)?.user.email).toBe(email);
    expect(w.events).toEqual(["twoFactorEnrolled:totp", "twoFactorEnrolled:recovery", "signIn"]);
  });
});
