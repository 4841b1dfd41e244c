/**
 * Step-up through `Auth`, in process: `requireRecentSecondFactor` (plain `Auth`) lets a session that
 * proved a second factor recently through and sends any other to `<basePath>/step-up`, which checks a
 * code and re-issues the *same* session (JWT: the same `appauthSid`; database: the same record) with
 * fresh `amr` and time of proof, then returns to the page asked for. From the other side: a wrong
 * code, a cross-site post, another site as `callbackUrl`, a signed-out visitor and a user with no
 * factor get nothing, and what they tried is spent from nobody's codes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decode } from "../../../src/jwt/index.js";
import { requireRecentSecondFactor } from "../../../src/server/step-up.js";
import type { AuthConfig, JWT } from "../../../src/types.js";
import { ADA, ORIGIN, SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { enrolledAdaWorld, signInWithCode, type EnrolledWorld } from "./enrolled-user.js";

const SENSITIVE = `${ORIGIN}/account/delete?confirm=1`;
const STEP_UP = `${ORIGIN}/auth/step-up`;
const TEN_MINUTES = 600_000;

/** What the application's guard answers for `browser` on the sensitive page: `null` lets it through. */
function guard(browser: TestClient, config: AuthConfig, maxAge = 300): Promise<Response | null> {
  const cookie = browser.cookieHeader();
  return requireRecentSecondFactor(new Request(SENSITIVE, { headers: cookie ? { cookie } : {} }), config, { maxAge });
}

/** Where the page's forms send the person once the code passes: the `callbackUrl` of their action. */
function callbackOfForms(markup: string): string | null {
  const action = /<form method="post" action="([^"]+)"/.exec(markup)?.[1]?.replaceAll("&amp;", "&");
  return action ? new URL(action).searchParams.get("callbackUrl") : null;
}

async function jwtOf(browser: TestClient): Promise<JWT | null> {
  return decode({ token: browser.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
}

async function stepUp(browser: TestClient, fields: Record<string, string>, callbackUrl = SENSITIVE): Promise<Response> {
  return browser.post("/step-up", { csrfToken: await browser.csrf(), callbackUrl, ...fields });
}

describe.each(["jwt", "database"] as const)("step-up (%s sessions)", (strategy) => {
  let world: EnrolledWorld;
  let config: AuthConfig;
  let events: string[];

  beforeEach(async () => {
    world = await enrolledAdaWorld();
    events = [];
    config = world.config({
      session: { strategy },
      events: {
        twoFactorPassed: () => void events.push("passed"),
        twoFactorFailed: () => void events.push("failed"),
      },
    });
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterEach(() => vi.useRealTimers());

  /** Ada, signed in with her password and code ten minutes ago. */
  async function staleAda(): Promise<TestClient> {
    const browser = new TestClient(config);
    await signInWithCode(browser, world);
    // Fresh from the challenge, the session (JWT or database record) passes; ten minutes on it does not.
    expect(await guard(browser, config)).toBeNull();
    vi.setSystemTime(Date.now() + TEN_MINUTES);
    events.length = 0;
    return browser;
  }

  it("sends a session whose second factor is older than maxAge through the step-up, and back with the same session", async () => {
    const browser = await staleAda();
    const before = strategy === "jwt" ? await jwtOf(browser) : null;
    const databaseToken = browser.cookie(SESSION_COOKIE);

    const sent = await guard(browser, config);
    expect(sent?.status).toBe(303);
    const location = new URL(sent!.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(STEP_UP);
    expect(location.searchParams.get("callbackUrl")).toBe("/account/delete?confirm=1");

    const page = await browser.get(`/step-up${location.search}`);
    expect(page.status).toBe(200);
    const markup = await page.text();
    expect(markup).toContain('autocomplete="one-time-code"');
    expect(callbackOfForms(markup)).toBe(SENSITIVE);

    const passed = await stepUp(browser, { code: await world.code() });
    expect(passed.status).toBe(302);
    expect(passed.headers.get("location")).toBe(SENSITIVE);
    expect(events).toEqual(["passed"]);
    expect(await guard(browser, config)).toBeNull();

    if (strategy === "jwt") {
      const after = await jwtOf(browser);
      expect(after?.appauthSid).toBe(before?.appauthSid);
      expect(after?.appauthSignedInAt).toBe(before?.appauthSignedInAt);
      expect(after).toMatchObject({ sub: ADA.id, amr: ["pwd", "otp", "mfa"], auth_time: Math.floor(Date.now() / 1000) });
    } else {
      // The record itself now says what was proved; the cookie (its token) is the one it had.
      expect(browser.cookie(SESSION_COOKIE)).toBe(databaseToken);
      const found = await world.adapter.getSessionAndUser!(databaseToken!);
      expect(found?.session).toMatchObject({ amr: expect.arrayContaining(["otp", "mfa"]), authTime: new Date(Date.now()) });
    }
    expect(((await browser.session()) as { user?: { email?: string } } | null)?.user?.email).toBe(ADA.email);
  });

  it("accepts a recovery code, once", async () => {
    const browser = await staleAda();
    expect((await stepUp(browser, { recoveryCode: world.recoveryCodes[0]! })).headers.get("location")).toBe(SENSITIVE);
    expect(await guard(browser, config)).toBeNull();
    vi.setSystemTime(Date.now() + TEN_MINUTES);
    const again = await stepUp(browser, { recoveryCode: world.recoveryCodes[0]! });
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("InvalidCode");
    expect(await guard(browser, config)).not.toBeNull();
  });

  it("sends a wrong code back to the page by the error's name, the code nowhere, and the session as stale as it was", async () => {
    const browser = await staleAda();
    const right = await world.code();
    const wrong = right === "000000" ? "111111" : "000000";
    const refused = await stepUp(browser, { code: wrong });
    const location = refused.headers.get("location")!;
    expect(new URL(location).pathname).toBe("/auth/step-up");
    expect(new URL(location).searchParams.get("error")).toBe("InvalidCode");
    expect(new URL(location).searchParams.get("callbackUrl")).toBe(SENSITIVE);
    expect(location).not.toContain(wrong);
    expect(refused.headers.get("set-cookie") ?? "").not.toContain(SESSION_COOKIE);
    expect(await guard(browser, config)).not.toBeNull();
    expect(events).toEqual(["failed"]);
    // The person, with the right code, goes on.
    expect((await stepUp(browser, { code: right })).headers.get("location")).toBe(SENSITIVE);
  });

  it("counts attempts with the challenge's limits: past five wrong codes even the right one is refused unchecked", async () => {
    const browser = await staleAda();
    const right = await world.code();
    const wrongCodes = ["000000", "111111"].filter((code) => code !== right);
    const errors = [];
    for (let attempt = 0; attempt < 5; attempt++) errors.push(new URL((await stepUp(browser, { code: wrongCodes[0]! })).headers.get("location")!).searchParams.get("error"));
    expect(errors).toEqual(Array(5).fill("InvalidCode"));
    const refused = await stepUp(browser, { code: right });
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("RateLimited");
    expect(await guard(browser, config)).not.toBeNull();
    expect(events.at(-1)).toBe("failed");
  });

  it("refuses a cross-site post (no CSRF token): nothing proved, and the code is still Ada's to use", async () => {
    const browser = await staleAda();
    const code = await world.code();
    const forged = await browser.post("/step-up", { code, callbackUrl: SENSITIVE });
    expect(forged.headers.get("location") ?? "").not.toBe(SENSITIVE);
    expect(forged.headers.get("set-cookie") ?? "").not.toContain(`${SESSION_COOKIE}=`);
    expect(await guard(browser, config)).not.toBeNull();
    expect(events).toEqual([]);
    expect((await stepUp(browser, { code })).headers.get("location")).toBe(SENSITIVE);
  });

  it("never sends the browser to another site: a foreign callbackUrl lands on the application", async () => {
    const browser = await staleAda();
    for (const foreign of ["https://evil.example/steal", "//evil.example", "/\\evil.example"]) {
      const page = await browser.get(`/step-up?callbackUrl=${encodeURIComponent(foreign)}`);
      expect(new URL(callbackOfForms(await page.text())!).origin).toBe(ORIGIN);
    }
    const passed = await stepUp(browser, { code: await world.code() }, "https://evil.example/steal");
    expect(new URL(passed.headers.get("location")!).origin).toBe(ORIGIN);
  });

  it("sends a signed-out visitor to sign in (which asks for the factor) and back to the page", async () => {
    const stranger = new TestClient(config);
    const sent = await guard(stranger, config);
    const location = new URL(sent!.headers.get("location")!);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("callbackUrl")).toBe("/account/delete?confirm=1");
    const page = await stranger.get(`/step-up?callbackUrl=${encodeURIComponent(SENSITIVE)}`);
    expect(new URL(page.headers.get("location")!).pathname).toBe("/auth/signin");
    const posted = await stepUp(stranger, { code: await world.code() });
    expect(new URL(posted.headers.get("location")!).pathname).toBe("/auth/signin");
    expect(events).toEqual([]);
  });

  it("answers a user with no second factor SecondFactorRequired, with the way to add one", async () => {
    const bare = await enrolledAdaWorld({ enrolled: false });
    const bareConfig = bare.config({ session: { strategy } });
    const browser = new TestClient(bareConfig);
    await signInWithCode(browser, bare);
    expect(await browser.session()).not.toBeNull();
    expect((await guard(browser, bareConfig))?.status).toBe(303);
    const page = await browser.get(`/step-up?callbackUrl=${encodeURIComponent(SENSITIVE)}`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('href="http://localhost:3000/auth/two-factor"');
    const json = await browser.get("/step-up", { headers: { accept: "application/json" } });
    expect(json.status).toBe(403);
    expect(await json.json()).toMatchObject({ error: "SecondFactorRequired", enrollUrl: "http://localhost:3000/auth/two-factor" });
    const posted = await stepUp(browser, { code: await bare.code() });
    expect(posted.status).toBe(403);
    expect(await guard(browser, bareConfig)).not.toBeNull();
  });
});

describe("requireRecentSecondFactor", () => {
  it("refuses a maxAge that is not a positive number of seconds, and a configuration without twoFactor", async () => {
    const world = await enrolledAdaWorld();
    const request = new Request(SENSITIVE);
    await expect(requireRecentSecondFactor(request, world.config(), { maxAge: 0 })).rejects.toThrow(TypeError);
    await expect(requireRecentSecondFactor(request, world.config(), { maxAge: Number.NaN })).rejects.toThrow(TypeError);
    await expect(requireRecentSecondFactor(request, world.config({ twoFactor: undefined }), { maxAge: 300 })).rejects.toThrow(/twoFactor/);
  });
});
