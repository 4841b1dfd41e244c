/**
 * Database sessions record what their sign-in proved (RFC 8176 `amr`, and `authTime`), over the memory
 * and the SQLite adapters: a password alone records `["pwd"]`, a passed challenge adds `otp` and `mfa`.
 * The session callback is handed both, and an enrolled user on database sessions can change their
 * factors right after a passed challenge, while a session without a (recent) proof still cannot.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import type { AdapterSession, AuthConfig } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { twoFactorStores, type TwoFactorStore } from "./stores.js";

type Store = TwoFactorStore;


describe.each(twoFactorStores)("what a database session proved, over the $name adapter", (store) => {
  let adapter: Store;
  let close: () => Promise<void>;
  let config: AuthConfig;
  let totpSecret: string;
  let shown: Array<Record<string, unknown>>;

  beforeAll(async () => {
    ({ adapter, close } = await store.open());
  });
  afterAll(async () => close());

  beforeEach(async () => {
    await adapter.deleteUser!(ADA.id);
    await adapter.createUser!({ ...ADA, emailVerified: new Date() });
    shown = [];
    config = testConfig({
      adapter,
      session: { strategy: "database" },
      twoFactor: {},
      callbacks: {
        session: ({ session }) => {
          shown.push(session as unknown as Record<string, unknown>);
          return session;
        },
      },
    });
  });

  async function enrollAda(): Promise<void> {
    totpSecret = generateTotpSecret();
    const sealed = await sealSecret(totpSecret, SECRET);
    await adapter.createTwoFactor({ id: "phone", userId: ADA.id, type: "totp", createdAt: new Date(), secret: sealed, lastUsedStep: -1, active: true });
  }

  /** The stored record behind `browser`'s session cookie. */
  async function recordOf(browser: TestClient): Promise<AdapterSession | undefined> {
    const token = browser.cookie(SESSION_COOKIE);
    return token ? (await adapter.getSessionAndUser!(token))?.session : undefined;
  }

  async function signInWithCode(browser: TestClient): Promise<void> {
    await browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
    const answer = await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code: await generateTotp(totpSecret, Date.now()) });
    expect(answer.headers.get("location")).toBe("http://localhost:3000/dashboard");
  }

  async function change(browser: TestClient, form: Record<string, string>): Promise<Response> {
    return browser.post("/two-factor", { csrfToken: await browser.csrf(), ...form }, { headers: { accept: "application/json" } });
  }

  it("records a password alone as ['pwd'], with the time of the sign-in, and hands both to the session callback", async () => {
    const browser = new TestClient(config);
    const before = Date.now();
    await browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
    const record = await recordOf(browser);
    expect(record?.amr).toEqual(["pwd"]);
    expect(record?.authTime).toBeInstanceOf(Date);
    expect(record!.authTime!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await browser.session()).not.toBeNull();
    expect(shown.at(-1)).toMatchObject({ amr: ["pwd"], authTime: record!.authTime!.toISOString() });
  });

  it("records a passed challenge as ['pwd', 'otp', 'mfa'], and then lets the user renew codes and remove the app", async () => {
    await enrollAda();
    const browser = new TestClient(config);
    await signInWithCode(browser);
    const record = await recordOf(browser);
    expect(record?.amr).toEqual(["pwd", "otp", "mfa"]);
    expect(await browser.session()).not.toBeNull();
    expect(shown.at(-1)).toMatchObject({ amr: ["pwd", "otp", "mfa"] });

    const renewed = await change(browser, { op: "recovery-codes" });
    expect(renewed.status).toBe(200);
    expect(((await renewed.json()) as { recoveryCodes: string[] }).recoveryCodes.length).toBeGreaterThan(0);
    const removed = await change(browser, { op: "remove", factorId: "phone" });
    expect(removed.status).toBe(200);
    expect(await adapter.getTwoFactors(ADA.id)).toEqual([]);
  });

  it("refuses the change to a session that proved no second factor, or proved it too long ago, and keeps the factor", async () => {
    await enrollAda();
    const stale = new TestClient(config);
    await signInWithCode(stale);
    const token = stale.cookie(SESSION_COOKIE)!;
    // The same session, its proof ten minutes old.
    await adapter.deleteSession!(token);
    await adapter.createSession!({ sessionToken: token, userId: ADA.id, expires: new Date(Date.now() + 3_600_000), amr: ["pwd", "otp", "mfa"], authTime: new Date(Date.now() - 600_000) });
    // A session whose store kept no proof (as a published Auth.js adapter's): fails closed.
    const unproved = new TestClient(config);
    const bare = { sessionToken: `st-${crypto.randomUUID()}`, userId: ADA.id, expires: new Date(Date.now() + 3_600_000) };
    await adapter.createSession!(bare);
    unproved.setCookie(SESSION_COOKIE, bare.sessionToken);

    for (const browser of [stale, unproved]) {
      expect(await browser.session()).not.toBeNull();
      const refused = await change(browser, { op: "remove", factorId: "phone" });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: "SecondFactorRequired" });
    }
    expect(await adapter.getTwoFactors(ADA.id)).toHaveLength(1);
  });
});

describe("an adapter that keeps no session records of its own", () => {
  it("is not handed amr or authTime (it would drop or refuse them), and signing in still works", async () => {
    const memory = MemoryAdapter();
    const created: AdapterSession[] = [];
    // Two-factor methods added to an adapter without appauth's session-record extension.
    const { listSessions: _list, deleteSessions: _delete, ...rest } = memory;
    const adapter = {
      ...rest,
      createSession: async (session: AdapterSession) => {
        created.push(session);
        return memory.createSession(session);
      },
    };
    await adapter.createUser({ ...ADA, emailVerified: new Date() });
    const config = testConfig({ adapter, session: { strategy: "database" }, twoFactor: {} });
    const browser = new TestClient(config);
    await browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
    expect(await browser.session()).not.toBeNull();
    expect(created).toHaveLength(1);
    expect(Object.keys(created[0]!)).not.toContain("amr");
    expect(Object.keys(created[0]!)).not.toContain("authTime");
  });
});
