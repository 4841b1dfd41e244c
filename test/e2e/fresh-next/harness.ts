/**
 * Fresh applications outside the repository, made the way a newcomer makes one: the library packed
 * with `npm pack` (its `prepack` script builds dist/), installed with `npm install` beside the
 * framework, then the files of the README's section for it. For Next.js (the defaults here): next,
 * react and the SQLite driver, app/ with proxy.ts or middleware.ts, `next build`, the documented
 * migration and `next start`. Qwik City and SolidStart apps pass their own template, manifest
 * scripts and server command (test/e2e/fresh-qwik.e2e.test.ts, fresh-solid.e2e.test.ts).
 *
 * Locally an app's node_modules is kept between runs (in os.tmpdir(), keyed by the versions it
 * holds) and only appauth is installed again; with CI=true every app starts from an empty folder.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS } from "../../helpers/chromium.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TEMPLATES = fileURLToPath(new URL("./", import.meta.url));
const run = promisify(execFile);

/** Next's own variables: no telemetry, and no rewriting of a lockfile it thinks incomplete. */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };

export interface FreshAppSpec {
  /** A name for folders and messages, e.g. `next16`. */
  name: string;
  /** Where Next finds the request guard: `proxy.ts` (Next 16) or `middleware.ts` (Next 15); none for other frameworks. */
  guard?: "proxy.ts" | "middleware.ts";
  /** The app's files; default the README's Next.js section (fresh-next/app). */
  template?: string;
  /**
   * The framework starter's own config files (e.g. fresh-next/starter-next16: the next.config.ts,
   * tsconfig.json and next-env.d.ts create-next-app writes), copied over the template.
   */
  starter?: string;
  /** package.json's scripts; default Next's `build` and `start`. */
  scripts?: Record<string, string>;
  /** Other package.json fields (`type`, `overrides`). */
  manifest?: Record<string, unknown>;
  /** Exact versions of what the newcomer installs beside appauth. */
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /**
   * A folder where the compiled SQLite driver is kept for the next app of the run: better-sqlite3
   * compiles its binding when installed (no prebuilt can be downloaded here), minutes on two busy
   * cores. The same version on the same Node builds the same file, so the second app starts with
   * the first app's copy in node_modules and npm keeps it.
   */
  driverCache?: string;
}

/**
 * Packs the library into `destination` (npm runs `prepack`, which builds dist/ and takes `prepare`
 * out of package.json until `postpack`); the tarball's path. One pack at a time across the run's
 * test processes: two at once would rebuild dist/ under each other and could pack the manifest
 * while the other restores it.
 */
export async function packLibrary(destination: string): Promise<string> {
  const release = await lock(join(tmpdir(), `appauth-pack-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`));
  let stdout: string;
  try {
    ({ stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }));
  } finally {
    await release();
  }
  // `prepack`'s output comes first on stdout; npm's JSON report is the last thing printed.
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as Array<{ filename: string }>;
  return join(destination, report[0]!.filename);
}

export interface FreshApp {
  dir: string;
  /** Runs `next <args>` in the app; rejects with the output when it fails. */
  next(args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** Runs `node <file>` in the app, as a deploy step would. */
  node(file: string, env?: NodeJS.ProcessEnv): Promise<string>;
  /** Runs `npm run <script>` in the app (NODE_ENV=production); rejects with the output when it fails. */
  npmRun(script: string, env?: NodeJS.ProcessEnv): Promise<string>;
  /** Lets other runs use the cached folder again (in CI: removes the folder). */
  dispose(): Promise<void>;
}

/** Whether the process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `<dir>.lock`, so two local runs never share one cached app at once; resolves with its
 * release. A lock whose process is gone (a run that was stopped) is taken over.
 */
async function lock(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`;
  for (;;) {
    try {
      await mkdir(path);
      await writeFile(join(path, "pid"), String(process.pid));
      return () => rm(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(await readFile(join(path, "pid"), "utf8").catch(() => "0"));
      const held = await stat(path).catch(() => undefined);
      const abandoned = holder > 0 ? !alive(holder) : held !== undefined && Date.now() - held.mtimeMs > 60_000;
      if (abandoned) await rm(path, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function output(error: unknown): string {
  const failed = error as { stdout?: string; stderr?: string; message?: string };
  return [failed.message, failed.stdout, failed.stderr].filter(Boolean).join("\n").split("\n").slice(-80).join("\n");
}

/** Creates the app `spec` with `tarball` installed; `dispose()` it when done. */
export async function createFreshApp(spec: FreshAppSpec, tarball: string): Promise<FreshApp> {
  const inCI = process.env.CI === "true";
  const key = createHash("sha256")
    .update(JSON.stringify([process.version, spec.dependencies, spec.devDependencies]))
    .digest("hex")
    .slice(0, 16);
  const cacheRoot = join(tmpdir(), "appauth-fresh-next");
  await mkdir(cacheRoot, { recursive: true });
  const dir = inCI ? await mkdtemp(join(tmpdir(), `appauth-fresh-${spec.name}-`)) : join(cacheRoot, `${spec.name}-${key}`);
  const release = inCI ? async () => {} : await lock(dir);
  const dispose = async () => {
    await release();
    if (inCI) await rm(dir, { recursive: true, force: true });
  };

  try {
    await mkdir(dir, { recursive: true });
    // Everything but node_modules is written anew: sources, the build, the database.
    for (const entry of await readdir(dir)) if (entry !== "node_modules") await rm(join(dir, entry), { recursive: true, force: true });
    await rm(join(dir, "node_modules", "appauth"), { recursive: true, force: true });

    await cp(spec.template ?? join(TEMPLATES, "app"), dir, { recursive: true });
    if (spec.starter) await cp(spec.starter, dir, { recursive: true });
    // An app has one of the two: Next 16 refuses both, and Next 15 knows only middleware.ts.
    if (spec.guard) await rm(join(dir, spec.guard === "proxy.ts" ? "middleware.ts" : "proxy.ts"), { force: true });
    await copyFile(tarball, join(dir, "appauth.tgz"));
    const manifest = {
      name: `fresh-${spec.name}`,
      private: true,
      ...spec.manifest,
      scripts: spec.scripts ?? { build: "next build", start: "node migrate.mjs && next start" },
      dependencies: { appauth: "file:appauth.tgz", ...spec.dependencies },
      devDependencies: spec.devDependencies,
      // npm 11 runs a dependency's install script only when the project allows it: the driver builds its binding.
      allowScripts: { "better-sqlite3": true },
    };
    await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const driver = join(dir, "node_modules", "better-sqlite3");
    const cachedDriver = spec.driverCache && join(spec.driverCache, `better-sqlite3@${spec.dependencies["better-sqlite3"]}`);
    if (cachedDriver && existsSync(cachedDriver) && !existsSync(driver)) await cp(cachedDriver, driver, { recursive: true });
    await run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: unknown) => {
        throw new Error(`npm install failed in ${dir}:\n${output(error)}`);
      },
    );
    if (cachedDriver && !existsSync(cachedDriver)) await cp(driver, cachedDriver, { recursive: true });
  } catch (error) {
    await dispose();
    throw error;
  }

  const exec = async (args: string[], env: NodeJS.ProcessEnv = {}, command = process.execPath): Promise<string> => {
    try {
      const { stdout, stderr } = await run(command, args, {
        cwd: dir,
        env: { ...process.env, ...NEXT_ENV, NODE_ENV: "production", ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return `${stdout}\n${stderr}`;
    } catch (error) {
      throw new Error(`${args.join(" ")} failed in ${dir}:\n${output(error)}`);
    }
  };
  const nextBin = join(dir, "node_modules", "next", "dist", "bin", "next");
  return {
    dir,
    next: (args, env) => exec([nextBin, ...args], env),
    node: (file, env) => exec([file], env),
    npmRun: (script, env) => exec(["run", script], env, "npm"),
    dispose,
  };
}

/** A port nobody listens on right now (`next start` must be told its port). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "localhost", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface StartedApp {
  url: string;
  /** The last lines the app printed. */
  output(): string[];
  close(): Promise<void>;
}

export interface ServerCommand {
  /** For messages: `next start`, `the Qwik City server`. */
  name: string;
  /** Node's arguments, given the port (a script path, or a CLI and its options). */
  args(port: number): string[];
  /** The environment on top of this process's (NODE_ENV, PORT, the app's variables); AUTH_URL is set to the app's URL. */
  env: NodeJS.ProcessEnv;
  /** A path that answers 200 once the app serves requests, e.g. the library's providers route. */
  ready: string;
  /** How long the first answer may take (ms); default 60 s. */
  timeout?: number;
  /** How long one request to `ready` may take (ms); default 5 s. */
  requestTimeout?: number;
  /** The variable the server reads its port from (`PORT` for Qwik's node-server and Nitro); none when `args` carries it. */
  portVariable?: string;
}

/** Runs `node <command.args(port)>` in `app.dir` on a free port; resolved once `command.ready` answers 200. */
export async function startServer(app: FreshApp, command: ServerCommand): Promise<StartedApp> {
  const timeout = command.timeout ?? 60_000;
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, command.args(port), {
    cwd: app.dir,
    env: { ...process.env, AUTH_URL: url, ...(command.portVariable ? { [command.portVariable]: String(port) } : {}), ...command.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split(/\r?\n/).filter(Boolean));
    if (lines.length > 300) lines.splice(0, lines.length - 300);
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(force);
    }
  };

  const deadline = Date.now() + timeout;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.name} exited early:\n${lines.join("\n")}`);
    try {
      const response = await fetch(`${url}${command.ready}`, { signal: AbortSignal.timeout(command.requestTimeout ?? 5000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`${command.name} did not answer in time:\n${lines.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => [...lines], close };
}

/**
 * `next start` (or `next dev` with `mode: "dev"`, and the extra `args`) in `app.dir`, resolved once
 * the library's providers route answers.
 */
export function startApp(app: FreshApp, env: NodeJS.ProcessEnv, options: { mode?: "start" | "dev"; args?: string[] } = {}): Promise<StartedApp> {
  const mode = options.mode ?? "start";
  return startServer(app, {
    name: `next ${mode}`,
    args: (port) => [join(app.dir, "node_modules", "next", "dist", "bin", "next"), mode, "--port", String(port), "--hostname", "localhost", ...(options.args ?? [])],
    env: { ...NEXT_ENV, NODE_ENV: mode === "dev" ? "development" : "production", ...env },
    ready: "/api/auth/providers",
    // `next dev` compiles the route on the first request: minutes on two busy cores.
    timeout: mode === "dev" ? 240_000 : 60_000,
    requestTimeout: mode === "dev" ? 240_000 : 5000,
  });
}

/** A fresh app built and served: `packAndServe`'s answer. */
export interface ServedApp {
  app: FreshApp;
  server: StartedApp;
  /** Stops the server, lets the app's folder go and removes the tarball. */
  close(): Promise<void>;
}

/**
 * The whole path of a newcomer's app: `npm pack` the library, make the app `spec` with it,
 * `npm run build` there, then start the built server with `command`.
 */
export async function packAndServe(spec: FreshAppSpec, command: ServerCommand): Promise<ServedApp> {
  const packDir = await mkdtemp(join(tmpdir(), "appauth-pack-"));
  let app: FreshApp | undefined;
  let server: StartedApp | undefined;
  const close = async () => {
    await server?.close();
    await app?.dispose();
    await rm(packDir, { recursive: true, force: true });
  };
  try {
    app = await createFreshApp(spec, await packLibrary(packDir));
    await app.npmRun("build");
    server = await startServer(app, command);
    return { app, server, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What the library answered a sign-in posted from another site (see `crossSiteSignIn`). */
export interface CrossSiteAnswer {
  status: number;
  /** The `error` parameter of the redirect, e.g. `MissingCSRF`. */
  error: string | null;
  /** Set-Cookie lines for the session token: none when nobody was signed in. */
  sessionCookies: string[];
}

/**
 * Posts the right password to `<basePath>/callback/credentials` of the app at `url` as another
 * site's `<form>` would (its Origin and Referer, no cookies, no CSRF token); the redirect is not followed.
 */
export async function crossSiteSignIn(url: string, basePath: string, body: string): Promise<CrossSiteAnswer> {
  const evil = "https://evil.example";
  const response = await fetch(new URL(`${basePath}/callback/credentials`, url), {
    method: "POST",
    redirect: "manual",
    headers: { origin: evil, referer: `${evil}/`, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return {
    status: response.status,
    error: new URL(response.headers.get("location") ?? "", url).searchParams.get("error"),
    sessionCookies: response.headers.getSetCookie().filter((line) => line.startsWith("appauth.session-token")),
  };
}

/** What `servedInBrowser` gives a suite: the app, and the page of the running test. */
export interface BrowserSuite {
  served(): ServedApp;
  page(): Page;
  /** For a test that needs a context of its own (JavaScript off, say); it closes what it opens. */
  browser(): Browser;
}

/**
 * Registers a suite's hooks: `setup()` (e.g. `packAndServe`) and Chromium before all tests, a new
 * browser context and page for each test (the app's last lines printed when it fails), and
 * everything closed after all. `label` names the suite in those messages.
 */
export function servedInBrowser(label: string, setup: () => Promise<ServedApp>, timeout: number): BrowserSuite {
  let served: ServedApp | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    served = await setup();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, timeout);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ baseURL: served!.server.url });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") console.error(`[${label}] the page was ${page?.url()}; the app printed:\n${served?.server.output().slice(-60).join("\n")}`);
    await context?.close();
  });
  return { served: () => served!, page: () => page!, browser: () => browser! };
}

/** The page's `<h1>` after each step of `signInAndOutWithoutJavaScript`, and the session route's answer at the end. */
export interface PlainFormsRun {
  afterSignIn: string | null;
  afterSignOut: string | null;
  session: unknown;
}

/**
 * Signs in as ada with the page's Username and Password fields and its "Sign in" button, then out
 * with the `signOut` button, in a context with JavaScript off (the forms posted by the browser).
 */
export async function signInAndOutWithoutJavaScript(suite: BrowserSuite, signOut: string, basePath: string): Promise<PlainFormsRun> {
  const context = await suite.browser().newContext({ baseURL: suite.served().server.url, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const heading = () => page.getByRole("heading", { level: 1 }).textContent();
    const submit = (button: string) => Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button }).click()]);
    await page.goto("/");
    await page.getByLabel("Username").fill("ada");
    await page.getByLabel("Password").fill("correct horse");
    await submit("Sign in");
    const afterSignIn = await heading();
    await submit(signOut);
    const afterSignOut = await heading();
    return { afterSignIn, afterSignOut, session: await (await page.request.get(`${basePath}/session`)).json() };
  } finally {
    await context.close();
  }
}
