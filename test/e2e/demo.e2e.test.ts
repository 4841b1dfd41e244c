/**
 * The demo app (demo/app.ts) driven end to end in Debian's Chromium through playwright-core: the
 * built-in sign-in and sign-out pages, the session cookie, the app's own pages and its dev mailbox,
 * as a person using a browser sees them. The demo runs in-process on a free port of `localhost`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, chromiumFor, BROWSER_SUITE } from "../helpers/chromium.js";
import {
  auditPages,
  CLEAN_AUDIT,
  READABLE_AND_FITTING,
  SESSION_COOKIE,
  sessionCookieNames,
  sessionJsonOf,
  signInAsDemoOn,
  submitBuiltInPassword,
  timesAndPhoneHeader,
} from "./example-pages.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemo, type RunningDemo } from "../../demo/app.js";

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/e2e/", import.meta.url));
const CREDENTIALS_ERROR = "Sign in failed. Check the details you provided are correct.";

const hasChromium = chromiumFor("the e2e tests of the demo");

describe.runIf(hasChromium)("the demo app in Chromium", BROWSER_SUITE, () => {
  let demo: RunningDemo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;
  /** What the library logged, so expected refusals stay quiet and anything else is shown. */
  const logged: { level: string; code: string }[] = [];
  // A person's mistakes (a wrong password, a used link, a stale form) are warnings, not errors.
  const EXPECTED_WARNINGS = new Set(["CredentialsSignin", "MissingCSRF", "Verification"]);

  const url = (path: string) => new URL(path, demo.url).href;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "appauth-demo-e2e-"));
    demo = await startDemo({
      port: 0,
      host: "localhost",
      // A fresh generated secret in a temporary folder: the repo's demo/.data is left alone.
      secretFile: join(dataDir, "secret"),
      dataDir,
      logger: {
        error(code, ...message) {
          logged.push({ level: "error", code });
          console.error(`[appauth][error] ${code}`, ...message);
        },
        warn(code, ...message) {
          logged.push({ level: "warn", code });
          if (!EXPECTED_WARNINGS.has(code)) console.warn(`[appauth][warn] ${code}`, ...message);
        },
        debug(code) {
          logged.push({ level: "debug", code });
        },
      },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    // Each test is a new visitor: its own cookie jar.
    context = await browser.newContext({ baseURL: demo.url });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });

  afterEach(async () => {
    await context?.close();
  });

  const sessionCookies = () => sessionCookieNames(context, demo.url);
  const sessionJson = () => sessionJsonOf(page);
  const submitSignInForm = (username: string, password: string) => submitBuiltInPassword(page, username, password);
  const signInAsDemo = () => signInAsDemoOn(page, demo.url);

  it("shows a new visitor a signed-out home page with the demo account as a hint", async () => {
    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    expect(await page.getByRole("status").textContent()).toBe("Signed out");
    expect(await page.locator("#session-json").textContent()).toBe("null");
    expect(await page.locator(".hint").textContent()).toBe("Demo account: username demo, password demo");
    expect(await page.getByRole("link", { name: "Sign in", exact: true }).getAttribute("href")).toBe(
      "/api/auth/signin?callbackUrl=%2F",
    );
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-out.png"), fullPage: true });
  });

  it("sends a visitor of /protected to the built-in sign-in page, and after signing in as demo/demo back to /protected showing the user", async () => {
    await page.goto("/protected");
    const signInUrl = new URL(page.url());
    expect(signInUrl.pathname).toBe("/api/auth/signin");
    expect(signInUrl.searchParams.get("callbackUrl")).toBe("/protected");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in to appauth demo");
    expect(await page.getByRole("link", { name: "← Back to appauth demo" }).getAttribute("href")).toBe(demo.url);
    expect(await sessionCookies()).toEqual([]);

    await submitSignInForm("demo", "demo");
    await page.waitForURL(url("/protected"));

    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Protected page");
    const user = page.getByRole("definition");
    expect(await user.allTextContents()).toEqual(expect.arrayContaining(["Demo User", "demo@example.com"]));
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    await page.screenshot({ path: join(ARTIFACTS, "protected.png"), fullPage: true });
  });

  it("shows the session JSON on the home page once signed in", async () => {
    await signInAsDemo();
    expect(await page.getByRole("status").textContent()).toBe("Signed in");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");

    const shown = JSON.parse((await page.locator("#session-json").textContent()) ?? "") as {
      user: { name: string; email: string; image: string | null };
      expires: string;
    };
    expect(shown.user).toEqual({ name: "Demo User", email: "demo@example.com", image: null });
    expect(Date.parse(shown.expires)).toBeGreaterThan(Date.now());
    // The page shows exactly what the session route returns to this browser.
    expect(await sessionJson()).toEqual(shown);

    await page.screenshot({ path: join(ARTIFACTS, "home-signed-in.png"), fullPage: true });
  });

  it("signs in through the bundled OpenID Provider: button, login, consent, and back to /protected", async () => {
    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    // On the OP's own login page: pick Ada, then allow the app.
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/protected"));
    expect(await sessionCookies()).not.toEqual([]);
    const session = (await sessionJson()) as { user: { name: string; email: string } };
    expect(session.user).toMatchObject({ name: "Ada Lovelace", email: "ada@example.test" });
    await page.screenshot({ path: join(ARTIFACTS, "protected-oidc.png"), fullPage: true });
  });

  it("signs out of the bundled OpenID Provider too (RP-initiated logout) and comes back to the callback URL", async () => {
    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/protected"));

    await page.goto("/api/auth/signout?callbackUrl=/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Yes, sign out of Demo ID" }).click();
    await page.waitForURL(url("/"));
    expect(await sessionJson()).toBeNull();
    expect(await sessionCookies()).toEqual([]);

    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).waitFor();
  });

  it("signs in by email with no account: sign-in page, verify-request page, dev mailbox, link, and back to /protected", async () => {
    await page.goto("/protected");
    // The passkey section has an email field too, labelled as the passkey's: this is the email provider's.
    await page.getByLabel("Email for a sign-in link").fill("  Mail.Reader@Example.test ");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your email");
    // It names the address the link went to, as normalised.
    expect(await page.locator("main").innerText()).toContain("mail.reader@example.test");
    expect(await sessionCookies()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "verify-request.png"), fullPage: true });

    // From the verify-request page to the mailbox the way a person finds it: home, then its link.
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await page.getByRole("link", { name: "dev mailbox" }).click();
    await page.waitForURL(url("/dev/mailbox"));
    const mail = page.getByRole("article", { name: "Mail to mail.reader@example.test" });
    expect(await mail.getByRole("heading", { level: 2 }).textContent()).toBe(`Sign in to ${new URL(demo.url).host}`);
    await page.screenshot({ path: join(ARTIFACTS, "dev-mailbox.png"), fullPage: true });

    await mail.getByRole("link", { name: "Open the sign-in link" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Protected page");
    expect(await page.getByRole("definition").allTextContents()).toContain("mail.reader@example.test");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    expect(await sessionJson()).toMatchObject({ user: { email: "mail.reader@example.test" } });

    // The link was single use: opening it again from the mailbox is refused.
    await page.goto("/dev/mailbox");
    await mail.getByRole("link", { name: "Open the sign-in link" }).click();
    await page.waitForURL((target) => target.searchParams.get("error") === "Verification");
    expect(logged).toContainEqual({ level: "warn", code: "Verification" });
  });

  it("creates a passkey on the sign-in page, then signs in with it, with Chromium's virtual authenticator", async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const passkeys = page.locator('section[data-provider-type="webauthn"]');

    await page.goto("/protected");
    await passkeys.getByLabel("Email").fill("passkey.person@example.test");
    await page.screenshot({ path: join(ARTIFACTS, "signin-with-passkeys.png"), fullPage: true });
    await passkeys.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.getByRole("definition").allTextContents()).toContain("passkey.person@example.test");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);

    await page.goto("/api/auth/signout?callbackUrl=/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(url("/"));
    expect(await sessionJson()).toBeNull();

    // Presence simulation off while the page loads: the virtual authenticator would otherwise
    // answer the page's autofill request on its own, before the button is pressed.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto("/protected");
    await page.waitForSelector('form[data-webauthn-autofill-state="pending"]');
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await passkeys.getByRole("button", { name: "Sign in with passkey" }).click();
    await page.waitForURL(url("/protected"));
    expect(await sessionJson()).toMatchObject({ user: { email: "passkey.person@example.test" } });
    await cdp.detach();
  });

  it("refuses a wrong password with the CredentialsSignin error on the sign-in page and sets no session cookie", async () => {
    await page.goto("/api/auth/signin?callbackUrl=/protected");
    await submitSignInForm("demo", "not-the-password");
    await page.waitForURL((target) => target.pathname === "/api/auth/signin" && target.searchParams.has("error"));

    const landed = new URL(page.url());
    expect(landed.searchParams.get("error")).toBe("CredentialsSignin");
    expect(await page.getByRole("alert").innerText()).toContain(CREDENTIALS_ERROR);
    // The form is shown again, ready for another try.
    expect(await page.getByLabel("Username").isVisible()).toBe(true);
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();
    expect(logged).toContainEqual({ level: "warn", code: "CredentialsSignin" });
    // The username stays in the form; the password does not.
    expect(await page.getByLabel("Username").inputValue()).toBe("demo");
    expect(await page.getByLabel("Password").inputValue()).toBe("");
  });

  it("ends the session through the built-in sign-out page", async () => {
    await signInAsDemo();
    await page.getByRole("link", { name: "Sign out" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/signout");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign out");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(url("/"));

    expect(await page.getByRole("status").textContent()).toBe("Signed out");
    expect(await page.locator("#session-json").textContent()).toBe("null");
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();
    // Signed out means signed out everywhere, the protected page included.
    await page.goto("/protected");
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
  });

  it("does not sign out on a POST to /api/auth/signout that lacks the CSRF token", async () => {
    await signInAsDemo();
    const before = await sessionJson();
    expect(before).not.toBeNull();

    // The browser's own cookies (session and CSRF cookie) go along; only the form's token is missing.
    const noToken = await page.request.post("/api/auth/signout", { form: { callbackUrl: "/" }, maxRedirects: 0 });
    const forged = await page.request.post("/api/auth/signout", {
      form: { csrfToken: "0".repeat(64), callbackUrl: "/" },
      maxRedirects: 0,
    });
    // And a script on one of the app's pages (the built-in sign-out page), the way a fetch client posts.
    await page.goto("/api/auth/signout");
    const fromPage = await page.evaluate(async () => {
      const response = await fetch("/api/auth/signout", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
        body: "callbackUrl=%2F",
      });
      return { status: response.status, body: (await response.json()) as { url?: string } };
    });

    for (const response of [noToken, forged]) {
      expect(response.status()).toBe(302);
      const location = new URL(response.headers()["location"] ?? "", demo.url);
      expect(location.searchParams.get("error")).toBe("MissingCSRF");
      const cleared = response.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith(SESSION_COOKIE));
      expect(cleared).toEqual([]);
    }
    expect(fromPage.status).toBe(200);
    expect(new URL(fromPage.body.url ?? "", demo.url).searchParams.get("error")).toBe("MissingCSRF");

    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    expect(await sessionJson()).toEqual(before);
    await page.goto("/");
    expect(await page.getByRole("status").textContent()).toBe("Signed in");
  });

  it("every page meets WCAG AA contrast in light and dark, loads with no 404, shows times for people, and fits a phone", async () => {
    // A mail in the dev mailbox, so its page shows one with its time.
    await page.goto("/api/auth/signin");
    await page.getByLabel("Email for a sign-in link").fill("audit@example.test");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    // The library's built-in pages too: each example shows the same ones.
    const builtIn = ["/api/auth/signin", "/api/auth/signin?error=CredentialsSignin", "/api/auth/verify-request"];
    const signedOut = await auditPages(page, demo.url, ["/", "/dev/mailbox", "/nowhere", ...builtIn]);
    await signInAsDemo();
    const signedIn = await auditPages(page, demo.url, ["/", "/protected", "/dev/mailbox", "/api/auth/signout"]);
    // The not-found page answers 404 by design; nothing else may.
    expect(signedOut).toEqual({ ...CLEAN_AUDIT, failedRequests: ["404 /nowhere"] });
    expect(signedIn).toEqual(CLEAN_AUDIT);

    // The examples' shared icon, inline: no request for /favicon.ico to answer 404.
    await page.goto("/");
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toMatch(/^data:image\/svg\+xml,/);
    const paths = { home: "/", protected: "/protected", mailbox: "/dev/mailbox" };
    expect(await timesAndPhoneHeader(page, paths, "audit@example.test")).toEqual(READABLE_AND_FITTING);
  });

  it("logged no errors: every refusal above was a person's doing", () => {
    expect(logged.filter((entry) => entry.level === "error")).toEqual([]);
  });
});
