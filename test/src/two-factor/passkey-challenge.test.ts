/**
 * A passkey as the second factor, over HTTP with real WebAuthn assertions from a software
 * authenticator: Ada (password + an authenticator app + a passkey) answers the challenge with her
 * passkey; another person's passkey, a replayed or foreign-challenge answer, a wrong origin or RP ID
 * are refused, counted with the codes, and leave no session, while Ada keeps her way in. Also: a
 * passkey as the *first* factor counts as both by default, and is challenged (by a code, not a second
 * passkey) when `passkeyCountsAsBoth` is false.
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { beforeEach, describe, expect, it } from "vitest";
import { challengePasskeyScript } from "../../../src/pages/two-factor-challenge.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import { decode } from "../../../src/jwt/index.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import type { AdapterAuthenticator, AuthConfig } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, passwordProvider, SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { PasskeyClient, passkeyConfig, softAuthenticator, type PasskeyConfig } from "../webauthn/fixtures.js";
import type { SoftAuthenticator } from "../webauthn/soft-authenticator.js";

const CHALLENGE = `${BASE_URL}/two-factor-challenge`;
const DASHBOARD = "http://localhost:3000/dashboard";
const GRACE = { id: "user-grace", name: "Grace Hopper", email: "grace@example.com", image: null };
/** Authenticator data flags with user presence only (no user verification). */
const USER_PRESENT_ONLY = 0x01;

interface World {
  config: PasskeyConfig;
  totpSecret: string;
  ada: SoftAuthenticator;
  grace: SoftAuthenticator;
  events: Array<{ type: string; message: unknown }>;
}

/** Stores `authenticator` as `userId`'s passkey: a `webauthn` account and the authenticator row. */
async function givePasskey(config: PasskeyConfig, userId: string, authenticator: SoftAuthenticator): Promise<void> {
  const credentialID = authenticator.storedId;
  await config.adapter.linkAccount({ userId, provider: "passkey", type: "webauthn", providerAccountId: credentialID });
  const credentialPublicKey = Buffer.from(await authenticator.coseKey()).toString("base64");
  const row: AdapterAuthenticator = { credentialID, providerAccountId: credentialID, credentialPublicKey, userId, counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false };
  await config.adapter.createAuthenticator({ ...row, transports: "internal" });
}

async function world(overrides: Partial<AuthConfig> = {}, options: { adaPasskey?: boolean } = {}): Promise<World> {
  const events: World["events"] = [];
  const watched = ["signIn", "twoFactorChallenged", "twoFactorPassed", "twoFactorFailed"];
  const listeners = Object.fromEntries(watched.map((type) => [type, (message: unknown) => void events.push({ type, message })]));
  const config = passkeyConfig({ providers: [passwordProvider(), Passkey()], twoFactor: {}, events: listeners, ...overrides });
  await config.adapter.createUser({ ...ADA, emailVerified: new Date() });
  await config.adapter.createUser({ ...GRACE, emailVerified: new Date() });
  const totpSecret = generateTotpSecret();
  const factor = { id: "phone", userId: ADA.id, type: "totp" as const, createdAt: new Date(), lastUsedStep: -1, active: true };
  await config.adapter.createTwoFactor({ ...factor, secret: await sealSecret(totpSecret, SECRET) });
  const ada = await softAuthenticator();
  const grace = await softAuthenticator();
  if (options.adaPasskey !== false) await givePasskey(config, ADA.id, ada);
  await givePasskey(config, GRACE.id, grace);
  return { config, totpSecret, ada, grace, events };
}

/** A browser in which Ada typed her password: it holds her pending sign-in. */
async function pendingAda(w: World): Promise<PasskeyClient> {
  const browser = new PasskeyClient(w.config);
  const answer = await browser.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/dashboard" });
  expect(answer.headers.get("location")).toBe(CHALLENGE);
  return browser;
}

/** What the page's script asks for: the ceremony's options for this browser's pending sign-in. */
async function optionsResponse(browser: PasskeyClient): Promise<Response> {
  return browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), op: "passkey-options" }, { headers: { accept: "application/json" } });
}

async function passkeyOptions(browser: PasskeyClient): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const response = await optionsResponse(browser);
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options;
}

/** What the page's script posts once the authenticator answered. */
async function postPasskey(browser: PasskeyClient, answer: AuthenticationResponseJSON): Promise<Response> {
  return browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), passkey: JSON.stringify(answer) });
}

async function jwtOf(browser: PasskeyClient): Promise<Record<string, unknown> | null> {
  return decode({ token: browser.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
}

const counterOf = async (w: World, a: SoftAuthenticator) => (await w.config.adapter.getAuthenticator(a.storedId))?.counter;

describe.each(["jwt", "database"] as const)("a passkey as the second factor (%s sessions)", (strategy) => {
  let w: World;
  beforeEach(async () => {
    w = await world({ session: { strategy } });
  });

  it("signs Ada in with her own passkey: options name only her passkeys, the counter is stored, amr says pwd + hwk", async () => {
    const browser = await pendingAda(w);
    const page = await (await browser.get("/two-factor-challenge")).text();
    expect(page).toMatch(/<button class="btn" type="button">.*Use a passkey/);
    expect(page).toContain("data-two-factor-passkey");

    const options = await passkeyOptions(browser);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([w.ada.id]);
    expect(options.userVerification).toBe("preferred");
    expect(options.rpId).toBe("localhost");
    expect(await browser.session()).toBeNull();

    const answer = await postPasskey(browser, await w.ada.authenticate(options));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(DASHBOARD);
    expect(((await browser.session()) as { user: { email: string } }).user.email).toBe(ADA.email);
    expect(await counterOf(w, w.ada)).toBe(1);
    if (strategy === "jwt") expect(await jwtOf(browser)).toMatchObject({ sub: ADA.id, amr: ["pwd", "hwk", "mfa"] });
    expect(w.events.map((e) => e.type)).toEqual(["twoFactorChallenged", "twoFactorPassed", "signIn"]);
    expect(w.events[1]!.message).toEqual({ userId: ADA.id, type: "webauthn" });
  });

  it("refuses Grace's passkey on Ada's challenge (no session, counted, Grace's passkey untouched); Ada's own then works", async () => {
    const browser = await pendingAda(w);
    const options = await passkeyOptions(browser);
    // Grace's authenticator signs Ada's challenge (as if it had been offered), naming itself.
    const refused = await postPasskey(browser, await w.grace.authenticate(options));
    expect(refused.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    expect(await browser.session()).toBeNull();
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await counterOf(w, w.grace)).toBe(0);
    expect(w.events.at(-1)).toEqual({ type: "twoFactorFailed", message: { userId: ADA.id, rateLimited: false } });

    expect((await postPasskey(browser, await w.ada.authenticate(options))).headers.get("location")).toBe(DASHBOARD);
  });
});

describe("a passkey answer is bound to its challenge and its pending sign-in", () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  it("works once: a replay of a passed answer, in a new pending sign-in of Ada, is refused", async () => {
    const first = await pendingAda(w);
    const captured = await w.ada.authenticate(await passkeyOptions(first));
    expect((await postPasskey(first, captured)).headers.get("location")).toBe(DASHBOARD);

    const second = await pendingAda(w);
    const replay = await postPasskey(second, captured);
    expect(replay.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    expect(await second.session()).toBeNull();
  });

  it("uses a challenge up even when its answer failed: a second answer to it is refused, a fresh challenge works", async () => {
    const browser = await pendingAda(w);
    const options = await passkeyOptions(browser);
    const wrongOrigin = await w.ada.authenticate(options, { origin: "https://evil.example" });
    expect((await postPasskey(browser, wrongOrigin)).headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    const again = await postPasskey(browser, await w.ada.authenticate(options));
    expect(again.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    expect(await browser.session()).toBeNull();

    const fresh = await postPasskey(browser, await w.ada.authenticate(await passkeyOptions(browser)));
    expect(fresh.headers.get("location")).toBe(DASHBOARD);
  });

  it("refuses an answer to another pending sign-in's challenge, which stays usable there", async () => {
    const mine = await pendingAda(w);
    const options = await passkeyOptions(mine);
    const other = await pendingAda(w);
    const crossed = await postPasskey(other, await w.ada.authenticate(options));
    expect(crossed.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    expect(await other.session()).toBeNull();

    expect((await postPasskey(mine, await w.ada.authenticate(options))).headers.get("location")).toBe(DASHBOARD);
  });

  it("refuses a passkey of Ada's made for another RP ID", async () => {
    w = await world({}, { adaPasskey: false });
    const elsewhere = await softAuthenticator({ rpId: "evil.example" });
    await givePasskey(w.config, ADA.id, elsewhere);
    const browser = await pendingAda(w);
    const answer = await postPasskey(browser, await elsewhere.authenticate(await passkeyOptions(browser)));
    expect(answer.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    expect(await browser.session()).toBeNull();
  });

  it("accepts a security key without user verification (preferred, not required) as the second factor", async () => {
    const browser = await pendingAda(w);
    const answer = await postPasskey(browser, await w.ada.authenticate(await passkeyOptions(browser), { flags: USER_PRESENT_ONLY }));
    expect(answer.headers.get("location")).toBe(DASHBOARD);
  });

  it("refuses a tampered or non-JSON answer as InvalidPasskey, not a 500", async () => {
    const browser = await pendingAda(w);
    const options = await passkeyOptions(browser);
    const tampered = await w.ada.authenticate(options, { tamper: (data) => ({ ...data, challenge: "AAAA" }) });
    for (const posted of [JSON.stringify(tampered), "{not json", JSON.stringify({ id: 42 })]) {
      const answer = await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), passkey: posted });
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(`${CHALLENGE}?error=InvalidPasskey`);
    }
    expect(await browser.session()).toBeNull();
  });

  it("counts passkey answers with codes: after 5 wrong answers of either kind, Ada's own passkey is refused unchecked", async () => {
    const browser = await pendingAda(w);
    const right = await generateTotp(w.totpSecret, Date.now());
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) {
      await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code: wrong });
    }
    for (let i = 0; i < 2; i++) await postPasskey(browser, await w.grace.authenticate(await passkeyOptions(browser)));
    const options = await passkeyOptions(browser);
    const sixth = await postPasskey(browser, await w.ada.authenticate(options));
    expect(sixth.headers.get("location")).toBe(`${CHALLENGE}?error=RateLimited`);
    expect(await browser.session()).toBeNull();
    expect(await counterOf(w, w.ada)).toBe(0);
    expect(w.events.at(-1)).toEqual({ type: "twoFactorFailed", message: { userId: ADA.id, rateLimited: true } });
  });
});

describe("whether a user has a passkey", () => {
  it("is not told to a browser without the pending cookie: the same refusal for Ada (passkey) and Grace (none)", async () => {
    const w = await world();
    const stranger = new PasskeyClient(w.config);
    const page = await stranger.get("/two-factor-challenge");
    expect(page.headers.get("location")).toBe(`${BASE_URL}/signin?error=Verification`);
    const options = await optionsResponse(stranger);
    expect(options.status).toBe(302);
    expect(options.headers.get("location")).toContain("error=Verification");
    expect(await options.text()).not.toContain("allowCredentials");
  });

  it("shows no passkey button and mints no options for a challenged user without one", async () => {
    const w = await world({}, { adaPasskey: false });
    const browser = await pendingAda(w);
    const page = await (await browser.get("/two-factor-challenge")).text();
    expect(page).not.toContain("Use a passkey");
    expect(page).toContain('autocomplete="one-time-code"');
    const options = await optionsResponse(browser);
    expect(options.status).toBe(400);
    expect(await options.json()).toMatchObject({ error: "WebAuthnVerificationError" });
  });
});

describe("a passkey as the first factor of a user with a second factor", () => {
  it("counts as both by default: signed in at once, amr hwk + mfa, no challenge", async () => {
    const w = await world({ session: { strategy: "jwt" } });
    const browser = new PasskeyClient(w.config);
    const answer = await browser.authenticate(w.ada);
    expect(answer.headers.get("location")).not.toContain("two-factor-challenge");
    expect(await browser.signedInAs()).toBe(ADA.email);
    expect(await jwtOf(browser)).toMatchObject({ sub: ADA.id, amr: ["hwk", "mfa"] });
    expect(w.events.map((e) => e.type)).toEqual(["signIn"]);
  });

  it("is challenged with passkeyCountsAsBoth: false, by a code only (not the passkey again); the code then signs in", async () => {
    const w = await world({ session: { strategy: "jwt" }, twoFactor: { passkeyCountsAsBoth: false } });
    const browser = new PasskeyClient(w.config);
    const answer = await browser.authenticate(w.ada);
    expect(answer.headers.get("location")).toBe(CHALLENGE);
    expect(await browser.session()).toBeNull();
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();

    expect(await (await browser.get("/two-factor-challenge")).text()).not.toContain("Use a passkey");
    expect((await optionsResponse(browser)).status).toBe(400);

    const code = await generateTotp(w.totpSecret, Date.now());
    const passed = await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code });
    expect(passed.headers.get("location")).toBe(DASHBOARD);
    expect(await browser.signedInAs()).toBe(ADA.email);
    expect(await jwtOf(browser)).toMatchObject({ sub: ADA.id, amr: ["hwk", "otp", "mfa"] });
  });
});

describe("the challenge page's passkey script", () => {
  it("is static, self-contained script text that parses and cannot close its script element", () => {
    expect(() => new Function(challengePasskeyScript)).not.toThrow();
    expect(challengePasskeyScript).not.toMatch(/<\/script|<!--|<script/i);
    expect(challengePasskeyScript).not.toMatch(/https?:\/\//);
    // The shared conversions are inlined, not referenced.
    expect(challengePasskeyScript).toContain("const credentialJSON = ");
  });
});
