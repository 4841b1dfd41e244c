/**
 * The Next.js example's second factor in Chromium (issue 28): the demo account enrolls an
 * authenticator app on `/api/auth/two-factor` (the test reads the key the page shows and computes
 * codes with the library's own TOTP), passes a step-up before `/protected/sensitive`, signs out, signs
 * in with password and code, then with a recovery code. Its own app instance and SQLite file, so
 * the factor it enrolls never reaches the other e2e files' demo account.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildExample, startExample, type RunningExample } from "../../scripts/start-next.js";
import { generateTotp, TOTP_PERIOD } from "../../src/two-factor/totp.js";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { sessionCookieNames, submitBuiltInPassword } from "./example-pages.js";
import { freshExample, type FreshExample } from "./fresh-example.js";

/** A cold `next build` on two busy cores, plus starting the app. */
const SETUP_TIMEOUT = 420_000;
const SENSITIVE = "/protected/sensitive";

const hasChromium = chromiumFor("the e2e test of the Next.js example's second factor");

/**
 * The codes of one authenticator app, each of a later time step than the last (a step works once):
 * the step before the current one first, then on; the server accepts one step of drift either way,
 * so three codes need no waiting.
 */
function authenticatorApp(secret: string): () => Promise<string> {
  let lastStep = -Infinity;
  return () => {
    const current = Math.floor(Date.now() / 1000 / TOTP_PERIOD);
    const step = Math.max(lastStep + 1, current - 1);
    if (step > current + 1) throw new Error("the test used more codes than the clock allows");
    lastStep = step;
    return generateTotp(secret, step * TOTP_PERIOD * 1000);
  };
}

describe.runIf(hasChromium)("the Next.js example's second factor in Chromium", BROWSER_SUITE, () => {
  let example: FreshExample | undefined;
  let app: RunningExample;
  let context: BrowserContext;
  let page: Page;
  const url = (path: string) => new URL(path, app.url).href;

  beforeAll(async () => {
    await buildExample({ output: "capture" });
    example = await freshExample(startExample, "next-2fa-e2e");
    app = example.app;
    context = await example.browser.newContext({ baseURL: app.url });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  }, SETUP_TIMEOUT);

  afterEach(({ task }) => {
    if (task.result?.state === "fail") console.error(`[e2e next 2fa] the app printed:\n${example?.output.slice(-60).join("\n")}`);
  });

  afterAll(() => example?.close());

  /** The ids of this person's sessions, as "Your devices" lists them. */
  const sessionIds = async () => {
    const answer = (await (await page.request.get("/api/auth/sessions")).json()) as { sessions: { id: string }[] };
    return answer.sessions.map((session) => session.id);
  };

  const heading = () => page.getByRole("heading", { level: 1 }).textContent();

  async function signOut(): Promise<void> {
    await page.goto("/api/auth/signout");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((at) => !at.pathname.startsWith("/api/auth/signout"));
    expect(await sessionCookieNames(context, app.url)).toEqual([]);
  }

  it("enrolls an app, steps up before the sensitive page, then signs in with password and code, and with a recovery code", async () => {
    // Signed in with the password alone, the sensitive page asks for a second factor the account lacks.
    await page.goto(SENSITIVE);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
    await submitBuiltInPassword(page, "demo", "demo");
    await page.waitForURL((at) => at.pathname === "/api/auth/step-up");
    expect(await heading()).toBe("Add a second factor");

    // Enrollment: the key the page shows, the first code turns the app on, recovery codes once.
    await page.getByRole("link", { name: "Set up an authenticator app" }).click();
    await page.waitForURL(url("/api/auth/two-factor"));
    await page.getByRole("button", { name: "Set up" }).click();
    const secret = (await page.locator("code.secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const nextCode = authenticatorApp(secret);
    await page.getByLabel("Code from your authenticator app").fill(await nextCode());
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(() => page.locator("ol.codes li").count()).toBe(10);
    const recoveryCodes = await page.locator("ol.codes li").allTextContents();

    // Step-up: this session proved only the password; the code sends it on to the page, same session.
    await page.goto(SENSITIVE);
    await page.waitForURL((at) => at.pathname === "/api/auth/step-up");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(SENSITIVE);
    expect(await heading()).toBe("Two-step verification");
    const sessionsBefore = await sessionIds();
    await page.locator("#code").fill(await nextCode());
    await page.locator("form", { has: page.locator("#code") }).getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(url(SENSITIVE));
    expect(await heading()).toBe("Sensitive page");
    // The same session, not a new one: "Your devices" lists the one it listed before.
    expect(sessionsBefore).toHaveLength(1);
    expect(await sessionIds()).toEqual(sessionsBefore);

    // Password, then the code.
    await signOut();
    await page.goto("/protected");
    await submitBuiltInPassword(page, "demo", "demo");
    await page.waitForURL((at) => at.pathname === "/api/auth/two-factor-challenge");
    expect(await sessionCookieNames(context, app.url)).toEqual([]);
    await page.locator("#code").fill(await nextCode());
    await page.locator("form", { has: page.locator("#code") }).getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(url("/protected"));
    expect(await heading()).toBe("Protected page");

    // Password, then a recovery code; this sign-in's proof is fresh, so the sensitive page opens at once.
    await signOut();
    await page.goto("/protected");
    await submitBuiltInPassword(page, "demo", "demo");
    await page.waitForURL((at) => at.pathname === "/api/auth/two-factor-challenge");
    await page.getByText("Use a recovery code").click();
    await page.locator("#recoveryCode").fill(recoveryCodes[0]!);
    await page.locator("form", { has: page.locator("#recoveryCode") }).getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(url("/protected"));
    await page.goto(SENSITIVE);
    expect(new URL(page.url()).pathname).toBe(SENSITIVE);
    expect(await heading()).toBe("Sensitive page");
  });
});
