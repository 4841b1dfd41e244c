import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import { generateRecoveryCodes, hashRecoveryCode } from "../../../src/two-factor/recovery-codes.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import type { AuthConfig } from "../../../src/types.js";
import { decode } from "../../../src/jwt/index.js";

const CHALLENGE = `${BASE_URL}/two-factor-challenge`;
const PENDING_COOKIE = "appauth.two-factor";

interface World {
  adapter: MemoryAdapterInstance;
  config: AuthConfig;
  totpSecret: string;
  recoveryCodes: string[];
  events: Array<{ type: string; message: unknown }>;
}

async function enrolledAda(strategy: "jwt" | "database", options: { enrolled?: boolean } = {}): Promise<World> {
  const adapter = MemoryAdapter();
  await adapter.createUser({ ...ADA, emailVerified: new Date() });
  const totpSecret = generateTotpSecret();
  const recoveryCodes = generateRecoveryCodes(2);
  if (options.enrolled !== false) {
    await adapter.createTwoFactor({
      id: "phone",
      userId: ADA.id,
      type: "totp",
      createdAt: new Date(),
      secret: await sealSecret(totpSecret, SECRET),
      lastUsedStep: -1,
      active: true,
    });
    await adapter.replaceRecoveryCodes(ADA.id, await Promise.all(recoveryCodes.map(async (code) => (await hashRecoveryCode(code, SECRET))!)));
  }
  const events: World["events"] = [];
  const record = (type: string) => (message: unknown) => void events.push({ type, message });
  const config = testConfig({
    adapter,
    session: { strategy },
    twoFactor: {},
    events: {
      signIn: record("signIn"),
      twoFactorChallenged: record("twoFactorChallenged"),
      twoFactorPassed: record("twoFactorPassed"),
      twoFactorFailed: record("twoFactorFailed"),
    },
  });
  return { adapter, config, totpSecret, recoveryCodes, events };
}

/** Signs in with the password and follows nothing: the answer is the redirect the browser would follow. */
async function password(browser: TestClient): Promise<Response> {
  return browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
}

async function submitCode(browser: TestClient, fields: Record<string, string>): Promise<Response> {
  const csrfToken = await browser.csrf();
  return browser.post("/two-factor-challenge", { csrfToken, ...fields });
}

describe.each(["jwt", "database"] as const)("the second-factor challenge (%s sessions)", (strategy) => {
  let world: World;
  beforeEach(async () => {
    world = await enrolledAda(strategy);
  });
  afterEach(() => vi.useRealTimers());

  it("stops a password sign-in of an enrolled user at the challenge: no session, no signIn event", async () => {
    const browser = new TestClient(world.config);
    const answer = await password(browser);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(CHALLENGE);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(browser.cookie(PENDING_COOKIE)).toBeDefined();
    expect(await browser.session()).toBeNull();
    expect(world.events.map((e) => e.type)).toEqual(["twoFactorChallenged"]);
    const page = await browser.get("/two-factor-challenge");
    const markup = await page.text();
    expect(markup).toContain('autocomplete="one-time-code"');
    expect(markup).toContain('inputmode="numeric"');
    expect(markup).toContain('<label for="code">');
  });

  it("signs the user in after a correct code: same user, a working session, and (JWT) amr and auth_time", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const answer = await submitCode(browser, { code: await generateTotp(world.totpSecret, Date.now()) });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("http://localhost:3000/dashboard");
    expect(browser.cookie(PENDING_COOKIE)).toBeUndefined();
    const session = (await browser.session()) as { user: { email: string } } | null;
    expect(session?.user.email).toBe(ADA.email);
    if (strategy === "jwt") {
      const token = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
      expect(token).toMatchObject({ sub: ADA.id, amr: ["pwd", "otp", "mfa"] });
      expect(typeof token?.auth_time).toBe("number");
    }
    expect(await world.adapter.getUser(ADA.id)).toMatchObject({ id: ADA.id, email: ADA.email });
    expect(world.events.map((e) => e.type)).toEqual(["twoFactorChallenged", "twoFactorPassed", "signIn"]);
  });

  it("sends a wrong code back to the challenge page with an error type and without the code", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const answer = await submitCode(browser, { code: "000000" === (await generateTotp(world.totpSecret, Date.now())) ? "111111" : "000000" });
    expect(answer.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidCode`);
    expect(await browser.session()).toBeNull();
  });

  it("accepts a recovery code once", async () => {
    const first = new TestClient(world.config);
    await password(first);
    await submitCode(first, { recoveryCode: world.recoveryCodes[0]! });
    expect(await first.session()).not.toBeNull();
    const second = new TestClient(world.config);
    await password(second);
    const again = await submitCode(second, { recoveryCode: world.recoveryCodes[0]! });
    expect(again.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidCode`);
    expect(await second.session()).toBeNull();
  });

  it("refuses the 6th wrong code for one user without checking it, even when it is right", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const right = await generateTotp(world.totpSecret, Date.now());
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await submitCode(browser, { code: wrong })).headers.get("location")).toContain("InvalidCode");
    const sixth = await submitCode(browser, { code: right });
    expect(sixth.headers.get("location")).toBe(`${CHALLENGE}?error=RateLimited`);
    expect(await browser.session()).toBeNull();
    expect(world.events.at(-1)).toEqual({ type: "twoFactorFailed", message: { userId: ADA.id, rateLimited: true } });
  });

  it("does not let a pending cookie be replayed after it was used", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const captured = browser.cookie(PENDING_COOKIE)!;
    await submitCode(browser, { code: await generateTotp(world.totpSecret, Date.now()) });
    const attacker = new TestClient(world.config);
    attacker.setCookie(PENDING_COOKIE, encodeURIComponent(captured));
    vi.useFakeTimers({ now: Date.now() + 30_000, toFake: ["Date"] });
    const replay = await submitCode(attacker, { code: await generateTotp(world.totpSecret, Date.now()) });
    expect(replay.headers.get("location")).toContain("error=Verification");
    expect(await attacker.session()).toBeNull();
  });

  it("does not accept a pending cookie after five minutes", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const captured = browser.cookie(PENDING_COOKIE)!;
    vi.useFakeTimers({ now: Date.now() + 5 * 60_000 + 1000, toFake: ["Date"] });
    browser.setCookie(PENDING_COOKIE, encodeURIComponent(captured));
    const late = await submitCode(browser, { code: await generateTotp(world.totpSecret, Date.now()) });
    expect(late.headers.get("location")).toContain("error=Verification");
    expect(await browser.session()).toBeNull();
  });

  it("does not resume the sign-in in another browser, which holds no pending cookie", async () => {
    const browser = new TestClient(world.config);
    await password(browser);
    const other = new TestClient(world.config);
    const answer = await submitCode(other, { code: await generateTotp(world.totpSecret, Date.now()) });
    expect(answer.headers.get("location")).toContain("error=Verification");
    expect(await other.session()).toBeNull();
  });

  it("signs a user without a second factor in directly", async () => {
    world = await enrolledAda(strategy, { enrolled: false });
    const browser = new TestClient(world.config);
    const answer = await password(browser);
    expect(answer.headers.get("location")).toBe("http://localhost:3000/dashboard");
    expect(await browser.session()).not.toBeNull();
  });
});
