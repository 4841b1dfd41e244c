/**
 * `/two-factor` through `Auth`, in process, over the memory adapter and the SQLite SQL adapter: a
 * signed-in user enrolls an authenticator app (the code computed from the secret the answer shows),
 * gets recovery codes once, and removes a factor only with a second factor proved in the last five
 * minutes; nobody reaches another user's factors, and a request without the CSRF token changes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sampleUser } from "../../../src/adapters/test/index.js";
import { encode } from "../../../src/jwt/index.js";
import { useTotpCode } from "../../../src/two-factor/enrollment.js";
import { hashRecoveryCode } from "../../../src/two-factor/recovery-codes.js";
import { generateTotp } from "../../../src/two-factor/totp.js";
import type { AdapterUser } from "../../../src/types.js";
import { SECRET, SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { twoFactorStores, type TwoFactorStore } from "./stores.js";

type Store = TwoFactorStore;
const JSON_ACCEPT = { accept: "application/json" };


describe.each(twoFactorStores)("/two-factor over the $name adapter", (store) => {
  let adapter: Store;
  let close: () => Promise<void>;
  let config: TestConfig;
  let events: { name: string; message: unknown }[];

  beforeAll(async () => {
    ({ adapter, close } = await store.open());
  });
  afterAll(async () => close());

  beforeEach(() => {
    events = [];
    config = testConfig({
      adapter,
      session: { strategy: "jwt" },
      twoFactor: { issuer: "Acme" },
      events: {
        twoFactorEnrolled: (message) => void events.push({ name: "enrolled", message }),
        twoFactorRemoved: (message) => void events.push({ name: "removed", message }),
      },
    });
  });

  /** A browser signed in as `user`, its session saying what it proved (`amr`) and how long ago. */
  async function browserOf(user: AdapterUser, proof?: { amr: string[]; secondsAgo: number }, sessionId?: string): Promise<TestClient> {
    const claims = { sub: user.id, email: user.email, name: user.name, ...(sessionId ? { appauthSid: sessionId, appauthSignedInAt: Date.now() } : {}) };
    const token = await encode({
      token: proof ? { ...claims, amr: proof.amr, auth_time: Math.floor(Date.now() / 1000) - proof.secondsAgo } : claims,
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    const client = new TestClient(config);
    client.setCookie(SESSION_COOKIE, token);
    return client;
  }

  /** Whether `client`'s session still opens (GET /session names its user). */
  async function signedIn(client: TestClient): Promise<boolean> {
    const session = (await (await client.get("/session")).json()) as { user?: unknown } | null;
    return Boolean(session?.user);
  }

  async function newUser(): Promise<AdapterUser> {
    return adapter.createUser!(sampleUser());
  }

  async function post(client: TestClient, form: Record<string, string>, json = false): Promise<Response> {
    return client.post("/two-factor", { csrfToken: await client.csrf(), ...form }, json ? { headers: JSON_ACCEPT } : {});
  }

  /** Enrolls an authenticator app through the routes, as a browser would; its secret and recovery codes. */
  async function enroll(client: TestClient): Promise<{ factorId: string; secret: string; recoveryCodes: string[] }> {
    const started = (await (await post(client, { op: "start-totp" }, true)).json()) as { factorId: string; secret: string };
    const confirmed = await post(client, { op: "confirm-totp", factorId: started.factorId, code: await generateTotp(started.secret, Date.now()) }, true);
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
    return { ...started, recoveryCodes };
  }

  const twoFactorContext = () => ({ adapter, secret: [SECRET], issuer: "Acme" });

  it("refuses a signed-out visitor: the page sends them to sign in, JSON and posts answer 401, nothing is created", async () => {
    const client = new TestClient(config);
    const page = await client.get("/two-factor");
    expect(page.status).toBe(302);
    expect(new URL(page.headers.get("location")!).pathname).toBe("/auth/signin");
    expect(new URL(page.headers.get("location")!).searchParams.get("callbackUrl")).toBe("http://localhost:3000/auth/two-factor");
    expect((await client.get("/two-factor", { headers: JSON_ACCEPT })).status).toBe(401);
    const posted = await post(client, { op: "start-totp" }, true);
    expect(posted.status).toBe(401);
    expect(await posted.json()).toMatchObject({ error: "SessionRequired" });
  });

  it("refuses a post without the CSRF token and changes nothing, while the same post with it starts an enrollment", async () => {
    const user = await newUser();
    const client = await browserOf(user);
    const refused = await client.post("/two-factor", { op: "start-totp" });
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect(await adapter.getTwoFactors(user.id)).toEqual([]);
    expect((await post(client, { op: "start-totp" })).status).toBe(200);
    expect(await adapter.getTwoFactors(user.id)).toHaveLength(1);
  });

  it("shows the QR code and the secret once, and activates the app only with a correct code, which is then spent", async () => {
    const user = await newUser();
    const client = await browserOf(user);
    const started = await post(client, { op: "start-totp", label: "Phone" });
    const page = await started.text();
    expect(page).toMatch(/<svg role="img" aria-label="QR code[^"]*" class="qr"/);
    const secret = /<code class="secret"[^>]*>([A-Z2-7]+)<\/code>/.exec(page)![1]!;
    expect(page).toContain(`otpauth://totp/Acme:${encodeURIComponent(user.email!)}?secret=${secret}`);
    const factorId = /name="factorId" value="([^"]+)"/.exec(page)![1]!;
    const [pending] = await adapter.getTwoFactors(user.id);
    expect(pending).toMatchObject({ id: factorId, active: false, label: "Phone" });
    expect(pending!.secret).not.toContain(secret);

    const wrong = await post(client, { op: "confirm-totp", factorId, code: "000000" === (await generateTotp(secret, Date.now())) ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).not.toContain(secret);
    expect((await adapter.getTwoFactors(user.id))[0]!.active).toBe(false);

    const code = await generateTotp(secret, Date.now());
    const confirmed = await post(client, { op: "confirm-totp", factorId, code });
    expect(confirmed.status).toBe(200);
    expect((await adapter.getTwoFactors(user.id))[0]!.active).toBe(true);
    expect(events).toContainEqual({ name: "enrolled", message: { userId: user.id, type: "totp", factorId } });
    // The code that confirmed the app proves nothing more: not at sign-in, not to confirm again.
    expect(await useTotpCode(twoFactorContext(), { userId: user.id, code })).toBeNull();
    expect((await post(client, { op: "confirm-totp", factorId, code })).status).toBe(400);
  });

  it("shows recovery codes once, right after the app is confirmed, and keeps only their keyed hashes", async () => {
    const user = await newUser();
    const client = await browserOf(user);
    const { recoveryCodes } = await enroll(client);
    expect(recoveryCodes).toHaveLength(10);
    expect(await adapter.countRecoveryCodes(user.id)).toBe(10);
    const later = await (await client.get("/two-factor")).text();
    for (const code of recoveryCodes) expect(later).not.toContain(code);
    expect(later).toContain("10 left");
    // Stored as hashes: the code itself is no stored value, its keyed hash is (and works once).
    expect(await adapter.useRecoveryCode(user.id, recoveryCodes[0]!)).toBe(false);
    expect(await adapter.useRecoveryCode(user.id, (await hashRecoveryCode(recoveryCodes[0]!, SECRET))!)).toBe(true);
    expect(events).toContainEqual({ name: "enrolled", message: { userId: user.id, type: "recovery", factorId: "recovery" } });
  });

  it("refuses to remove a factor or renew codes without a recent second factor, says to sign in again, and keeps everything", async () => {
    const user = await newUser();
    const { factorId } = await enroll(await browserOf(user));
    for (const proof of [undefined, { amr: ["pwd"], secondsAgo: 10 }, { amr: ["pwd", "otp"], secondsAgo: 600 }]) {
      const client = await browserOf(user, proof);
      const json = await post(client, { op: "remove", factorId }, true);
      expect(json.status).toBe(403);
      expect(await json.json()).toMatchObject({ error: "SecondFactorRequired" });
      expect((await post(client, { op: "recovery-codes" }, true)).status).toBe(403);
      expect((await post(client, { op: "start-totp" }, true)).status).toBe(403);
      const page = await post(client, { op: "remove", factorId });
      expect(page.status).toBe(403);
      expect(await page.text()).toContain("Sign in again</a> with your second factor");
    }
    expect((await adapter.getTwoFactors(user.id)).map((f) => [f.id, f.active])).toEqual([[factorId, true]]);
    expect(await adapter.countRecoveryCodes(user.id)).toBe(10);
    expect(events.filter((e) => e.name === "removed")).toEqual([]);
  });

  it("lets a session that proved its second factor a minute ago renew the codes and remove the app", async () => {
    const user = await newUser();
    const { factorId, recoveryCodes } = await enroll(await browserOf(user));
    const client = await browserOf(user, { amr: ["pwd", "otp"], secondsAgo: 60 });
    const renewed = (await (await post(client, { op: "recovery-codes" }, true)).json()) as { recoveryCodes: string[] };
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(renewed.recoveryCodes).not.toContain(recoveryCodes[0]);
    const removed = await post(client, { op: "remove", factorId });
    expect(removed.status).toBe(200);
    expect(await adapter.getTwoFactors(user.id)).toEqual([]);
    expect(await adapter.countRecoveryCodes(user.id)).toBe(0);
    expect(events).toContainEqual({ name: "removed", message: { userId: user.id, type: "totp", factorId } });
  });

  it("answers another user's factor id exactly as an unknown one, and that user keeps their factor", async () => {
    const owner = await newUser();
    const { factorId } = await enroll(await browserOf(owner));
    const other = await newUser();
    await enroll(await browserOf(other));
    const client = await browserOf(other, { amr: ["pwd", "otp"], secondsAgo: 5 });
    const theirs = await post(client, { op: "remove", factorId }, true);
    const unknown = await post(client, { op: "remove", factorId: crypto.randomUUID() }, true);
    expect([theirs.status, await theirs.json()]).toEqual([unknown.status, await unknown.json()]);
    expect(theirs.status).toBe(404);
    expect((await adapter.getTwoFactors(owner.id)).map((f) => f.id)).toEqual([factorId]);
  });

  it("gives the page labelled, numeric one-time-code fields and puts nothing typed in a URL", async () => {
    const user = await newUser();
    const client = await browserOf(user);
    const home = await (await client.get("/two-factor")).text();
    expect(home).toMatch(/<label for="label">/);
    const page = await (await post(client, { op: "start-totp" })).text();
    const input = /<input[^>]*name="code"[^>]*>/.exec(page)![0];
    for (const attribute of ['autocomplete="one-time-code"', 'inputmode="numeric"', 'pattern="[0-9]*"', 'id="code"']) expect(input).toContain(attribute);
    expect(page).toContain('<label for="code">');
    expect(page).toMatch(/<form method="post" action="http:\/\/localhost:3000\/auth\/two-factor"/);
    expect(page).not.toMatch(/action="[^"]*\?/);
    expect(JSON.stringify(config.logger.entries)).not.toMatch(/secret=|code=/);
  });

  it("ends the user's other sessions when an authenticator app is confirmed or removed, and keeps the one making the change", async () => {
    const user = await newUser();
    const bystander = await newUser();
    const here = await browserOf(user, undefined, "session-here");
    const elsewhere = await browserOf(user, undefined, "session-elsewhere");
    const someoneElse = await browserOf(bystander, undefined, "session-bystander");
    expect(await signedIn(elsewhere)).toBe(true);

    const { factorId } = await enroll(here);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(someoneElse)).toBe(true);

    // A session signed in afterwards (with the second factor) survives until the next change, which ends it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await browserOf(user, { amr: ["pwd", "otp"], secondsAgo: 0 }, "session-later");
    expect(await signedIn(later)).toBe(true);
    const changer = await browserOf(user, { amr: ["pwd", "otp"], secondsAgo: 0 }, "session-changer");
    expect((await post(changer, { op: "remove", factorId }, true)).status).toBe(200);
    expect(await signedIn(changer)).toBe(true);
    expect(await signedIn(later)).toBe(false);
  });

  it("keeps the other sessions with endOtherSessions: false", async () => {
    config = testConfig({ adapter, session: { strategy: "jwt" }, twoFactor: { issuer: "Acme", endOtherSessions: false } });
    const user = await newUser();
    const here = await browserOf(user, undefined, "keep-here");
    const elsewhere = await browserOf(user, undefined, "keep-elsewhere");
    await enroll(here);
    expect(await signedIn(elsewhere)).toBe(true);
  });
});
