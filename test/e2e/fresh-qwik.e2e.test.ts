/**
 * appauth as a Qwik City user installs it: packed with `npm pack`, installed into a fresh Qwik City
 * 1.20 app (Vite 7, the node-server adapter) outside the repository, with the files of the README's
 * Qwik City section (test/e2e/fresh-qwik/app: `plugin@auth.ts` with `ResumableAuth$`, a page with
 * `<Form action={signIn}>` and `<Form action={signOut}>`), then `qwik build` (client, server and
 * tsc against the package's types) and the built server. Chromium signs in with a password through
 * the action, sees the session on the server-rendered page and signs out (and again with JavaScript
 * off: the forms posted by the browser), and stays signed out after a sign-out that leaves for one
 * of the library's pages, with every read re-issuing the cookie; the action's wrong passwords count
 * against the browser's address (Qwik's `clientConn.ip`); a cross-site POST to the
 * library's credentials route is refused by the library's own CSRF check. Behind a loopback reverse
 * proxy, with `trustProxy: 1` (a second server of the same build, TRUST_PROXY=1), plain HTTP from
 * distinct loopback addresses shows each visitor counted by the address the proxy saw, through the
 * credentials route and through the action, and one who goes around the proxy by their connection.
 */
import { describe, expect, it } from "vitest";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { describeBehindProxy, type Guess } from "./fresh-next/behind-proxy.js";
import { renderedForm, submitForm } from "./fresh-next/visitor-http.js";
import { QWIK_APP, QWIK_SERVER } from "./fresh-qwik/spec.js";
import { crossSiteSignIn, packAndServe, servedInBrowser, signInAndOutWithoutJavaScript, type ServerCommand } from "./fresh-next/harness.js";

/** `npm pack` (the library build), `npm install` from an empty folder and a cold `qwik build`, on two busy cores. */
const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the fresh Qwik City app e2e tests");
const server: ServerCommand = QWIK_SERVER;

describe.runIf(hasChromium)("appauth installed from its package into a fresh Qwik City app", BROWSER_SUITE, () => {
  const suite = servedInBrowser(
    "fresh qwik",
    () =>
      packAndServe(QWIK_APP, server),
    SETUP_TIMEOUT,
  );
  const page = () => suite.page();
  const url = () => suite.served().server.url;
  const heading = () => page().getByRole("heading", { level: 1 }).textContent();

  /** Submits the page's `<Form>` with `button` and resolves with the status of the action's answer (the POST with `qaction`). */
  async function submit(button: string): Promise<number> {
    const answered = page().waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).searchParams.has("qaction"));
    await page().getByRole("button", { name: button }).click();
    return (await answered).status();
  }

  it("signs in with a password through useSignIn's <Form>, shows the session on the server-rendered page, and signs out", async () => {
    await page().goto("/");
    expect(await heading()).toBe("Not signed in");
    await page().getByLabel("Username").fill("ada");
    await page().getByLabel("Password").fill("correct horse");
    expect(await submit("Sign in")).toBeLessThan(400);
    await expect.poll(heading).toBe("Signed in as Ada Lovelace");

    // The server renders the session into the page: its HTML, fetched with the browser's cookies.
    const html = await (await page().request.get("/")).text();
    expect(html).toMatch(/<h1[^>]*>Signed in as (<!--[^>]*-->)*Ada Lovelace/);
    await page().reload();
    expect(await heading()).toBe("Signed in as Ada Lovelace");
    expect(await (await page().request.get("/auth/session")).json()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } });

    expect(await submit("Sign out Ada Lovelace")).toBeLessThan(400);
    await expect.poll(heading).toBe("Not signed in");
    expect(await (await page().request.get("/auth/session")).json()).toBeNull();
    await page().reload();
    expect(await heading()).toBe("Not signed in");
  });

  it("stays signed out after a sign-out that leaves for the library's sign-in page, though every read re-issues the session cookie", async () => {
    await page().goto("/");
    await page().getByLabel("Username").fill("ada");
    await page().getByLabel("Password").fill("correct horse");
    expect(await submit("Sign in")).toBeLessThan(400);
    await expect.poll(heading).toBe("Signed in as Ada Lovelace");

    // The action's answer sends the browser on as a document; the page's loader runs in that request.
    expect(await submit("Leave for the sign-in page")).toBeLessThan(400);
    await page().waitForURL((target) => target.pathname === "/auth/signin");
    const cookies = await page().context().cookies(url());
    expect(cookies.map((cookie) => cookie.name).filter((name) => name.startsWith("appauth.session-token"))).toEqual([]);
    expect(await (await page().request.get("/auth/session")).json()).toBeNull();
    await page().goto("/");
    expect(await heading()).toBe("Not signed in");
  });

  it("shows a refused password on the page and creates no session", async () => {
    await page().goto("/");
    await page().getByLabel("Username").fill("ada");
    await page().getByLabel("Password").fill("wrong");
    // A failed action answers 400 with its value: the form's errors, shown on the page.
    expect(await submit("Sign in")).toBe(400);
    await expect.poll(() => page().getByRole("alert").textContent()).toBeTruthy();
    expect(await heading()).toBe("Not signed in");
    expect(await (await page().request.get("/auth/session")).json()).toBeNull();
  });

  it("counts the action's wrong passwords by the visitor's connection: the sixth for one name from this browser is refused unchecked", async () => {
    await page().goto("/");
    const alert = () => page().getByRole("alert").textContent();
    for (let attempt = 1; attempt <= 6; attempt++) {
      await page().getByLabel("Username").fill("grace");
      await page().getByLabel("Password").fill(`guess ${attempt}`);
      expect(await submit("Sign in")).toBe(400);
      // Five per name and client address: the sixth never reaches `authorize`.
      await expect.poll(alert).toBe(attempt <= 5 ? "Wrong username or password." : "Too many attempts. Please try again in 15 minutes.");
    }
  });

  it("signs in and out with JavaScript off: the same forms, posted by the browser", async () => {
    expect(await signInAndOutWithoutJavaScript(suite, "Sign out Ada Lovelace", "/auth")).toEqual({
      afterSignIn: "Signed in as Ada Lovelace",
      afterSignOut: "Not signed in",
      session: null,
    });
  });

  it("refuses a cross-site POST to /auth/callback/credentials (MissingCSRF): nobody is signed in", async () => {
    const answer = await crossSiteSignIn(url(), "/auth", "username=ada&password=correct+horse&callbackUrl=%2F");
    expect(answer).toMatchObject({ error: "MissingCSRF", sessionCookies: [] });
    expect(answer.status).toBeLessThan(500);
  });

  /**
   * A wrong password through the page's sign-in `<Form>`, posted as a browser without JavaScript
   * posts it (the action's `?qaction=` address from the rendered page): the alert the page then shows.
   */
  const actionGuess: Guess<string> = async (username, visit, attempt) => {
    const form = await renderedForm(visit, "/", /qaction=/);
    const answer = await submitForm(visit, form, { username, password: `guess ${attempt}` });
    const alert = /<p\b[^>]*role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(answer.body)?.[1];
    if (alert === undefined) throw new Error(`no alert in the action's answer (${answer.status}): ${answer.body.slice(0, 500)}`);
    return alert.replace(/<!--[\s\S]*?-->/g, "");
  };

  describeBehindProxy({
    app: () => suite.served().app,
    server,
    basePath: "/auth",
    platformAddress: "Qwik's clientConn.ip",
    action: { guess: actionGuess, checked: "Wrong username or password.", refused: "Too many attempts. Please try again in 15 minutes." },
  });
});
