/**
 * appauth as a SolidStart user installs it: packed with `npm pack`, installed into a fresh
 * SolidStart 1.3 app (vinxi 0.5, Nitro's node-server preset) outside the repository, with the files
 * of the docs' SolidStart page (test/e2e/fresh-solid/app: `ReactiveAuth` in src/lib/auth.ts, the
 * catch-all API route, the middleware, the "use server" queries and actions, the SessionProvider),
 * then `vinxi build` and the built server. Chromium signs in with a password through the sign-in
 * action, sees the session on the server-rendered page and signs out (and again with JavaScript
 * off), and stays signed out after a sign-out action that reads the session again in the same
 * request, with every read re-issuing the cookie; the action's wrong passwords count against the
 * browser's address, and their errors reach the browser without a stack trace; a cross-site POST to the
 * library's credentials route is refused by the library's own CSRF check. Behind a loopback reverse
 * proxy, with `trustProxy: 1` (a second server of the same build, TRUST_PROXY=1), plain HTTP from
 * distinct loopback addresses shows each visitor counted by the address the proxy saw, through the
 * credentials route and through the sign-in action, and one who goes around the proxy by their connection.
 */
import { describe, expect, it } from "vitest";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { describeBehindProxy, type Guess } from "./fresh-next/behind-proxy.js";
import { renderedForm, submitForm } from "./fresh-next/visitor-http.js";
import { SOLID_APP, SOLID_SERVER } from "./fresh-solid/spec.js";
import { crossSiteSignIn, packAndServe, servedInBrowser, signInAndOutWithoutJavaScript, type ServerCommand } from "./fresh-next/harness.js";

/** `npm pack` (the library build), `npm install` from an empty folder and a cold `vinxi build`, on two busy cores. */
const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the fresh SolidStart app e2e tests");
const server: ServerCommand = SOLID_SERVER;

describe.runIf(hasChromium)("appauth installed from its package into a fresh SolidStart app", BROWSER_SUITE, () => {
  const suite = servedInBrowser(
    "fresh solid",
    () =>
      packAndServe(SOLID_APP, server),
    SETUP_TIMEOUT,
  );
  const page = () => suite.page();
  const url = () => suite.served().server.url;
  const heading = () => page().getByRole("heading", { level: 1 }).textContent();
  const clientStatus = () => page().getByTestId("client-status").textContent();

  /** Loads `/` and waits until Solid has hydrated it: a click before that could be lost. */
  async function open(): Promise<void> {
    await page().goto("/");
    await page().locator("html[data-hydrated]").waitFor({ state: "attached" });
  }

  /** Submits a form with `button` and resolves with the server function's answer. */
  async function submit(button: string): Promise<void> {
    const answered = page().waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/_server"));
    await page().getByRole("button", { name: button }).click();
    expect((await answered).status()).toBeLessThan(400);
  }

  it("signs in with a password through the sign-in action, shows the session on the server-rendered page, and signs out", async () => {
    await open();
    expect(await heading()).toBe("Not signed in");
    expect(await clientStatus()).toBe("unauthenticated");
    await page().getByLabel("Username").fill("ada");
    await page().getByLabel("Password").fill("correct horse");
    await submit("Sign in");
    await expect.poll(heading).toBe("Signed in as Ada Lovelace");
    await expect.poll(clientStatus).toBe("authenticated");

    // The server renders the session into the page: its HTML, fetched with the browser's cookies.
    const html = await (await page().request.get("/")).text();
    expect(html).toMatch(/<h1[^>]*>Signed in as Ada Lovelace<\/h1>/);
    await open();
    expect(await heading()).toBe("Signed in as Ada Lovelace");
    expect(await (await page().request.get("/api/auth/session")).json()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } });

    await submit("Sign out");
    await expect.poll(heading).toBe("Not signed in");
    expect(await (await page().request.get("/api/auth/session")).json()).toBeNull();
    await open();
    expect(await heading()).toBe("Not signed in");
  });

  it("counts the action's wrong passwords by the visitor's connection (the event's clientAddress): the sixth for one name is refused unchecked", async () => {
    await open();
    const thrown: string[] = [];
    const bodies: string[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      await page().getByLabel("Username").fill("grace");
      await page().getByLabel("Password").fill(`guess ${attempt}`);
      const answered = page().waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/_server"));
      await page().getByRole("button", { name: "Sign in" }).click();
      // SolidStart names what a server function threw in X-Error, and serializes the error into the body.
      const answer = await answered;
      thrown.push(/\((\w+)\)/.exec(answer.headers()["x-error"] ?? "")?.[1] ?? "nothing");
      bodies.push(await answer.text());
    }
    // Five per name and client address: the sixth never reaches `authorize`.
    expect(thrown).toEqual([...Array<string>(5).fill("CredentialsSignin"), "RateLimited"]);
    // Bad input never yields a stack trace: the errors went to the browser without their frames.
    expect(bodies.filter((body) => body.includes("    at "))).toEqual([]);
    expect(bodies.every((body) => body.includes("CredentialsSignin") || body.includes("RateLimited"))).toBe(true);
  });

  it("stays signed out after a sign-out action that reads the session again in the same request, though every read re-issues the cookie", async () => {
    await open();
    await page().getByLabel("Username").fill("ada");
    await page().getByLabel("Password").fill("correct horse");
    const sessionReads = new Set<unknown>();
    page().on("request", (request) => void (new URL(request.url()).pathname === "/api/auth/session" && sessionReads.add(request)));
    page().on("requestfinished", (request) => void sessionReads.delete(request));
    page().on("requestfailed", (request) => void sessionReads.delete(request));
    await submit("Sign in");
    await expect.poll(heading).toBe("Signed in as Ada Lovelace");
    // The client's own session fetch after the sign-in must have landed first: a read still in flight
    // when the sign-out answers carries a re-issued JWT (every read re-issues here), and a JWT cannot be
    // revoked, so the browser would take it back. That is not the same-request case this test is about.
    await expect.poll(clientStatus).toBe("authenticated");
    await expect.poll(() => sessionReads.size).toBe(0);

    // The action signs out, reads the session, and SolidStart renders the page's queries in the same answer.
    await submit("End the session here");
    await expect.poll(heading).toBe("Not signed in");
    const cookies = await page().context().cookies(url());
    expect(cookies.map((cookie) => cookie.name).filter((name) => name.startsWith("appauth.session-token"))).toEqual([]);
    expect(await (await page().request.get("/api/auth/session")).json()).toBeNull();
    await open();
    expect(await heading()).toBe("Not signed in");
  });

  it("signs in and out with JavaScript off: the server actions' forms, posted by the browser", async () => {
    expect(await signInAndOutWithoutJavaScript(suite, "Sign out", "/api/auth")).toEqual({
      afterSignIn: "Signed in as Ada Lovelace",
      afterSignOut: "Not signed in",
      session: null,
    });
  });

  it("refuses a cross-site POST to /api/auth/callback/credentials (MissingCSRF): nobody is signed in", async () => {
    const answer = await crossSiteSignIn(url(), "/api/auth", "username=ada&password=correct+horse&callbackUrl=%2F");
    expect(answer).toMatchObject({ error: "MissingCSRF", sessionCookies: [] });
    expect(answer.status).toBeLessThan(500);
  });

  /**
   * A wrong password through the page's sign-in action, called as the page's script calls it: the
   * rendered form's address and fields (its CSRF token) with SolidStart's X-Server-Instance header;
   * what the action threw, named in X-Error.
   */
  const actionGuess: Guess<string> = async (username, visit, attempt) => {
    const form = await renderedForm(visit, "/", /\/_server/);
    const answer = await submitForm(visit, form, { username, password: `guess ${attempt}` }, { "x-server-instance": "server-fn:0" });
    const thrown = /\((\w+)\)/.exec(String(answer.headers["x-error"] ?? ""))?.[1];
    if (thrown === undefined) throw new Error(`the action threw nothing known (${answer.status}): ${String(answer.headers["x-error"])}`);
    return thrown;
  };

  describeBehindProxy({
    app: () => suite.served().app,
    server,
    basePath: "/api/auth",
    platformAddress: "the event's clientAddress",
    action: { guess: actionGuess, checked: "CredentialsSignin", refused: "RateLimited" },
  });
});
