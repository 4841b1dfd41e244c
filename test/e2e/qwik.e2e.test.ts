/**
 * The Qwik City example (examples/qwik), built for production (node-server adapter) from the
 * packed package as `npm run demo:qwik` builds it, driven in Debian's Chromium through
 * playwright-core: every sign-in method from Qwik `<Form>`s, the layout guard's round trip, the
 * session update action and sign-out — the password and sign-out forms with JavaScript off too —
 * and cross-site POSTs to the library's routes, which Qwik City's own origin check never sees.
 * The build runs once, before the first test, and only when a source changed.
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
  iconTypeOf,
  READABLE_AND_FITTING,
  SESSION_COOKIE,
  sessionCookieNames,
  sessionJsonOf,
  type ShownSession,
  timesAndPhoneHeader,
} from "./example-pages.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BASE_PATH, buildExample, startExample, type RunningExample } from "../../scripts/start-qwik.js";

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/e2e-qwik/", import.meta.url));
/** A cold library build, `npm install` and `qwik build` on two busy cores, plus starting the app. */
const SETUP_TIMEOUT = 480_000;

const hasChromium = chromiumFor("the e2e tests of the Qwik City example");

describe.runIf(hasChromium)("the Qwik City example in Chromium", BROWSER_SUITE, () => {
  let app: RunningExample;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;
  const appOutput: string[] = [];

  const url = (path: string) => new URL(path, app.url).href;
  /** What the page shows once Qwik's action and loaders answered (JavaScript on: no navigation to wait for). */
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });
  const heading = () => page.getByRole("heading", { level: 1 }).textContent();

  beforeAll(async () => {
    const build = await buildExample({ output: "capture" });
    console.log(build.built ? `[e2e qwik] build took ${build.seconds.toFixed(1)} s` : "[e2e qwik] the build is current");
    dataDir = await mkdtemp(join(tmpdir(), "appauth-qwik-e2e-"));
    app = await startExample({
      port: 0,
      host: "localhost",
      // A fresh secret, OP keys and SQLite file in a temporary folder: demo/.data is left alone.
      secretFile: join(dataDir, "secret"),
      dataDir,
      output: "capture",
      onOutput: (line) => appOutput.push(line),
      // Every session read re-issues the cookie: a read that ran after a sign-out would bring it back.
      env: { APPAUTH_DEMO_SESSION_UPDATE_AGE: "0" },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function newVisitor(options: { javaScriptEnabled?: boolean } = {}): Promise<void> {
    await context?.close();
    context = await browser.newContext({ baseURL: app.url, ...options });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  }

  beforeEach(async () => {
    await newVisitor();
    appOutput.length = 0;
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") {
      console.error(`[e2e qwik] the page was ${page?.url()}; the app printed:\n${appOutput.slice(-60).join("\n")}`);
      await page?.screenshot({ path: join(ARTIFACTS, `failed-${task.name.slice(0, 40).replace(/\W+/g, "-")}.png`), fullPage: true }).catch(() => undefined);
    }
    await context?.close();
  });

  const sessionCookies = () => sessionCookieNames(context, app.url);
  const sessionJson = () => sessionJsonOf(page, `${BASE_PATH}/session`);

  /** The home page's password form (a Qwik `<Form>` bound to `useSignIn`). */
  async function submitPasswordForm(username: string, password: string): Promise<void> {
    await page.locator("#username").fill(username);
    await page.locator("#password").fill(password);
    await page.getByRole("button", { name: "Sign in with a password" }).click();
  }

  async function signInAsDemo(): Promise<void> {
    await page.goto("/");
    await submitPasswordForm("demo", "demo");
    await eventually(heading).toBe("Signed in as Demo User");
  }

  it("sends a visitor of /protected/ to sign in with the full URL as callbackUrl, and back there after demo/demo", async () => {
    await page.goto("/protected/?tab=profile");
    const signIn = new URL(page.url());
    expect(signIn.pathname).toBe(`${BASE_PATH}/signin`);
    expect(signIn.searchParams.get("callbackUrl")).toBe(url("/protected/?tab=profile"));
    expect(await sessionCookies()).toEqual([]);

    const section = page.locator('section[data-provider-type="credentials"]');
    await section.getByLabel("Username").fill("demo");
    await section.getByLabel("Password").fill("demo");
    await section.getByRole("button", { name: "Sign in with Credentials" }).click();
    await page.waitForURL(url("/protected/?tab=profile"));
    expect(await heading()).toBe("Protected page");
    expect(await page.locator("#server-name").textContent()).toBe("Demo User");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
  });

  it("signs in with a password from a Qwik form: a wrong one is reported on the page, the right one signs in", async () => {
    await page.goto("/");
    expect(await heading()).toBe("You are not signed in");
    await submitPasswordForm("demo", "not-the-password");
    await eventually(() => page.locator("#password-error").textContent()).toBe("Wrong username or password.");
    // In words, under the password form only: the other forms share the action but were not sent.
    expect(await page.locator("main .error").count()).toBe(1);
    expect(await page.getByRole("alert").count()).toBe(1);
    expect(await page.locator('section[aria-labelledby="password-title"] #password-error').count()).toBe(1);
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();

    await submitPasswordForm("demo", "demo");
    await eventually(heading).toBe("Signed in as Demo User");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    expect(await sessionJson()).toMatchObject({ user: { name: "Demo User", email: "demo@example.com", id: "demo-user" } });
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-in.png"), fullPage: true });
  });

  it("signs in and out with JavaScript off: the same forms are plain POSTs answered with 303s", async () => {
    await newVisitor({ javaScriptEnabled: false });
    await page.goto("/");
    await submitPasswordForm("demo", "wrong");
    await page.waitForLoadState();
    expect(await page.locator("#password-error").textContent()).toBe("Wrong username or password.");
    expect(await page.locator("main .error").count()).toBe(1);
    expect(await sessionCookies()).toEqual([]);

    await submitPasswordForm("demo", "demo");
    await page.waitForURL(url("/"));
    expect(await heading()).toBe("Signed in as Demo User");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(url("/"));
    expect(await heading()).toBe("You are not signed in");
    expect(await sessionCookies()).toEqual([]);
  });

  it("answers invalid sign-in input with the spec's fieldErrors and signs nobody in", async () => {
    await page.goto("/");
    // What a tampered form posts: an empty provider id.
    await page.locator('input[name="providerId"][value="credentials"]').evaluate((input: HTMLInputElement) => (input.value = ""));
    await submitPasswordForm("demo", "demo");
    await eventually(() => page.locator("#password-field-errors").count()).toBe(1);
    // Each refused field named in words, with its messages.
    const fieldErrors = page.locator("#password-field-errors > li");
    expect(await fieldErrors.evaluateAll((items) => items.map((item) => item.getAttribute("data-field")))).toEqual(["providerId"]);
    expect(await fieldErrors.first().textContent()).toMatch(/^Sign-in method: \S/);
    expect(await sessionCookies()).toEqual([]);
  });

  it("signs in through the bundled OpenID Provider from a Qwik form: the provider's pages, then back home", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Continue with the demo identity provider" }).click();
    await page.getByRole("button", { name: /Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await eventually(async () => page.url()).toBe(url("/"));
    await eventually(heading).toBe("Signed in as Grace Hopper");
    expect(await sessionJson()).toMatchObject({ user: { name: "Grace Hopper", email: "grace@example.test" } });
  });

  it("signs out of the bundled OpenID Provider too (RP-initiated logout) from the protected page and stays signed out", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Continue with the demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await eventually(heading).toBe("Signed in as Ada Lovelace");
    await page.goto("/protected/");
    expect(await page.locator("#server-name").textContent()).toBe("Ada Lovelace");

    // The action answers with the provider's end-session page, which Qwik's client loads as a
    // document; the page's loaders run in that same request.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Yes, sign out of Demo ID" }).click();
    await page.waitForURL(url("/"));
    expect(await heading()).toBe("You are not signed in");
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();
    await page.goto("/protected/");
    expect(new URL(page.url()).pathname).toBe(`${BASE_PATH}/signin`);
  });

  it("signs in by email from a Qwik form: check-your-email page, dev mailbox, link, and on to /protected/", async () => {
    await page.goto("/");
    await page.locator("#email").fill("Mail.Reader@Example.test");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL((target) => target.pathname === `${BASE_PATH}/verify-request`);
    expect(await heading()).toBe("Check your email");
    expect(await sessionCookies()).toEqual([]);

    await page.goto("/dev/mailbox/");
    const mail = page.getByRole("article", { name: "Mail to mail.reader@example.test" });
    await mail.getByRole("link", { name: "Open the sign-in link" }).click();
    await page.waitForURL(url("/protected/"));
    expect(await page.locator("#server-email").textContent()).toBe("mail.reader@example.test");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
  });

  it("creates a passkey from the form's way to the sign-in page, then signs in with it (virtual authenticator)", async () => {
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

    await page.goto("/");
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await page.waitForURL((target) => target.pathname === `${BASE_PATH}/signin`);
    await passkeys.getByLabel("Email").fill("passkey.person@example.test");
    await passkeys.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(url("/protected/"));
    expect(await page.locator("#server-email").textContent()).toBe("passkey.person@example.test");

    await page.getByRole("button", { name: "Sign out" }).click();
    await eventually(heading).toBe("You are not signed in");
    expect(await sessionJson()).toBeNull();

    // Presence simulation off while the page loads, or the authenticator would answer the page's
    // autofill request on its own before the button is pressed.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto("/protected/");
    await page.waitForSelector('form[data-webauthn-autofill-state="pending"]');
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await passkeys.getByRole("button", { name: "Sign in with passkey" }).click();
    await page.waitForURL(url("/protected/"));
    expect(await page.locator("#server-email").textContent()).toBe("passkey.person@example.test");
    await cdp.detach();
  });

  it("changes the display name with the update action: the jwt callback takes it, the page and the cookie keep it", async () => {
    await signInAsDemo();
    await page.goto("/protected/");
    await page.locator("#profile-name").fill("Demo Builder");
    await page.getByRole("button", { name: "Save" }).click();
    await eventually(() => page.locator("#profile-message").textContent()).toBe("Saved: Demo Builder");
    await eventually(() => page.locator("#server-name").textContent()).toBe("Demo Builder");
    expect(await page.locator("#header-user").textContent()).toBe("Demo Builder");
    expect((await sessionJson())?.user?.name).toBe("Demo Builder");
    await page.reload();
    expect(await page.locator("#server-name").textContent()).toBe("Demo Builder");
  });

  it("signs out from a Qwik form with JavaScript on, and a tab left open follows", async () => {
    await signInAsDemo();
    const other = await context.newPage();
    await other.goto("/");
    expect(await other.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    await page.getByRole("button", { name: "Sign out" }).click();
    await eventually(heading).toBe("You are not signed in");
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();
    // No click in the other tab: the page told it whom it shows now, and it loaded its page again.
    await eventually(() => other.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
  });

  it("every page meets WCAG AA contrast in light and dark, loads with no 404 (its icon included), shows times for people, and fits a phone", async () => {
    // A mail in the dev mailbox, so its page shows one with its time.
    await page.goto("/");
    await page.locator("#email").fill("audit@example.test");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL((target) => target.pathname === `${BASE_PATH}/verify-request`);
    const signedOut = await auditPages(page, app.url, ["/", "/dev/mailbox/"]);
    await signInAsDemo();
    const signedIn = await auditPages(page, app.url, ["/", "/protected/", "/dev/mailbox/"]);
    expect(signedOut).toEqual(CLEAN_AUDIT);
    expect(signedIn).toEqual(CLEAN_AUDIT);

    // The shared stylesheet styles it like the other examples, and the shared icon is served.
    expect(await page.locator("header.top").evaluate((header) => getComputedStyle(header).display)).toBe("flex");
    expect(await iconTypeOf(page)).toBe("image/svg+xml");

    const paths = { home: "/", protected: "/protected/", mailbox: "/dev/mailbox/" };
    expect(await timesAndPhoneHeader(page, paths, "audit@example.test")).toEqual(READABLE_AND_FITTING);
  });

  describe("cross-site POSTs to the library's routes", () => {
    const EVIL = "https://evil.example";

    async function signedInCookieHeader(): Promise<string> {
      await signInAsDemo();
      return (await context.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join("; ");
    }

    async function crossSitePost(path: string, body: string, contentType: string, cookie?: string): Promise<Response> {
      return fetch(url(path), {
        method: "POST",
        redirect: "manual",
        headers: { origin: EVIL, referer: `${EVIL}/`, "content-type": contentType, ...(cookie ? { cookie } : {}) },
        body,
      });
    }

    /** Whether a response ends or replaces the session: any Set-Cookie for the session token. */
    const touchesSession = (response: Response) => response.headers.getSetCookie().some((line) => line.startsWith(SESSION_COOKIE));

    for (const [kind, contentType, body] of [
      ["a form", "application/x-www-form-urlencoded", "callbackUrl=%2F"],
      ["text/plain", "text/plain", "callbackUrl=/"],
    ] as const) {
      it(`refuses ${kind} posted to ${BASE_PATH}/signout from another site: the session lives on`, async () => {
        const cookie = await signedInCookieHeader();
        const response = await crossSitePost(`${BASE_PATH}/signout`, body, contentType, cookie);
        expect(touchesSession(response)).toBe(false);
        expect(new URL(response.headers.get("location") ?? "", app.url).searchParams.get("error")).toBe("MissingCSRF");
        const still = await fetch(url(`${BASE_PATH}/session`), { headers: { cookie } });
        expect(((await still.json()) as ShownSession | null)?.user?.name).toBe("Demo User");
      });

      it(`refuses ${kind} posted to ${BASE_PATH}/callback/credentials from another site: nobody is signed in`, async () => {
        const response = await crossSitePost(`${BASE_PATH}/callback/credentials`, `username=demo&password=demo&${body}`, contentType);
        expect(touchesSession(response)).toBe(false);
        expect(response.status).toBeLessThan(500);
        expect(new URL(response.headers.get("location") ?? "", app.url).searchParams.get("error")).toBe("MissingCSRF");
      });
    }
  });
});
