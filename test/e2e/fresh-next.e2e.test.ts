/**
 * appauth as a newcomer meets it: packed with `npm pack`, installed into fresh Next.js apps outside
 * the repository, with the files the README's Next.js section shows (test/e2e/fresh-next/app:
 * auth.config.ts, auth.ts with the SQLite adapter, the route handler, proxy.ts or middleware.ts, a
 * server component page and a client component under SessionProvider), then `next build`, the
 * documented migration and `next start`; a person signs in in Chromium with a password and with an
 * email link (a real SMTP server). Two apps: Next 16 with Turbopack (its default) and proxy.ts, and
 * Next 15 with webpack (its default) and middleware.ts on the edge runtime.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, chromiumFor } from "../helpers/chromium.js";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.js";
import { createFreshApp, packLibrary, startApp, type FreshApp, type FreshAppSpec, type StartedApp } from "./fresh-next/harness.js";

/** `npm install` from an empty folder (the SQLite driver compiles) and a cold `next build`, on two busy cores. */
const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the fresh Next.js app e2e tests");

const common = { react: "19.3.1", "react-dom": "19.3.1", "better-sqlite3": "12.11.1", kysely: "0.28.19", nodemailer: "8.0.11" };
const devDependencies = { typescript: "5.9.3", "@types/node": "20.19.43", "@types/react": "19.3.0" };

/**
 * The config files create-next-app writes with its recommended defaults (`--yes`): for 16.4 a
 * next.config.ts with `cacheComponents: true` (so the app's pages read the session inside
 * `<Suspense>`), for 15.5 an empty one.
 */
const starter = (next: "next15" | "next16") => fileURLToPath(new URL(`./fresh-next/starter-${next}/`, import.meta.url));

/** Each app, the bundler `next build` uses by default, and how `next dev` is asked for Turbopack. */
const APPS: Array<FreshAppSpec & { bundler: "Turbopack" | "webpack"; devArgs: string[] }> = [
  { name: "next16", guard: "proxy.ts", bundler: "Turbopack", devArgs: [], starter: starter("next16"), dependencies: { next: "16.4.6", ...common }, devDependencies },
  { name: "next15", guard: "middleware.ts", bundler: "webpack", devArgs: ["--turbopack"], starter: starter("next15"), dependencies: { next: "15.5.29", ...common }, devDependencies },
];

/** The built-in sign-in page's password form, filled as a person would. */
async function signInWithPassword(page: Page, password = "correct horse"): Promise<void> {
  const form = page.locator('section[data-provider-type="credentials"]');
  await form.getByLabel("Username").fill("ada");
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in with Credentials" }).click();
}

describe.runIf(hasChromium)("appauth installed from its package into a fresh Next.js app", () => {
  let packDir: string;
  let tarball: string;
  let smtp: TestSmtpServer;
  let browser: Browser;

  beforeAll(async () => {
    packDir = await mkdtemp(join(tmpdir(), "appauth-pack-"));
    tarball = await packLibrary(packDir);
    smtp = await startSmtpServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
    if (packDir) await rm(packDir, { recursive: true, force: true });
  });

  describe.each(APPS)("Next $dependencies.next with $bundler and $guard", (spec) => {
    let app: FreshApp;
    let server: StartedApp;
    let buildOutput: string;
    let context: BrowserContext;
    let page: Page;
    const database = () => join(app.dir, "auth.sqlite");
    const secret = crypto.randomUUID() + crypto.randomUUID();

    beforeAll(async () => {
      app = await createFreshApp({ ...spec, driverCache: packDir }, tarball);
      buildOutput = await app.next(["build"]);
      const env = { DATABASE_FILE: database(), EMAIL_SERVER: `smtp://${smtp.host}:${smtp.port}`, AUTH_SECRET: secret };
      await app.node("migrate.mjs", env);
      server = await startApp(app, env);
    }, SETUP_TIMEOUT);

    afterAll(async () => {
      await server?.close();
      await app?.dispose();
    });

    beforeEach(async () => {
      context = await browser.newContext({ baseURL: server.url });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
    });

    afterEach(async ({ task }) => {
      if (task.result?.state === "fail") console.error(`[fresh ${spec.name}] the app printed:\n${server.output().slice(-60).join("\n")}`);
      await context?.close();
    });

    it(`was built by ${spec.bundler}, with the request guard in ${spec.guard}`, () => {
      if (spec.bundler === "Turbopack") expect(buildOutput).toMatch(/Turbopack/);
      else expect(buildOutput).not.toMatch(/Turbopack/);
      expect(buildOutput).toMatch(spec.guard === "proxy.ts" ? /Proxy/ : /Middleware/);
    });

    it("sends a visitor of /account to sign in, and back there after a password sign-in; both components see the session", async () => {
      await page.goto("/account?tab=profile");
      const signIn = new URL(page.url());
      expect(signIn.pathname).toBe("/api/auth/signin");
      expect(signIn.searchParams.get("callbackUrl")).toBe(`${server.url}/account?tab=profile`);

      await signInWithPassword(page);
      await page.waitForURL(`${server.url}/account?tab=profile`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Account of ada@example.test");

      // The pages router loads the package through Node's own module loader.
      expect(await (await page.request.get("/api/whoami")).json()).toEqual({ email: "ada@example.test" });

      await page.goto("/");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Ada Lovelace");
      await expect.poll(() => page.getByTestId("client-email").textContent()).toBe("ada@example.test");

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${server.url}/`);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Not signed in");
      await expect.poll(() => page.getByTestId("client-status").textContent()).toBe("unauthenticated");
      expect(await (await page.request.get("/api/whoami")).json()).toEqual({ email: null });
    });

    it("refuses a wrong password on the sign-in page and creates no session", async () => {
      await page.goto("/api/auth/signin");
      await signInWithPassword(page, "wrong");
      await page.waitForURL(/error=CredentialsSignin/);
      await page.goto("/account");
      expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
    });

    /** Asks for a link on the sign-in page, follows it from the mail, and lands on /account. */
    async function signInByEmail(address: string): Promise<void> {
      await page.goto(`/api/auth/signin?callbackUrl=${encodeURIComponent("/account")}`);
      await page.locator('section[data-provider-type="email"]').getByLabel("Email").fill(address);
      await page.getByRole("button", { name: "Sign in with Email" }).click();
      await page.waitForURL(/\/api\/auth\/verify-request/);

      const mail = await smtp.waitForMessage(address, 60_000);
      const link = mail.text?.match(/https?:\/\/\S+/)?.[0];
      expect(link, mail.text).toBeDefined();
      expect(new URL(link!).origin).toBe(server.url);
      await page.goto(link!);
      await page.waitForURL(`${server.url}/account`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Account of ${address}`);
    }

    function storedUser(file: string, email: string): { email: string; emailVerified: number | null } | undefined {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT email, emailVerified FROM users WHERE email = ?").get(email) as
          | { email: string; emailVerified: number | null }
          | undefined;
      } finally {
        db.close();
      }
    }

    it("signs in with a link sent by email, storing the new user in the SQLite file", async () => {
      const address = `reader-${spec.name}@example.test`;
      await signInByEmail(address);
      const user = storedUser(database(), address);
      expect(user?.email).toBe(address);
      expect(user?.emailVerified).not.toBeNull();
    });

    describe(`under next dev${spec.devArgs.length ? ` ${spec.devArgs.join(" ")}` : ""} (Turbopack)`, () => {
      beforeAll(async () => {
        // One server at a time: next dev writes where next start reads.
        await server.close();
        const env = { DATABASE_FILE: join(app.dir, "dev.sqlite"), EMAIL_SERVER: `smtp://${smtp.host}:${smtp.port}`, AUTH_SECRET: secret };
        server = await startApp(app, env, { mode: "dev", args: spec.devArgs });
      }, SETUP_TIMEOUT);

      it("signs in by email on a new database file: the tables are created on first use, with no migration step", async () => {
        // The first request to each route compiles it.
        page.setDefaultTimeout(120_000);
        const address = `dev-${spec.name}@example.test`;
        await signInByEmail(address);
        expect(storedUser(join(app.dir, "dev.sqlite"), address)?.email).toBe(address);
        // With cacheComponents (next16's starter config) Next checks each render's prerender stages
        // and reports a clock read there ("encountered the unstable value `Date.now()` while
        // prerendering") against the page calling auth(): auth() waits for connection() first.
        expect(server.output().filter((line) => /while prerendering|blocking-prerender/.test(line))).toEqual([]);
      }, 300_000);
    });
  });
});
