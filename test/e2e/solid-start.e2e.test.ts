/**
 * The SolidStart example (examples/solid-start), built (`vinxi build`, with appauth from dist/ as
 * the app installs it) and served by Nitro's node server exactly as `npm run demo:solid` serves
 * it, driven in Debian's Chromium through playwright-core: every sign-in method, the guard on full
 * page loads and on client-side navigations, `update()`, sign-out reaching the other tabs, a
 * persistent session cookie, and other sites' posts refused. The builds run once, before the first
 * test, and only when their sources changed.
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
  sessionJsonOf,
  shownSessionOf,
  signInAsDemoOn,
  submitBuiltInPassword,
  timesAndPhoneHeader,
} from "./example-pages.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildExample, startExample, type RunningExample } from "../../scripts/start-solid.js";

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/e2e-solid-start/", import.meta.url));
/** Installing the app's dependencies, building appauth and the app cold on two busy cores, then starting it. */
const SETUP_TIMEOUT = 600_000;
/** The JWT session's default lifetime: 30 days. */
const MAX_AGE = 30 * 24 * 60 * 60;

const hasChromium = chromiumFor("the e2e tests of the SolidStart example");

describe.runIf(hasChromium)("the SolidStart example in Chromium", BROWSER_SUITE, () => {
  let app: RunningExample;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;
  const appOutput: string[] = [];

  const url = (path: string) => new URL(path, app.url).href;
  /** What the page shows once Solid and the server caught up (an action, a refetch, a broadcast). */
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });

  beforeAll(async () => {
    const build = await buildExample({ output: "capture" });
    console.log(build.built ? `[e2e solid-start] install and builds took ${build.seconds.toFixed(1)} s` : "[e2e solid-start] the builds are current");
    dataDir = await mkdtemp(join(tmpdir(), "appauth-solid-e2e-"));
    app = await startExample({
      port: 0,
      host: "localhost",
      // A fresh secret, OP keys and SQLite file in a temporary folder: demo/.data is left alone.
      secretFile: join(dataDir, "secret"),
      dataDir,
      output: "capture",
      onOutput: (line) => appOutput.push(line),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    // Each test is a new visitor: its own cookie jar.
    context = await browser.newContext({ baseURL: app.url });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    appOutput.length = 0;
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") console.error(`[e2e solid-start] the app printed:\n${appOutput.slice(-60).join("\n")}`);
    await context?.close();
  });

  async function sessionCookie() {
    return (await context.cookies(app.url)).find((cookie) => cookie.name === SESSION_COOKIE);
  }

  const sessionJson = () => sessionJsonOf(page);
  const shown = (selector: string) => shownSessionOf(page, selector);
  const submitPassword = (username: string, password: string) => submitBuiltInPassword(page, username, password);
  const signInAsDemo = (then = "/") => signInAsDemoOn(page, app.url, then);

  it("sends a visitor of /protected to sign in with the full URL as callbackUrl, and back there after demo/demo", async () => {
    await page.goto("/protected?tab=profile");
    const signIn = new URL(page.url());
    expect(signIn.pathname).toBe("/api/auth/signin");
    expect(signIn.searchParams.get("callbackUrl")).toBe(url("/protected?tab=profile"));
    expect(await sessionCookie()).toBeUndefined();

    await submitPassword("demo", "demo");
    await page.waitForURL(url("/protected?tab=profile"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Protected page");
    expect(await page.locator("#server-name").textContent()).toBe("Demo User");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    await page.screenshot({ path: join(ARTIFACTS, "protected.png"), fullPage: true });
  });

  it("guards a client-side navigation too: the route's server query sends the visitor to sign in", async () => {
    await page.goto("/");
    await eventually(() => page.locator("#client-status").textContent()).toBe("unauthenticated");
    // A click on the header's link: the router renders /protected in the browser, no page load.
    await page.getByRole("link", { name: "Protected area" }).click();
    // Polled, not waitForURL: once in CI a navigation waitForURL watched was aborted by the next one
    // (net::ERR_ABORTED) although the browser did land on the sign-in page. What matters is where it lands.
    await eventually(async () => new URL(page.url()).pathname).toBe("/api/auth/signin");
    await page.waitForLoadState();
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(url("/protected"));
    await eventually(() => page.locator('section[data-provider-type="credentials"]').count()).toBe(1);
  });

  it("never guards the sign-in page itself: it answers 200, not another redirect", async () => {
    const response = await page.goto("/api/auth/signin?callbackUrl=%2Fprotected");
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
  });

  it("shows the session read on the server to the client with no request of its own, and the same as /session", async () => {
    await signInAsDemo("/");
    const sessionRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/auth/session") sessionRequests.push(request.url());
    });
    await page.reload();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    const server = await shown("#server-session");
    expect(server?.user).toEqual({ name: "Demo User", email: "demo@example.com", image: null, id: "demo-user" });
    expect(await shown("#client-session")).toEqual(server);
    expect(sessionRequests).toEqual([]);
    expect(await sessionJson()).toEqual(server);
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-in.png"), fullPage: true });
  });

  it("signs in with a password from a server action: a wrong one is reported, the right one gives a persistent cookie that expires with the session", async () => {
    await page.goto("/");
    await page.locator("#username").fill("demo");
    await page.locator("#password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in with a server action" }).click();
    await eventually(() => page.locator("#password-error").textContent()).toBe("Wrong username or password (code: credentials).");
    expect(await sessionCookie()).toBeUndefined();

    await page.locator("#password").fill("demo");
    await page.getByRole("button", { name: "Sign in with a server action" }).click();
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    const cookie = await sessionCookie();
    // A persistent cookie (not one that ends with the browser session): it expires in about 30 days.
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + MAX_AGE - 3600);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
  });

  it("signs in with a password from the server action with JavaScript off: the form posts, the page comes back signed in", async () => {
    const noScript = await browser.newContext({ baseURL: app.url, javaScriptEnabled: false });
    try {
      const plain = await noScript.newPage();
      await plain.goto("/");
      await plain.locator("#username").fill("demo");
      await plain.locator("#password").fill("demo");
      await plain.getByRole("button", { name: "Sign in with a server action" }).click();
      await plain.waitForURL(url("/"));
      expect(await plain.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
      expect((await noScript.cookies(app.url)).some((cookie) => cookie.name === SESSION_COOKIE)).toBe(true);
    } finally {
      await noScript.close();
    }
  });

  it("signs in through the bundled OpenID Provider from a server action", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Continue with the demo identity provider" }).click();
    await page.getByRole("button", { name: /Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Grace Hopper");
    expect(await sessionJson()).toMatchObject({ user: { name: "Grace Hopper", email: "grace@example.test" } });
  });

  it("signs in by email from a server action: check-your-email page, dev mailbox, link, signed in", async () => {
    await page.goto("/");
    await page.locator("#email").fill("  Solid.Reader@Example.test ");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your email");
    expect(await sessionCookie()).toBeUndefined();

    await page.goto("/dev/mailbox");
    const mail = page.getByRole("article", { name: "Mail to solid.reader@example.test" });
    await mail.getByRole("link", { name: "Open the sign-in link" }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as solid.reader@example.test");
  });

  it("creates a passkey and later signs in with it (Chromium's virtual authenticator), under the configured prefix", async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const passkeys = page.locator('section[data-provider-type="webauthn"]');

    // The client's signIn("passkey") opens the sign-in page, where the ceremony runs.
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/signin");
    await passkeys.getByLabel("Email").fill("solid.passkey@example.test");
    await passkeys.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as solid.passkey@example.test");
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);

    await page.locator("#header-sign-out").click();
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");

    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto("/protected");
    await page.waitForSelector('form[data-webauthn-autofill-state="pending"]');
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await passkeys.getByRole("button", { name: "Sign in with passkey" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.locator("#server-email").textContent()).toBe("solid.passkey@example.test");
    await cdp.detach();
  });

  it("changes the display name with useSession().update(): the jwt callback takes it, and it lasts", async () => {
    await signInAsDemo("/protected");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    await page.locator("#client-rename").fill("Solid Builder");
    await page.getByRole("button", { name: "Save with update()" }).click();
    await eventually(() => page.locator("#client-rename-status").textContent()).toBe("Saved: Solid Builder");
    expect((await shown("#client-session"))?.user?.name).toBe("Solid Builder");
    expect(await page.locator("#header-user").textContent()).toBe("Solid Builder");
    expect((await sessionJson())?.user?.name).toBe("Solid Builder");
    await page.reload();
    expect(await page.locator("#server-name").textContent()).toBe("Solid Builder");
  });

  it("changes the display name from a server action with auth.update()", async () => {
    await signInAsDemo("/protected");
    // Typed once the page is live (hydrated), as a person would: a value typed into the server's
    // HTML before hydration may not survive it, and the form's `required` would then stop the post.
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    await page.locator("#server-rename").fill("Renamed On Server");
    expect(await page.locator("#server-rename").inputValue()).toBe("Renamed On Server");
    const posted = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/_server"));
    await page.getByRole("button", { name: "Save with auth.update()" }).click();
    expect((await posted).status()).toBeLessThan(400);
    await eventually(() => page.locator("#server-name").textContent()).toBe("Renamed On Server");
    expect((await sessionJson())?.user?.name).toBe("Renamed On Server");
  });

  it("signs out in one tab and the other tab follows: its protected page sends it to sign in", async () => {
    await signInAsDemo("/protected");
    const other = await context.newPage();
    await other.goto("/protected");
    await eventually(() => other.locator("#client-status").textContent()).toBe("authenticated");

    await page.locator("#header-sign-out").click();
    await page.waitForURL(url("/"));
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");

    // No reload and no click in the other tab: the sign-out reaches it through the broadcast.
    await other.waitForURL((target) => target.pathname === "/api/auth/signin");
    expect(new URL(other.url()).searchParams.get("error")).toBe("SessionRequired");
  });

  it("signs out from a server action and the other tab follows too", async () => {
    await signInAsDemo("/protected");
    const other = await context.newPage();
    await other.goto("/");
    await eventually(() => other.locator("#client-status").textContent()).toBe("authenticated");

    await page.locator("#server-sign-out").click();
    await page.waitForURL(url("/"));
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    expect(await sessionCookie()).toBeUndefined();
    await eventually(() => other.locator("#client-status").textContent()).toBe("unauthenticated");
    // The server-read heading follows too (the session query revalidated on the change).
    await eventually(() => other.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
  });

  it("every page meets WCAG AA contrast in light and dark, loads with no 404 (its icon included), shows times for people, and fits a phone", async () => {
    // A mail in the dev mailbox, so its page shows one with its time.
    await page.goto("/");
    await page.locator("#email").fill("audit@example.test");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    const signedOut = await auditPages(page, app.url, ["/", "/dev/mailbox"]);
    await signInAsDemo("/");
    const signedIn = await auditPages(page, app.url, ["/", "/protected", "/dev/mailbox"]);
    expect(signedOut).toEqual(CLEAN_AUDIT);
    expect(signedIn).toEqual(CLEAN_AUDIT);

    // The shared icon (examples/shared/favicon.svg).
    expect(await iconTypeOf(page)).toBe("image/svg+xml");

    const paths = { home: "/", protected: "/protected", mailbox: "/dev/mailbox" };
    expect(await timesAndPhoneHeader(page, paths, "audit@example.test")).toEqual(READABLE_AND_FITTING);
  });

  /** Another site's page that posts `fields` to `action` as soon as it loads; resolves with the answer to that post. */
  async function postFromAnotherSite(action: string, fields: Record<string, string>): Promise<number> {
    const attacker = "http://attacker.test/";
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input name="${name}" value="${value}">`)
      .join("");
    const body = `<form method="post" action="${action}">${inputs}</form><script>document.forms[0].submit()</script>`;
    await page.route(attacker, (route) => route.fulfill({ contentType: "text/html", body }), { times: 1 });
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && response.url().startsWith(app.url));
    await page.goto(attacker);
    return (await answered).status();
  }

  it("refuses another site's posts to the sign-in actions and routes: nobody is signed in", async () => {
    await page.goto("/");
    const passwordAction = await page.locator("form:has(#username)").getAttribute("action");
    expect(passwordAction).toMatch(/^\/_server/);
    const credentials = { username: "demo", password: "demo", csrfToken: "guessed" };
    for (const action of [url(passwordAction!), url("/api/auth/callback/credentials"), url("/api/auth/signin/credentials")]) {
      expect(await postFromAnotherSite(action, credentials)).toBeLessThan(500);
      expect(await sessionCookie()).toBeUndefined();
    }
  });

  it("refuses another site's posts to the sign-out action and route: the session goes on", async () => {
    await signInAsDemo("/protected");
    const signOutAction = await page.locator("form:has(#server-sign-out)").getAttribute("action");
    expect(signOutAction).toMatch(/^\/_server/);
    for (const action of [url(signOutAction!), url("/api/auth/signout")]) {
      expect(await postFromAnotherSite(action, { csrfToken: "guessed", redirectTo: "/" })).toBeLessThan(500);
      expect(await sessionCookie()).toBeDefined();
      expect((await sessionJson())?.user?.name).toBe("Demo User");
    }
  });
});
