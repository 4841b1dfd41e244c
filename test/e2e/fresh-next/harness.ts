/**
 * Fresh Next.js applications outside the repository, made the way a newcomer makes one: the
 * library packed with `npm pack` (its `prepare` script builds dist/), installed with `npm install`
 * beside next, react and the SQLite driver, the files of the README's Next.js section (app/ here,
 * with proxy.ts or middleware.ts), then `next build`, the documented migration and `next start`.
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

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TEMPLATES = fileURLToPath(new URL("./", import.meta.url));
const run = promisify(execFile);

/** Next's own variables: no telemetry, and no rewriting of a lockfile it thinks incomplete. */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };

export interface FreshAppSpec {
  /** A name for folders and messages, e.g. `next16`. */
  name: string;
  /** Where Next finds the request guard: `proxy.ts` (Next 16) or `middleware.ts` (Next 15). */
  guard: "proxy.ts" | "middleware.ts";
  /** The app's files; default the README's Next.js section (fresh-next/app). */
  template?: string;
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

/** Packs the library into `destination` (npm runs `prepare`, which builds dist/); the tarball's path. */
export async function packLibrary(destination: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  // `prepare`'s output comes first on stdout; npm's JSON report is the last thing printed.
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as Array<{ filename: string }>;
  return join(destination, report[0]!.filename);
}

export interface FreshApp {
  dir: string;
  /** Runs `next <args>` in the app; rejects with the output when it fails. */
  next(args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** Runs `node <file>` in the app, as a deploy step would. */
  node(file: string, env?: NodeJS.ProcessEnv): Promise<string>;
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
    // An app has one of the two: Next 16 refuses both, and Next 15 knows only middleware.ts.
    await rm(join(dir, spec.guard === "proxy.ts" ? "middleware.ts" : "proxy.ts"), { force: true });
    await copyFile(tarball, join(dir, "appauth.tgz"));
    const manifest = {
      name: `fresh-${spec.name}`,
      private: true,
      scripts: { build: "next build", start: "node migrate.mjs && next start" },
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

  const exec = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
    try {
      const { stdout, stderr } = await run(process.execPath, args, {
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
  return { dir, next: (args, env) => exec([nextBin, ...args], env), node: (file, env) => exec([file], env), dispose };
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

/**
 * `next start` (or `next dev` with `mode: "dev"`, and the extra `args`) in `app.dir`, resolved once
 * the library's providers route answers.
 */
export async function startApp(
  app: FreshApp,
  env: NodeJS.ProcessEnv,
  options: { mode?: "start" | "dev"; args?: string[] } = {},
): Promise<StartedApp> {
  const mode = options.mode ?? "start";
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(app.dir, "node_modules", "next", "dist", "bin", "next"), mode, "--port", String(port), "--hostname", "localhost", ...(options.args ?? [])],
    {
      cwd: app.dir,
      env: { ...process.env, ...NEXT_ENV, NODE_ENV: mode === "dev" ? "development" : "production", AUTH_URL: url, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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

  // `next dev` compiles the route on the first request: minutes on two busy cores.
  const deadline = Date.now() + (mode === "dev" ? 240_000 : 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next ${mode} exited early:\n${lines.join("\n")}`);
    try {
      const response = await fetch(`${url}/api/auth/providers`, { signal: AbortSignal.timeout(mode === "dev" ? 240_000 : 5000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`next ${mode} did not answer in time:\n${lines.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => [...lines], close };
}
