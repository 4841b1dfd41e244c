/**
 * docs/getting-started/next.md followed as written (issue 26): the files of create-next-app 16's
 * recommended defaults (test/e2e/fresh-next/starter-next16: its next.config.ts with
 * `cacheComponents: true` and partial prefetching, its tsconfig.json and next-env.d.ts, as
 * `npx create-next-app@16.4.3 --yes` writes them), the packages of the guide's install block, then
 * every file of the guide's titled code blocks, with appauth packed by `npm pack`. The guide's "run"
 * block is run as it stands: the migration through tsx with `--env-file=.env.local` against a new
 * PostgreSQL database, `npm run build` (Turbopack), `npm start`; then a person signs in with the
 * guide's demo credentials in Chromium, and out.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { createFreshApp, packLibrary, servedInBrowser, startApp, type FreshApp, type FreshAppSpec } from "./fresh-next/harness.js";
import { block, guideBlocks, installedPackages, writeGuideFiles } from "./guide-blocks.js";

const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the Next.js guide e2e test");
const run = promisify(execFile);
const POSTGRES_URL = process.env.APPAUTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const STARTER = fileURLToPath(new URL("./fresh-next/starter-next16/", import.meta.url));

/** What the guide's install block installs, at the versions this test pins (next and react as create-next-app 16 pins them, newest patch). */
const SPEC: FreshAppSpec = {
  name: "guide-next16",
  // create-next-app's package.json scripts.
  scripts: { dev: "next dev", build: "next build", start: "next start", lint: "eslint" },
  dependencies: { next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1", kysely: "0.28.19", pg: "8.23.1" },
  devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43", "@types/react": "19.3.0", "@types/react-dom": "19.3.0", tsx: "4.23.15" },
};

const blocks = await guideBlocks("getting-started/next.md");

/** A database of its own, so the migration starts from nothing; dropped after. */
async function withDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `guide_next_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

describe.runIf(hasChromium)("docs/getting-started/next.md followed as written, in create-next-app 16's starter", BROWSER_SUITE, () => {
  let app: FreshApp | undefined;
  let buildOutput = "";
  let migrateOutput = "";
  const secret = crypto.randomUUID() + crypto.randomUUID();

  const suite = servedInBrowser(
    "guide next16",
    async () => {
      const packDir = await mkdtemp(join(tmpdir(), "appauth-pack-"));
      const template = await mkdtemp(join(tmpdir(), "appauth-guide-next-"));
      const database = await withDatabase();
      try {
        await cp(STARTER, template, { recursive: true });
        await writeGuideFiles(blocks, template);
        app = await createFreshApp({ ...SPEC, template }, await packLibrary(packDir));
        const env = { DATABASE_URL: database.url, AUTH_SECRET: secret };
        // The guide's "run" block, line by line: the migration as typed, then the two npm scripts.
        const [migrate, build, start] = block(blocks, "run").code.trim().split("\n");
        expect([build, start]).toEqual(["npm run build", "npm start"]);
        const [command, ...args] = migrate!.split(" ");
        const migrated = await run(command!, args, { cwd: app.dir, env: { ...process.env, ...env } });
        migrateOutput = `${migrated.stdout}${migrated.stderr}`;
        buildOutput = await app.npmRun("build");
        // `npm start` is the starter's `next start`; the harness gives it a free port and sets AUTH_URL to it.
        const server = await startApp(app, env);
        const served = app;
        return {
          app: served,
          server,
          async close() {
            await server.close();
            await served.dispose();
            await database.drop();
            await rm(packDir, { recursive: true, force: true });
            await rm(template, { recursive: true, force: true });
          },
        };
      } catch (error) {
        await app?.dispose();
        await database.drop();
        await rm(packDir, { recursive: true, force: true });
        await rm(template, { recursive: true, force: true });
        throw error;
      }
    },
    SETUP_TIMEOUT,
  );

  it("the guide shows every file it names, and installs what the test installs", () => {
    const titles = blocks.map((b) => b.title);
    for (const file of [".env.local", "auth.config.ts", "lib/users.ts", "auth.ts", "app/api/auth/[...appauth]/route.ts", "proxy.ts", "scripts/migrate.mts", "app/layout.tsx", "app/user-button.tsx", "app/page.tsx", "app/dashboard/page.tsx"]) {
      expect(titles).toContain(file);
    }
    const installed = installedPackages(block(blocks, "install").code);
    expect(installed.sort()).toEqual(["appauth", "kysely", "pg", "tsx"]);
    for (const name of installed.filter((n) => n !== "appauth")) expect({ ...SPEC.dependencies, ...SPEC.devDependencies }).toHaveProperty(name);
  });

  it("installs from the tarball without an install script, with the troubleshooting page the log links", async () => {
    const manifest = JSON.parse(await readFile(join(app!.dir, "node_modules/appauth/package.json"), "utf8")) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {})).not.toContain("prepare");
    expect(existsSync(join(app!.dir, "node_modules/appauth/docs/troubleshooting.md"))).toBe(true);
  });

  it("builds with the starter's cacheComponents and Turbopack, and migrates with tsx reading .env.local", () => {
    expect(buildOutput).toMatch(/Turbopack/);
    expect(buildOutput).toMatch(/Cache Components enabled/);
    expect(buildOutput).toMatch(/Proxy/);
    expect(migrateOutput).not.toMatch(/error/i);
  });

  it("signs in with the guide's demo credentials on the sign-in page, lands on /dashboard, and signs out", async () => {
    const page = suite.page();
    const url = suite.served().server.url;
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Not signed in");
    await page.getByRole("button", { name: "Sign in with email and password" }).click();
    await page.waitForURL(/\/api\/auth\/signin/);

    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in with Credentials" }).click();
    await page.waitForURL(`${url}/dashboard`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Hello Demo User");
    // The user button (a client component under SessionProvider) sees the session too.
    await expect.poll(() => page.getByRole("button", { name: "Sign out Demo User" }).count()).toBe(1);
    expect(await (await page.request.get("/api/auth/session")).json()).toMatchObject({ user: { email: "demo@example.com", name: "Demo User" } });

    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed in as Demo User");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Not signed in");
    expect(await (await page.request.get("/api/auth/session")).json()).toBeNull();
  });

  it("refuses a wrong password with one warning line naming CredentialsSignin once", async () => {
    const page = suite.page();
    await page.goto("/dashboard");
    await page.waitForURL(/\/api\/auth\/signin/);
    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in with Credentials" }).click();
    await page.waitForURL(/error=CredentialsSignin/);
    const said = suite.served().server.output().filter((line) => line.includes("CredentialsSignin"));
    expect(said).toHaveLength(1);
    expect(said[0]!.match(/CredentialsSignin/g)).toHaveLength(1); // the code (the link's anchor is lowercase)
    expect(said[0]).toContain("appauth/docs/troubleshooting.md#credentialssignin");
    expect(suite.served().server.output().filter((line) => /UntrustedHost|Date\.now|prerender/i.test(line))).toEqual([]);
  });
});
