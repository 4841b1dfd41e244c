/**
 * The Next.js example (examples/next), built with `next build` and served by `next start` exactly
 * as `npm start` serves it, driven in Debian's Chromium through playwright-core: every sign-in
 * method, the middleware-guarded area, the session seen by server and client components,
 * `update()`, sign-out reaching the other tabs, and the flows page drawing what a browser ran. The build runs once, before the first test
 * (skipped when `.next` is newer than every source it is made of).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, chromiumFor, BROWSER_SUITE } from "../helpers/chromium.js";
import {
  auditPages,
  CLEAN_AUDIT,
  diagramsOnPhone,
  READABLE_AND_FITTING,
  SESSION_COOKIE,
  sessionCookieNames,
  sessionJsonOf,
  shownSessionOf,
  signInAsDemoOn,
  submitBuiltInPassword,
  timesAndPhoneHeader,
} from "./example-pages.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildExample, startExample, type RunningExample } from "../../scripts/start-next.js";

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/e2e-next/", import.meta.url));
/** A cold `next build` on two busy cores, plus starting the app. */
const SETUP_TIMEOUT = 420_000;

const hasChromium = chromiumFor("the e2e tests of the Next.js example");

describe.runIf(hasChromium)("the Next.js example in Chromium", BROWSER_SUITE, () => {
  let app: RunningExample;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;
  const appOutput: string[] = [];

  const url = (path: string) => new URL(path, app.url).href;
  /** What the page shows once React and the server caught up (a server action, a refetch, a refresh). */
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });

  beforeAll(async () => {
    const build = await buildExample({ output: "capture" });
    console.log(build.built ? `[e2e next] next build took ${build.seconds.toFixed(1)} s` : "[e2e next] the build is current");
    dataDir = await mkdtemp(join(tmpdir(), "appauth-next-e2e-"));
    const started = performance.now();
    app = await startExample({
      port: 0,
      host: "localhost",
      // A fresh secret, OP keys and SQLite file in a temporary folder: demo/.data is left alone.
      secretFile: join(dataDir, "secret"),
      dataDir,
      output: "capture",
      onOutput: (line) => appOutput.push(line),
    });
    console.log(`[e2e next] next start answered after ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
    if (task.result?.state === "fail") console.error(`[e2e next] the app printed:\n${appOutput.slice(-60).join("\n")}`);
    await context?.close();
  });

  const sessionCookies = () => sessionCookieNames(context, app.url);
  const sessionJson = () => sessionJsonOf(page);
  const shown = (selector: string) => shownSessionOf(page, selector);
  const submitPassword = (username: string, password: string) => submitBuiltInPassword(page, username, password);
  const signInAsDemo = (then = "/") => signInAsDemoOn(page, app.url, then);

  it("sends a visitor of /protected to sign in with the full URL as callbackUrl, and back there after demo/demo", async () => {
    await page.goto("/protected?tab=profile");
    const signIn = new URL(page.url());
    expect(signIn.pathname).toBe("/api/auth/signin");
    expect(signIn.searchParams.get("callbackUrl")).toBe(url("/protected?tab=profile"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in");
    expect(await sessionCookies()).toEqual([]);

    await submitPassword("demo", "demo");
    await page.waitForURL(url("/protected?tab=profile"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Protected page");
    expect(await page.locator("#server-name").textContent()).toBe("Demo User");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    await page.screenshot({ path: join(ARTIFACTS, "protected.png"), fullPage: true });
  });

  it("shows the same session from a server component (auth()) and a client component (useSession())", async () => {
    await signInAsDemo("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    const server = await shown("#server-session");
    const client = await shown("#client-session");
    expect(server?.user).toEqual({ name: "Demo User", email: "demo@example.com", image: null, id: "demo-user" });
    expect(client).toEqual(server);
    expect(await sessionJson()).toEqual(server);
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-in.png"), fullPage: true });

    // The other forms of auth() in the running app: a wrapped route handler, a pages-router API
    // route (auth(req, res)) and getServerSideProps (auth(context)).
    expect(await (await page.request.get("/api/whoami")).json()).toEqual({ signedIn: true, session: server });
    expect(await (await page.request.get("/api/session-info")).json()).toEqual({ signedIn: true, session: server });
    await page.goto("/legacy");
    expect(await shown("#legacy-session")).toEqual(server);
  });

  it("wraps the session JSON inside its card on a phone-sized screen, with nothing scrolling sideways", async () => {
    await signInAsDemo("/");
    await page.setViewportSize({ width: 360, height: 780 });
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      blocks: [...document.querySelectorAll("pre")]
        .filter((pre) => {
          const card = pre.closest(".card") ?? pre.parentElement!;
          return pre.scrollWidth > pre.clientWidth || pre.getBoundingClientRect().right > card.getBoundingClientRect().right;
        })
        .map((pre) => pre.id),
    }));
    expect(overflow).toEqual({ page: 0, blocks: [] });
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-in-narrow.png"), fullPage: true });
  });

  it("shows a visitor the signed-out state on both sides", async () => {
    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    expect(await shown("#server-session")).toBeNull();
    await eventually(() => page.locator("#client-status").textContent()).toBe("unauthenticated");
    expect(await (await page.request.get("/api/whoami")).json()).toEqual({ signedIn: false, session: null });
    await page.screenshot({ path: join(ARTIFACTS, "home-signed-out.png"), fullPage: true });
  });

  it("signs in through the bundled OpenID Provider from the sign-in page: login, consent, back to /protected", async () => {
    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.locator("#server-name").textContent()).toBe("Ada Lovelace");
    expect(await page.locator("#server-email").textContent()).toBe("ada@example.test");

    // The flows page joins the sign-in's two requests (out to the OP, back on the callback) into one path.
    await page.goto("/flows");
    const oauth = await drawnPath("signIn", "oauth");
    expectConsistent(oauth);
    expect(oauth.steps.filter((step) => step.event === "start")).toHaveLength(1);
    const rested = states(oauth, "oauth").indexOf("awaitingCallback");
    expect(rested).toBeGreaterThan(0);
    expect(oauth.steps[rested + 1]?.event).toBe("callback.received");
    expect(states(oauth, "oauth").at(-1)).toBe("signedIn");
    expect(await page.locator('section[data-flow="signIn"] [data-summary]').textContent()).toMatch(/over 2 requests: ended in signedIn/);
    expect(await page.locator(".flows").textContent()).not.toContain("ada@example.test");
  });

  it("signs out of the bundled OpenID Provider too (RP-initiated logout): the OP asks, then the app's home; the next sign-in asks who you are", async () => {
    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/protected"));

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Yes, sign out of Demo ID" }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    expect(await sessionJson()).toBeNull();

    // The OP's session ended with the app's: signing in again starts at the OP's login page.
    await page.goto("/protected");
    await page.getByRole("button", { name: "Sign in with Demo identity provider" }).click();
    await page.getByRole("button", { name: /Ada Lovelace/ }).waitFor();
  });

  it("signs in through the OpenID Provider from a server action (signIn('demo-idp'))", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Continue with the demo identity provider" }).click();
    await page.getByRole("button", { name: /Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Grace Hopper");
    expect(await sessionJson()).toMatchObject({ user: { name: "Grace Hopper", email: "grace@example.test" } });
  });

  it("signs in with a password from a server action: a wrong one is reported by the form, the right one signs in", async () => {
    await page.goto("/");
    await page.locator("#action-username").fill("demo");
    await page.locator("#action-password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in with a server action" }).click();
    expect(await page.locator("#password-form-error").textContent()).toBe("Wrong username or password (code: credentials).");
    // The form keeps the username for the next try.
    expect(await page.locator("#action-username").inputValue()).toBe("demo");
    expect(await sessionCookies()).toEqual([]);
    expect(await sessionJson()).toBeNull();

    await page.locator("#action-password").fill("demo");
    await page.getByRole("button", { name: "Sign in with a server action" }).click();
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
  });

  it("signs in by email: sign-in page, check-your-email page, dev mailbox, link, and back to /protected", async () => {
    await page.goto("/protected");
    await page.locator('section[data-provider-type="email"]').getByLabel("Email").fill("  Mail.Reader@Example.test ");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your email");
    expect(await sessionCookies()).toEqual([]);

    await page.goto("/dev/mailbox");
    const mail = page.getByRole("article", { name: "Mail to mail.reader@example.test" });
    expect(await mail.getByRole("heading", { level: 2 }).textContent()).toBe(`Sign in to ${new URL(app.url).host}`);
    await page.screenshot({ path: join(ARTIFACTS, "dev-mailbox.png"), fullPage: true });
    await mail.getByRole("link", { name: "Open the sign-in link" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.locator("#server-email").textContent()).toBe("mail.reader@example.test");
    expect(await sessionCookies()).toEqual([SESSION_COOKIE]);
  });

  it("creates a passkey on the sign-in page and later signs in with it (Chromium's virtual authenticator)", async () => {
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
    await passkeys.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.locator("#server-email").textContent()).toBe("passkey.person@example.test");
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(url("/"));
    expect(await sessionJson()).toBeNull();

    // Presence simulation off while the page loads, or the authenticator would answer the page's
    // autofill request on its own before the button is pressed.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await page.goto("/protected");
    await page.waitForSelector('form[data-webauthn-autofill-state="pending"]');
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await passkeys.getByRole("button", { name: "Sign in with passkey" }).click();
    await page.waitForURL(url("/protected"));
    expect(await page.locator("#server-email").textContent()).toBe("passkey.person@example.test");
    await cdp.detach();
  });

  it("changes the display name with useSession().update(): the jwt callback takes it, client and server show it", async () => {
    await signInAsDemo("/protected");
    await eventually(() => page.locator("#client-status").textContent()).toBe("authenticated");
    await page.locator("#profile-name").fill("Demo Builder");
    await page.getByRole("button", { name: "Save with update()" }).click();
    await eventually(() => page.locator("#profile-message").textContent()).toBe("Saved: Demo Builder");
    expect((await shown("#client-session"))?.user?.name).toBe("Demo Builder");
    await eventually(() => page.locator("#server-name").textContent()).toBe("Demo Builder");
    expect(await page.locator("#header-user").textContent()).toBe("Demo Builder");
    expect((await sessionJson())?.user?.name).toBe("Demo Builder");
    // It lasts: a new page load reads the re-issued cookie.
    await page.reload();
    expect(await page.locator("#server-name").textContent()).toBe("Demo Builder");
  });

  it("changes the display name from a server action with unstable_update()", async () => {
    await signInAsDemo("/protected");
    await page.locator("#server-rename").fill("Renamed On Server");
    await page.getByRole("button", { name: "Save with unstable_update()" }).click();
    await eventually(() => page.locator("#server-name").textContent()).toBe("Renamed On Server");
    expect((await sessionJson())?.user?.name).toBe("Renamed On Server");
  });

  /** What the flows page draws of one machine of a flow: its step list and the diagram's marked parts. */
  async function drawnPath(kind: string, machine: string) {
    const figure = page.locator(`section[data-flow="${kind}"] figure[data-machine="${machine}"]`);
    const steps = await figure.locator("ol.flow-steps > li").evaluateAll((items) =>
      items.map((li) => ({ order: (li as HTMLLIElement).value, state: li.dataset.state!, event: li.dataset.event! })),
    );
    const diagram = await figure.locator(".flow-diagram svg").evaluate((svg) => ({
      initial: svg.querySelector("g[data-initial]")?.getAttribute("data-initial"),
      visited: [...svg.querySelectorAll("g[data-state].visited")].map((g) => g.getAttribute("data-state")!),
      plain: [...svg.querySelectorAll("g[data-state]:not(.visited)")].map((g) => g.getAttribute("data-state")!),
      taken: [...svg.querySelectorAll("g.taken[data-source]")].map((g) => [g.getAttribute("data-source"), g.getAttribute("data-target")]),
      // What a person sees: the highlight is drawn, not only named.
      fills: [...svg.querySelectorAll("g[data-state].visited > rect:first-child")].map((rect) => getComputedStyle(rect).fill),
      plainFills: [...svg.querySelectorAll("g[data-state]:not(.visited) > rect:first-child")].map((rect) => getComputedStyle(rect).fill),
    }));
    return { steps, diagram };
  }

  /** The states a drawn path entered, without the machine's id in front. */
  const states = (path: Awaited<ReturnType<typeof drawnPath>>, machine: string) =>
    path.steps.map((step) => step.state.slice(machine.length + 1));

  /** A path as drawn: entered states highlighted, nothing else; each move from the one before on a bold arrow. */
  function expectConsistent(path: Awaited<ReturnType<typeof drawnPath>>): void {
    const entered = new Set(path.steps.map((step) => step.state));
    expect(new Set(path.diagram.visited)).toEqual(entered);
    expect(path.diagram.plain.some((id) => entered.has(id))).toBe(false);
    expect(new Set(path.diagram.fills)).toEqual(new Set(["rgb(204, 251, 241)"]));
    expect(path.diagram.plainFills).not.toContain("rgb(204, 251, 241)");
    const orders = path.steps.map((step) => step.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const [i, step] of path.steps.entries()) {
      if (i === 0) continue;
      expect(path.diagram.taken).toContainEqual([path.steps[i - 1]!.state, step.state]);
    }
  }

  it("draws this browser's last sign-in, session read and sign-out on their diagrams at /flows, and shows no secret", async () => {
    await page.goto("/flows");
    expect(await page.locator('section[data-flow="signIn"]').textContent()).toContain("None recorded for this browser yet");

    await signInAsDemo("/");
    expect(await sessionJson()).toMatchObject({ user: { name: "Demo User", email: "demo@example.com" } });
    // Every cookie value the flows handled, kept to look for in the page.
    const secrets = (await context.cookies(app.url)).map((c) => decodeURIComponent(c.value)).filter((v) => v.length >= 16);
    expect(secrets.length).toBeGreaterThanOrEqual(3); // session token, CSRF token, viewer id
    secrets.push((await readFile(join(dataDir, "secret"), "utf8")).trim());

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Flows" }).click();
    await page.waitForURL(url("/flows"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Flows");

    // The sign-in: the password flow from its initial state to signedIn, with the shared completion
    // running in between (its steps numbered inside the parent's).
    const signIn = await drawnPath("signIn", "credentialsSignIn");
    expectConsistent(signIn);
    expect(signIn.steps[0]).toMatchObject({ state: signIn.diagram.initial, event: "start", order: 1 });
    expect(states(signIn, "credentialsSignIn")).toContain("authorizing");
    expect(states(signIn, "credentialsSignIn").at(-1)).toBe("signedIn");
    expect(signIn.steps.map((s) => s.event)).toContain("done: authorize");
    const completion = await drawnPath("signIn", "signInCompletion");
    expectConsistent(completion);
    expect(states(completion, "signInCompletion")).toContain("issuingSession");
    expect(states(completion, "signInCompletion").at(-1)).toBe("signedIn");
    // Numbered in the order they ran: the completion's steps right after the parent's step into the
    // state that invoked it, and before the parent's next one.
    const before = signIn.steps.findLast((step) => step.order < completion.steps[0]!.order)!;
    const next = signIn.steps.find((step) => step.order > before.order)!;
    expect(completion.steps[0]!.order).toBe(before.order + 1);
    expect(completion.steps.at(-1)!.order).toBe(next.order - 1);
    expect(await page.locator('section[data-flow="signIn"] [data-summary]').textContent()).toContain("ended in signedIn");

    // The session read that found the session (reads without a cookie are not kept).
    const read = await drawnPath("sessionRead", "session");
    expectConsistent(read);
    expect(read.steps[0]).toMatchObject({ state: read.diagram.initial, event: "start" });
    expect(states(read, "session").at(-1)).toBe("active");
    expect(read.diagram.plain.length).toBeGreaterThan(0); // e.g. noSession, invalid

    const signOut = await drawnPath("signOut", "signOut");
    expectConsistent(signOut);
    expect(signOut.steps[0]).toMatchObject({ state: signOut.diagram.initial, event: "start" });
    expect(states(signOut, "signOut")).toContain("endingSession");
    expect(states(signOut, "signOut").at(-1)).toBe("signedOut");
    await page.screenshot({ path: join(ARTIFACTS, "flows.png"), fullPage: true });

    // Paths only: no token, cookie, secret, nor who signed in.
    const html = await page.content();
    for (const secret of secrets) expect(html).not.toContain(secret);
    for (const personal of ["demo@example.com", "Demo User", "demo-user"]) expect(html).not.toContain(personal);

    // Another browser sees none of it.
    const stranger = await browser.newContext({ baseURL: app.url });
    try {
      const other = await stranger.newPage();
      await other.goto("/flows");
      for (const kind of ["signIn", "sessionRead", "signOut"]) {
        expect(await other.locator(`section[data-flow="${kind}"]`).textContent()).toContain("None recorded for this browser yet");
      }
      expect(await other.locator("figure").count()).toBe(0);
    } finally {
      await stranger.close();
    }
  });

  it("signs out in one tab and the other tab follows: its protected page sends it to sign in", async () => {
    await signInAsDemo("/protected");
    const other = await context.newPage();
    await other.goto("/protected");
    await eventually(() => other.locator("#client-status").textContent()).toBe("authenticated");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(url("/"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");

    // No reload and no click in the other tab: the sign-out reaches it through the broadcast.
    await other.waitForURL((target) => target.pathname === "/api/auth/signin");
    const signIn = new URL(other.url());
    expect(signIn.searchParams.get("error")).toBe("SessionRequired");
    expect(signIn.searchParams.get("callbackUrl")).toBe(url("/protected"));
    await other.screenshot({ path: join(ARTIFACTS, "other-tab-signed-out.png"), fullPage: true });
  });

  it("signs out from a server action (signOut()) and the other tab follows too", async () => {
    await signInAsDemo("/protected");
    const other = await context.newPage();
    await other.goto("/");
    await eventually(() => other.locator("#client-status").textContent()).toBe("authenticated");

    await page.getByRole("button", { name: "Sign out with a server action" }).click();
    await page.waitForURL(url("/"));
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    expect(await sessionCookies()).toEqual([]);
    await eventually(() => other.locator("#client-status").textContent()).toBe("unauthenticated");
    // The server-rendered heading follows too (router.refresh() on the session change).
    await eventually(() => other.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
  });

  it("renders the server's heading again in a tab left open when another tab signs in with a server action", async () => {
    await page.goto("/");
    const other = await context.newPage();
    await other.goto("/");
    expect(await other.getByRole("heading", { level: 1 }).textContent()).toBe("You are not signed in");
    // A server action signs in without leaving the page, and the provider tells the other tabs.
    await page.locator("#action-username").fill("demo");
    await page.locator("#action-password").fill("demo");
    await page.getByRole("button", { name: "Sign in with a server action" }).click();
    await eventually(() => other.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
  });

  it("every page meets WCAG AA contrast in light and dark, loads with no 404 (its icon included), shows times for people, and fits a phone", async () => {
    // A mail in the dev mailbox, so its page shows one with its time.
    await page.goto("/api/auth/signin");
    await page.locator('section[data-provider-type="email"]').getByLabel("Email").fill("audit@example.test");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((target) => target.pathname === "/api/auth/verify-request");
    const signedOut = await auditPages(page, app.url, ["/", "/flows", "/dev/mailbox", "/legacy"]);
    await signInAsDemo("/");
    // Signed in, /flows draws the sign-in and session read on their diagrams.
    const signedIn = await auditPages(page, app.url, ["/", "/protected", "/flows", "/dev/mailbox", "/legacy"]);
    expect(signedOut).toEqual(CLEAN_AUDIT);
    expect(signedIn).toEqual(CLEAN_AUDIT);

    // The shared icon, also where a page without the layout's <link rel="icon"> looks for one.
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const icon = await page.request.get(path);
      expect(icon.status()).toBe(200);
      expect(icon.headers()["content-type"]).toBe("image/svg+xml");
    }
    await page.goto("/");
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toMatch(/^\/favicon\.svg/);

    const paths = { home: "/", protected: "/protected", mailbox: "/dev/mailbox" };
    expect(await timesAndPhoneHeader(page, paths, "audit@example.test")).toEqual(READABLE_AND_FITTING);
    await page.goto("/flows");
    await page.setViewportSize({ width: 390, height: 844 });
    const diagrams = await diagramsOnPhone(page);
    expect(diagrams.pageOverflow).toBe(0);
    expect(diagrams.smallestLabel).toBeGreaterThanOrEqual(11);
    expect(diagrams.darkBackgrounds).toBe(true);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator(".flow-diagram").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "flows-phone-dark.png") });
  });

  it("shows both browsers in Your devices, and ending the other signs that one out on its next request", async () => {
    await signInAsDemo("/");
    const other = await browser.newContext({ baseURL: app.url });
    try {
      const otherPage = await other.newPage();
      await signInAsDemoOn(otherPage, app.url, "/");
      expect(await sessionJsonOf(otherPage)).not.toBeNull();

      await page.goto("/protected/devices");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Your devices");
      // Both browsers, and any earlier test's sessions of the same demo user still open.
      expect(await page.locator("#devices > li").count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('#devices > li[data-current="true"] h2').textContent()).toBe("Chrome on Linux (this device)");
      await page.locator("#end-others").click();
      await eventually(() => page.locator("#devices > li").count()).toBe(1);
      expect(await page.locator('#devices > li[data-current="true"]').count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, "devices.png"), fullPage: true });

      // The other browser's cookie no longer opens; this one's still does.
      expect(await sessionJsonOf(otherPage)).toBeNull();
      expect(await sessionJson()).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});
