/**
 * `twoFactor.rememberBrowser`: a passed challenge with the box ticked lets that browser skip the
 * challenge of the same user's later sign-ins, until the cookie expires or the user's factors change;
 * such a session records `remembered`, never `otp`/`mfa`. Tested from both sides: the person keeps the
 * skip; another user's, a forged, an expired or a void cookie is ignored.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import { amrOf } from "../../../machines/signin-completion.machine.js";
import { checkConfig } from "../../../src/config/runtime.js";
import { recentSecondFactor } from "../../../src/two-factor/recent.js";
import {
  confirmTotpEnrollment,
  regenerateRecoveryCodes,
  removeSecondFactor,
  startTotpEnrollment,
  type TwoFactorContext,
} from "../../../src/two-factor/enrollment.js";
import { decode } from "../../../src/jwt/index.js";
import { generateRecoveryCodes, hashRecoveryCode } from "../../../src/two-factor/recovery-codes.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import type { AuthConfig, User } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, BASE_URL, SECRET, SESSION_COOKIE, checkAda, passwordProvider, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const CHALLENGE = `${BASE_URL}/two-factor-challenge`;
const REMEMBERED = "appauth.two-factor-remembered";
const BOB = { id: "user-bob", name: "Bob", email: "bob@example.com" };
const BOB_PASSWORD = "bob's own password";
const NEW_SECRET = "new-secret-0123456789abcdef0123456789";

type Remember = NonNullable<AuthConfig["twoFactor"]>["rememberBrowser"];

interface World {
  adapter: MemoryAdapterInstance;
  totp: Record<string, string>;
  recoveryCodes: string[];
  config(options?: { remember?: Remember; secret?: string | string[]; strategy?: "jwt" | "database"; required?: boolean }): AuthConfig;
}

async function enroll(adapter: MemoryAdapterInstance, userId: string): Promise<string> {
  const secret = generateTotpSecret();
  await adapter.createTwoFactor({ id: `phone-${userId}`, userId, type: "totp", createdAt: new Date(), secret: await sealSecret(secret, SECRET), lastUsedStep: -1, active: true });
  return secret;
}

async function makeWorld(strategy: "jwt" | "database"): Promise<World> {
  const adapter = MemoryAdapter();
  await adapter.createUser({ ...ADA, emailVerified: new Date() });
  await adapter.createUser({ ...BOB, emailVerified: new Date() });
  const totp = { [ADA.id]: await enroll(adapter, ADA.id), [BOB.id]: await enroll(adapter, BOB.id) };
  const recoveryCodes = generateRecoveryCodes(3);
  await adapter.replaceRecoveryCodes(ADA.id, await Promise.all(recoveryCodes.map(async (code) => (await hashRecoveryCode(code, SECRET))!)));
  await adapter.replaceRecoveryCodes(BOB.id, []);
  const authorize = (credentials: Partial<Record<string, unknown>>): User | null =>
    checkAda(credentials) ?? (credentials.username === "bob" && credentials.password === BOB_PASSWORD ? { ...BOB } : null);
  return {
    adapter,
    totp,
    recoveryCodes,
    config: (options = {}) =>
      testConfig({
        adapter,
        providers: [passwordProvider({ authorize })],
        session: { strategy: options.strategy ?? strategy },
        secret: options.secret ?? SECRET,
        twoFactor: {
          ...("remember" in options ? (options.remember === undefined ? {} : { rememberBrowser: options.remember }) : { rememberBrowser: true }),
          ...(options.required ? { required: true } : {}),
        },
      }),
  };
}

function signInAs(browser: TestClient, who: "ada" | "bob"): Promise<Response> {
  return browser.signIn(who, who === "ada" ? ADA_PASSWORD : BOB_PASSWORD, { callbackUrl: "/dashboard" });
}

async function answer(browser: TestClient, fields: Record<string, string>): Promise<Response> {
  return browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), ...fields });
}

/** Signs `who` in through the challenge with a code (the box ticked or not); answers the response. */
async function passChallenge(world: World, browser: TestClient, options: { who?: "ada" | "bob"; remember?: boolean; fields?: Record<string, string> } = {}): Promise<Response> {
  const who = options.who ?? "ada";
  expect((await signInAs(browser, who)).headers.get("location")).toBe(CHALLENGE);
  const id = who === "ada" ? ADA.id : BOB.id;
  const fields = options.fields ?? { code: await generateTotp(world.totp[id]!, Date.now()) };
  return answer(browser, { ...fields, ...(options.remember === false ? {} : { remember: "1" }) });
}

/** A fresh browser holding only `cookie` as the remembered-browser cookie. */
function browserWith(config: AuthConfig, cookie: string | undefined): TestClient {
  const browser = new TestClient(config);
  if (cookie !== undefined) browser.setCookie(REMEMBERED, encodeURIComponent(cookie));
  return browser;
}

/** Whether a password sign-in of `who` in `browser` skips the challenge (and then has a session). */
async function skips(browser: TestClient, who: "ada" | "bob" = "ada"): Promise<boolean> {
  const location = (await signInAs(browser, who)).headers.get("location");
  if (location === CHALLENGE) return false;
  expect(location).toBe("http://localhost:3000/dashboard");
  return (await browser.session()) !== null;
}

describe.each(["jwt", "database"] as const)("remember this browser (%s sessions)", (strategy) => {
  let world: World;
  beforeEach(async () => {
    world = await makeWorld(strategy);
  });
  afterEach(() => vi.useRealTimers());

  it("offers the box on the challenge page, and remembers a browser whose code was accepted with it ticked", async () => {
    const config = world.config();
    const browser = new TestClient(config);
    await signInAs(browser, "ada");
    const page = await (await browser.get("/two-factor-challenge")).text();
    expect(page).toContain('name="remember"');
    expect(page).toContain("Remember this browser for 30 days");
    const code = await generateTotp(world.totp[ADA.id]!, Date.now());
    const passed = await answer(browser, { code, remember: "1" });
    expect(passed.headers.get("location")).toBe("http://localhost:3000/dashboard");
    const setCookie = passed.headers.getSetCookie().find((line) => line.startsWith(`${REMEMBERED}=`))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Max-Age=2592000/);
    const remembered = browser.cookie(REMEMBERED)!;
    expect(remembered).not.toContain(code);

    await browser.signOut();
    expect(await skips(browser)).toBe(true);
  });

  it("records amr without otp or mfa for a remembered sign-in, so it is no recent second factor", async () => {
    const browser = new TestClient(world.config());
    await passChallenge(world, browser);
    await browser.signOut();
    expect(await skips(browser)).toBe(true);
    if (strategy === "jwt") {
      const token = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
      expect(token?.amr).toEqual(["pwd", "remembered"]);
    } else {
      const record = (await world.adapter.getSessionAndUser(browser.cookie(SESSION_COOKIE)!))?.session;
      expect(record?.amr).toEqual(["pwd", "remembered"]);
    }
  });

  it("remembers after a recovery code too, and the cookie carries neither code", async () => {
    const browser = new TestClient(world.config());
    await passChallenge(world, browser, { fields: { recoveryCode: world.recoveryCodes[0]! } });
    const remembered = browser.cookie(REMEMBERED)!;
    expect(remembered).toBeDefined();
    for (const code of world.recoveryCodes) expect(remembered.toLowerCase()).not.toContain(code.toLowerCase().replace(/-/g, ""));
    await browser.signOut();
    expect(await skips(browser)).toBe(true);
  });

  it("does not remember a browser whose box was not ticked", async () => {
    const browser = new TestClient(world.config());
    await passChallenge(world, browser, { remember: false });
    expect(browser.cookie(REMEMBERED)).toBeUndefined();
    await browser.signOut();
    expect(await skips(browser)).toBe(false);
  });

  describe("voids the cookie when the user's factors change", () => {
    const factorsOf = (): TwoFactorContext => ({ adapter: world.adapter, secret: [SECRET], issuer: "Acme" });
    const changes: Array<[string, () => Promise<void>]> = [
      [
        "a new authenticator app confirmed",
        async () => {
          const started = await startTotpEnrollment(factorsOf(), { userId: ADA.id, accountName: ADA.email });
          expect(await confirmTotpEnrollment(factorsOf(), { userId: ADA.id, factorId: started.factorId, code: await generateTotp(started.secret, Date.now()) })).toBe(true);
        },
      ],
      [
        "one of two apps removed",
        async () => {
          await world.adapter.createTwoFactor({ id: "tablet", userId: ADA.id, type: "totp", createdAt: new Date(), secret: "sealed", lastUsedStep: -1, active: true });
          const remembered = await rememberedCookie();
          expect(await removeSecondFactor(factorsOf(), { userId: ADA.id, factorId: "tablet" })).toBe(true);
          cookieAfterSetup = remembered;
        },
      ],
      ["new recovery codes", async () => void (await regenerateRecoveryCodes(factorsOf(), ADA.id))],
    ];
    let cookieAfterSetup: string | undefined;
    async function rememberedCookie(): Promise<string> {
      const browser = new TestClient(world.config());
      await passChallenge(world, browser);
      return browser.cookie(REMEMBERED)!;
    }

    for (const [change, apply] of changes) {
      it(`after ${change}: challenged again, and remembered again after passing`, async () => {
        cookieAfterSetup = undefined;
        let cookie = await rememberedCookie();
        expect(await skips(browserWith(world.config(), cookie))).toBe(true);
        await apply();
        cookie = cookieAfterSetup ?? cookie;
        const browser = browserWith(world.config(), cookie);
        expect(await skips(browser)).toBe(false);
        // The person keeps everything: the code still works, and ticking the box again remembers anew.
        const passed = await answer(browser, { code: await generateTotp(world.totp[ADA.id]!, Date.now() + 30_000), remember: "1" });
        expect(passed.headers.get("location")).toBe("http://localhost:3000/dashboard");
        await browser.signOut();
        expect(await skips(browser)).toBe(true);
      });
    }
  });

  it("ignores another user's cookie: Bob's remembered browser does not let Ada skip, Bob still skips", async () => {
    const bob = new TestClient(world.config());
    await passChallenge(world, bob, { who: "bob" });
    const cookie = bob.cookie(REMEMBERED)!;
    // Same factors version for both: only the user the cookie names tells them apart.
    expect(await world.adapter.getTwoFactorVersion(ADA.id)).toBe(await world.adapter.getTwoFactorVersion(BOB.id));
    expect(await skips(browserWith(world.config(), cookie), "ada")).toBe(false);
    expect(await skips(browserWith(world.config(), cookie), "bob")).toBe(true);
  });

  it("ignores a forged cookie: a changed MAC, user, version or expiry", async () => {
    const browser = new TestClient(world.config());
    await passChallenge(world, browser, { who: "bob" });
    const [v, user, version, until, mac] = browser.cookie(REMEMBERED)!.split(".") as [string, string, string, string, string];
    const ada = Buffer.from(ADA.id).toString("base64url");
    const forgeries = [
      [v, user, version, until, `${mac.slice(0, -1)}${mac.endsWith("0") ? "1" : "0"}`],
      [v, ada, version, until, mac],
      [v, user, String(Number(version) + 1), until, mac],
      [v, user, version, String(Number(until) + 86_400), mac],
      [v, user, version, until],
      ["v2", user, version, until, mac],
    ];
    for (const forged of forgeries) expect(await skips(browserWith(world.config(), forged.join(".")), "bob")).toBe(false);
    expect(await skips(browserWith(world.config(), "garbage"), "bob")).toBe(false);
  });

  it("ignores an expired cookie, and honours it until then (maxAge)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const config = world.config({ remember: { maxAge: 3600 } });
    const browser = new TestClient(config);
    await passChallenge(world, browser);
    const cookie = browser.cookie(REMEMBERED)!;
    vi.setSystemTime(Date.now() + 3590_000);
    expect(await skips(browserWith(config, cookie))).toBe(true);
    vi.setSystemTime(Date.now() + 20_000);
    expect(await skips(browserWith(config, cookie))).toBe(false);
  });

  it("keeps a cookie made before a secret rotation while the old secret is listed, and drops it after", async () => {
    const before = new TestClient(world.config({ secret: SECRET }));
    await passChallenge(world, before);
    const cookie = before.cookie(REMEMBERED)!;
    expect(await skips(browserWith(world.config({ secret: [NEW_SECRET, SECRET] }), cookie))).toBe(true);
    expect(await skips(browserWith(world.config({ secret: [NEW_SECRET] }), cookie))).toBe(false);
  });

  it("with rememberBrowser off: no box on the page, no cookie made, and a cookie made while it was on is ignored", async () => {
    const on = new TestClient(world.config());
    await passChallenge(world, on);
    const cookie = on.cookie(REMEMBERED)!;
    const off = world.config({ remember: undefined });
    const browser = browserWith(off, cookie);
    expect((await signInAs(browser, "ada")).headers.get("location")).toBe(CHALLENGE);
    expect(await (await browser.get("/two-factor-challenge")).text()).not.toContain('name="remember"');
    const passed = await answer(browser, { code: await generateTotp(world.totp[ADA.id]!, Date.now() + 30_000), remember: "1" });
    expect(passed.headers.getSetCookie().some((line) => line.startsWith(`${REMEMBERED}=`))).toBe(false);
  });

  it("still leads a required user without an active factor to enrollment, remembered browser or not", async () => {
    const cookie = await (async () => {
      const browser = new TestClient(world.config({ required: true }));
      await passChallenge(world, browser);
      return browser.cookie(REMEMBERED)!;
    })();
    // An adapter that (wrongly) never raises the version: the active-factor check alone must hold.
    world.adapter.getTwoFactorVersion = async () => 0;
    const stale = await (async () => {
      const browser = new TestClient(world.config({ required: true }));
      await passChallenge(world, browser, { fields: { code: await generateTotp(world.totp[ADA.id]!, Date.now() + 30_000) } });
      return browser.cookie(REMEMBERED)!;
    })();
    expect(cookie).toBeDefined();
    await world.adapter.deleteTwoFactor(ADA.id, `phone-${ADA.id}`);
    const browser = browserWith(world.config({ required: true }), stale);
    expect((await signInAs(browser, "ada")).headers.get("location")).toBe(CHALLENGE);
    const page = await (await browser.get("/two-factor-challenge")).text();
    expect(page).toContain("<svg");
    expect(page).not.toContain('name="recoveryCode"');
    expect(await browser.session()).toBeNull();
  });
});

describe("rememberBrowser configuration", () => {
  it("needs the adapter's getTwoFactorVersion, named at start-up", () => {
    const { getTwoFactorVersion: _absent, ...adapter } = MemoryAdapter();
    expect(() => checkConfig(testConfig({ adapter, twoFactor: { rememberBrowser: true } }))).toThrow(/getTwoFactorVersion/);
    expect(() => checkConfig(testConfig({ adapter, twoFactor: {} }))).not.toThrow();
  });

  it("accepts true, false and { maxAge }, and refuses anything else by name", () => {
    const adapter = MemoryAdapter();
    for (const rememberBrowser of [true, false, {}, { maxAge: 7 * 86_400 }]) {
      expect(() => checkConfig(testConfig({ adapter, twoFactor: { rememberBrowser } }))).not.toThrow();
    }
    for (const rememberBrowser of ["yes", { maxAge: -1 }, { maxAge: 1.5 }, { days: 3 }, null]) {
      expect(() => checkConfig(testConfig({ adapter, twoFactor: { rememberBrowser } as never }))).toThrow(/rememberBrowser/);
    }
  });
});

describe("what a remembered sign-in proves", () => {
  it("is recorded as remembered, and is no recent second factor (a passed challenge is)", () => {
    const remembered = amrOf({ firstFactor: ["pwd"], remembered: true });
    expect(remembered).toEqual(["pwd", "remembered"]);
    const now = Date.now();
    expect(recentSecondFactor({ amr: remembered, auth_time: Math.floor(now / 1000) }, 300, { now })).toBe(false);
    const proved = amrOf({ firstFactor: ["pwd"], proved: ["otp"] });
    expect(recentSecondFactor({ amr: proved, auth_time: Math.floor(now / 1000) }, 300, { now })).toBe(true);
  });
});
