/**
 * The SolidStart example (examples/solid-start) as `npm run demo:solid` and the e2e tests run it.
 * The example is an app of its own — its package.json, its node_modules — that gets appauth the
 * way a user's app would, as a package (`"appauth": "file:../.."`, a link to this repository):
 * so appauth is built first (`tsc` to dist/, what the package exports), then the app (`vinxi
 * build`), each only when its sources changed; the app's dependencies are installed when missing.
 * It is served by Nitro's node server with the demo's services beside it (demo-services.ts).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { collect, exitOf, isNewerThanInputs, runDemo, serveExample, withBuildLock, type RunningExample, type StartExampleOptions } from "./demo-services.js";

export { DEMO_IDP_ID, type RunningExample, type StartExampleOptions } from "./demo-services.js";

export const EXAMPLE_DIR = fileURLToPath(new URL("../examples/solid-start/", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const VINXI = join(EXAMPLE_DIR, "node_modules", "vinxi", "bin", "cli.mjs");
/** Written last by `vinxi build` (Nitro), and by `tsc` for the integration. */
const APP_BUILT = join(EXAMPLE_DIR, ".output", "nitro.json");
const LIBRARY_BUILT = join(ROOT, "dist", "integrations", "solid-start", "client.js");
const SERVER = join(EXAMPLE_DIR, ".output", "server", "index.mjs");

const LIBRARY_INPUTS = ["src", "integrations", "machines", "package.json", "tsconfig.json", "tsconfig.build.json"];
/** The app's own sources, the library's, and the Next.js example's files it shares (the demo account, the stylesheet). */
const APP_INPUTS = ["examples/solid-start", "examples/next/lib", "examples/shared", ...LIBRARY_INPUTS];
const NOT_INPUTS = new Set(["node_modules", ".output", ".vinxi", ".data", "visualize", "package-lock.json"]);

const PREFIX = "/api/auth";

/** Whether the example's dependencies are installed. */
export function isInstalled(): boolean {
  return existsSync(VINXI) && existsSync(join(EXAMPLE_DIR, "node_modules", "appauth", "package.json"));
}

/** Whether dist/ and the app's .output are both newer than every file they are made of. */
export async function buildIsCurrent(): Promise<boolean> {
  return isInstalled() && (await isNewerThanInputs(LIBRARY_BUILT, LIBRARY_INPUTS, NOT_INPUTS)) && (await isNewerThanInputs(APP_BUILT, APP_INPUTS, NOT_INPUTS));
}

export interface BuildOptions {
  /** Build even when the builds are current. */
  force?: boolean;
  /** `inherit` shows the tools' output; `capture` keeps it for the error message. Default `inherit`. */
  output?: "inherit" | "capture";
}

async function run(command: string, args: string[], options: BuildOptions & { cwd: string; env?: NodeJS.ProcessEnv }): Promise<void> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: options.output === "capture" ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = collect(child, 200);
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`${[command, ...args].join(" ")} failed (exit code ${code}) in ${options.cwd}.\n${output().join("\n")}`);
}

function install(options: BuildOptions): Promise<void> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  return run(npm, ["install", "--no-audit", "--no-fund"], { ...options, cwd: EXAMPLE_DIR });
}

/** Installs the example's dependencies unless they are there (its type-check needs them too). */
export async function installExample(options: BuildOptions = {}): Promise<void> {
  if (isInstalled()) return;
  await withBuildLock("appauth-solid-example-build", async () => {
    if (!isInstalled()) await install(options);
  });
}

/**
 * Installs the example's dependencies when missing, then builds appauth and the app where they
 * are stale; resolves with whether anything was built and how long it all took.
 */
export async function buildExample(options: BuildOptions = {}): Promise<{ built: boolean; seconds: number }> {
  if (!options.force && (await buildIsCurrent())) return { built: false, seconds: 0 };
  return withBuildLock("appauth-solid-example-build", async () => {
    const started = performance.now();
    let built = false;
    if (!isInstalled()) {
      await install(options);
      built = true;
    }
    if (options.force || !(await isNewerThanInputs(LIBRARY_BUILT, LIBRARY_INPUTS, NOT_INPUTS))) {
      await run(process.execPath, [TSC, "-p", "tsconfig.build.json"], { ...options, cwd: ROOT });
      built = true;
    }
    if (options.force || !(await isNewerThanInputs(APP_BUILT, APP_INPUTS, NOT_INPUTS))) {
      await run(process.execPath, [VINXI, "build"], { ...options, cwd: EXAMPLE_DIR, env: { NODE_ENV: "production" } });
      built = true;
    }
    return { built, seconds: (performance.now() - started) / 1000 };
  });
}

/** Starts the demo's services and the built example (Nitro's node server) beside them; resolves once the app answers. */
export function startExample(options: StartExampleOptions): Promise<RunningExample> {
  return serveExample(options, { name: "the SolidStart server", cwd: EXAMPLE_DIR, basePath: PREFIX, args: () => [SERVER] });
}

// `npm run demo:solid`; with `--install`, only the dependencies (for `npm run typecheck`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes("--install")) await installExample();
  else await runDemo({ framework: "SolidStart", server: "the SolidStart server", build: () => buildExample(), buildIsCurrent, start: startExample });
}
