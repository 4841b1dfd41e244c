/**
 * The sign-in page in a real browser: keyboard focus order and accessible names as Chromium
 * computes them. Needs Debian's Chromium at /usr/bin/chromium; without it this file fails in CI
 * (CI=true) and is skipped, loudly, elsewhere.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderSignInPage } from "../../../src/pages/index.js";
import { CHROMIUM, CHROMIUM_ARGS } from "../../helpers/chromium.js";
import { CALLBACK, CSRF, allProviders, passkeyProvider } from "./fixtures.js";

const hasChromium = existsSync(CHROMIUM);
const inCI = process.env.CI === "true";

if (!hasChromium && !inCI) {
  console.warn(
    `\n${"!".repeat(78)}\n!! SKIPPING the browser tests of the built-in pages: ${CHROMIUM} is missing.\n` +
      `!! Install it with: apt-get update && apt-get install -y chromium\n${"!".repeat(78)}\n`,
  );
}

describe.runIf(!hasChromium && inCI)("the browser tests of the built-in pages in CI", () => {
  it("have Chromium to run in", () => {
    expect.fail(`${CHROMIUM} is missing; CI must install Debian's chromium package`);
  });
});

describe.skipIf(!hasChromium)("the sign-in page in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage();
  });

  // A fresh document for each test, so focus starts from the top of the page.
  beforeEach(async () => {
    const { html } = renderSignInPage({
      theme: { colorScheme: "auto" },
      providers: [...allProviders, passkeyProvider],
      csrfToken: CSRF,
      callbackUrl: CALLBACK,
      error: "CredentialsSignin",
    });
    await page.setContent(html);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** What has focus, as `input:<name>` or `button:<text>`. */
  async function focused(): Promise<string> {
    return page.evaluate(() => {
      const el = document.activeElement;
      if (el instanceof HTMLInputElement) return `input:${el.name}`;
      if (el instanceof HTMLButtonElement) return `button:${el.textContent?.trim() ?? ""}`;
      return el ? el.tagName.toLowerCase() : "none";
    });
  }

  it("moves focus with Tab through every button and field in page order, each form's fields before its button", async () => {
    const order: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      order.push(await focused());
    }
    expect(order).toEqual([
      "button:Sign in with GitHub",
      "button:Sign in with Acme ID",
      "input:username",
      "input:password",
      "button:Sign in with Password",
      "input:email",
      "button:Sign in with Email",
      "input:email",
      "button:Sign in with passkey",
      "button:Create a passkey",
    ]);
  });

  it("draws a visible outline around the element that has keyboard focus", async () => {
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab");
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element);
        return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
      });
      expect(outline.style).toBe("solid");
      expect(outline.width).toBeGreaterThanOrEqual(2);
    }
  });

  it("gives every input and button an accessible name, inputs from their labels", async () => {
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: { ignored: boolean; role?: { value?: string }; name?: { value?: string } }[];
    };
    const named = (role: string): string[] =>
      nodes.filter((n) => !n.ignored && n.role?.value === role).map((n) => String(n.name?.value ?? ""));
    // Two email fields, two purposes: each says which it is.
    expect(named("textbox")).toEqual(["Username", "Password", "Email for a sign-in link", "Email for your passkey"]);
    expect(named("button")).toEqual([
      "Sign in with GitHub",
      "Sign in with Acme ID",
      "Sign in with Password",
      "Sign in with Email",
      "Sign in with passkey",
      "Create a passkey",
    ]);
    const inputsWithoutLabel = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLInputElement>("input:not([type=hidden])")].filter((i) => i.labels?.length !== 1)
          .length,
    );
    expect(inputsWithoutLabel).toBe(0);
    await cdp.detach();
  });

  it("describes the passkey email field with its hint, and keeps the passkey alert out of the tree until it has something to say", async () => {
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: { ignored: boolean; role?: { value?: string }; name?: { value?: string }; description?: { value?: string } }[];
    };
    const emails = nodes.filter((n) => !n.ignored && n.role?.value === "textbox" && n.name?.value?.startsWith("Email"));
    expect(emails.map((n) => n.description?.value ?? "")).toEqual(["", "Optional to sign in with a passkey; needed to create one."]);
    await cdp.detach();
    // Without an error in the URL the page renders its alert hidden: nothing is announced on load.
    const { html } = renderSignInPage({ theme: { colorScheme: "auto" }, providers: [passkeyProvider], csrfToken: CSRF, callbackUrl: CALLBACK });
    await page.setContent(html);
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("announces the error message as an alert", async () => {
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: { ignored: boolean; role?: { value?: string } }[];
    };
    expect(nodes.filter((n) => !n.ignored && n.role?.value === "alert")).toHaveLength(1);
    await cdp.detach();
  });
});
