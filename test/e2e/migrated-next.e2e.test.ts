/**
 * A next-auth v5 app switched with `npx appauth migrate` (issue 16): the sample app of
 * test/fixtures/nextauth-v5-app (GitHub, Google and credentials providers, jwt/session/authorized
 * callbacks, a custom sign-in page with a server action, events, middleware, SessionProvider and
 * useSession, type augmentation) in a fresh Next 15 app outside the repository with the packed library
 * installed. The codemod is the installed package's, and it changes every file (the ForwardEmail
 * provider included: appauth has every Auth.js provider since issue 29). Then `next build` (which
 * type-checks the app) and `next start`, and a person signs in with credentials in Chromium, sees the
 * session on the server and in the client component, and signs out.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, chromiumFor } from "../helpers/chromium.js";
import { createFreshApp, packLibrary, startApp, type FreshApp, type StartedApp } from "./fresh-next/harness.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/nextauth-v5-app", import.meta.url));
/** `npm install` from an empty folder and a cold `next build`, on two busy cores. */
const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the migrated next-auth app e2e test");
const run = promisify(execFile);

describe.runIf(hasChromium)("a next-auth v5 app after `appauth migrate`, in a fresh Next 15 app", () => {
  let workDir: string;
  let app: FreshApp;
  let server: StartedApp;
  let browser: Browser;
  let page: Page;
  let migrateOutput: string;
  let buildOutput: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "appauth-migrated-"));
    const tarball = await packLibrary(workDir);
    const template = join(workDir, "app");
    await cp(FIXTURE, template, { recursive: true });
    app = await createFreshApp(
      {
        name: "migrated-next15",
        guard: "middleware.ts",
        template,
        dependencies: { next: "15.5.29", react: "19.3.1", "react-dom": "19.3.1" },
        devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43", "@types/react": "19.3.0" },
      },
      tarball,
    );
    // `npx appauth migrate`: the package's own bin (it would exit 1 had it left something to do by hand).
    const bin = join(app.dir, "node_modules", "appauth", "dist", "src", "cli", "bin.js");
    migrateOutput = await run(process.execPath, [bin, "migrate", "."], { cwd: app.dir }).then(
      ({ stdout, stderr }) => `${stdout}${stderr}`,
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
    );
    buildOutput = await app.next(["build"]);
    server = await startApp(app, {
      AUTH_SECRET: crypto.randomUUID() + crypto.randomUUID(),
      // The OAuth providers are configured from the environment, as in the next-auth app; this test signs in with a password.
      AUTH_GITHUB_ID: "github-client",
      AUTH_GITHUB_SECRET: "github-secret",
      AUTH_GOOGLE_ID: "google-client",
      AUTH_GOOGLE_SECRET: "google-secret",
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ baseURL: server.url })).newPage();
    page.setDefaultTimeout(15_000);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await app?.dispose();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("was migrated by the codemod, every file changed and nothing left to do by hand, and built (type-checked) by next build", () => {
    expect(migrateOutput).toMatch(/changed forward-email\.ts: next-auth\/providers\/forwardemail → appauth\/providers\/forwardemail/);
    expect(migrateOutput).toMatch(/0 thing\(s\) to do by hand/);
    expect(migrateOutput).not.toMatch(/could not change/);
    expect(buildOutput).toMatch(/Linting and checking validity of types|Checking validity of types/);
    expect(buildOutput).toMatch(/Middleware/);
  });

  it("sends a visitor of /dashboard to the app's login page, signs in with credentials, shows the session, and signs out", async () => {
    if (!server) throw new Error("the app did not start");
    await page.goto("/dashboard");
    const login = new URL(page.url());
    expect(login.pathname).toBe("/login");

    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password").fill("demo");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Dashboard of demo@example.com");

    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo");
    // The session callback's session.user.id, from the jwt callback's token.uid.
    expect(await page.getByTestId("user-id").textContent()).toBe("1");
    // useSession in the client component.
    await expect.poll(() => page.getByText("Demo", { exact: true }).count()).toBe(1);

    // The client signs out with two requests (CSRF token, then the POST) and then navigates to "/",
    // where the page already is: waiting for that URL proves nothing, and a reload before the POST is
    // answered aborts the sign-out. So the POST's answer is awaited first.
    const signedOut = page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/api/auth/signout",
    );
    await page.getByRole("button", { name: "Sign out" }).click();
    expect((await signedOut).ok()).toBe(true);
    await expect.poll(async () => {
      await page.reload();
      return page.getByRole("heading", { level: 1 }).textContent();
    }).toBe("Not signed in");
    await page.goto("/dashboard");
    expect(new URL(page.url()).pathname).toBe("/login");
  }, 120_000);
});
