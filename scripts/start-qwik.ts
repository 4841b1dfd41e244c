/**
 * The Qwik City example (examples/qwik) as `npm run demo:qwik` and the e2e tests run it. The app
 * gets appauth the way a user's app does: installed from the package (`"appauth": "file:../.."`
 * with `install-links`, so node_modules holds a copy of the packed package, `qwik` field and all),
 * which needs dist/ built first. Each step runs only when its inputs changed: the library build,
 * the example's `npm install`, and `qwik build` (client, server, node-server adapter). Then the
 * built server runs beside the demo's services (scripts/demo-services.ts).
 */
import { existsSync } from "node:fs";
import { rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  isNewerThanInputs,
  ROOT,
  run,
  serveExample,
  withBuildLock,
  type RunningExample,
  type StartExampleOptions,
} from "./demo-services.js";

export type { RunningExample, StartExampleOptions } from "./demo-services.js";

export const EXAMPLE_DIR = fileURLToPath(new URL("../examples/qwik/", import.meta.url));
export const BASE_PATH = "/auth";
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** The library's build (dist/): the package the example installs. */
const LIBRARY_MARKER = join(ROOT, "dist", "integrations", "qwik", "index.qwik.mjs");
const LIBRARY_INPUTS = ["src", "integrations", "machines", "package.json", "tsconfig.json", "tsconfig.build.json"];
/** Written when `qwik build` succeeded (its own outputs keep changing to the end, the static step included). */
const APP_MARKER = join(EXAMPLE_DIR, "server", ".built");
const APP_INPUTS = [
  "examples/qwik/src",
  "examples/qwik/public",
  "examples/shared",
  "examples/qwik/adapters",
  "examples/qwik/package.json",
  "examples/qwik/vite.config.ts",
  "examples/qwik/tsconfig.json",
  "dist",
];
const NOT_INPUTS = new Set(["node_modules", ".data", "visualize"]);
/** The example's copy of the package. */
const INSTALLED_LIBRARY = join(EXAMPLE_DIR, "node_modules", "appauth", "dist", "integrations", "qwik", "index.qwik.mjs");

export interface PrepareOptions {
  /** `inherit` shows the tools' output; `capture` keeps it for the error message. Default `inherit`. */
  output?: "inherit" | "capture";
  /** Called before each step that has work to do. */
  onStep?: (step: string) => void;
}

/** Installs the example's dependencies when it has none (a fresh clone), without building anything. */
export async function installExampleDependencies(options: PrepareOptions = {}): Promise<void> {
  if (existsSync(join(EXAMPLE_DIR, "node_modules", "@builder.io", "qwik-city"))) return;
  await withBuildLock("appauth-qwik-example-install", async () => {
    if (existsSync(join(EXAMPLE_DIR, "node_modules", "@builder.io", "qwik-city"))) return;
    options.onStep?.("npm install (examples/qwik)");
    await run(NPM, ["install", "--no-audit", "--no-fund"], { cwd: EXAMPLE_DIR, output: options.output ?? "inherit", what: "npm install in examples/qwik" });
  });
}

/** Builds whatever is stale — the library, the example's copy of it, the app — and resolves with what it did. */
export async function buildExample(options: PrepareOptions = {}): Promise<{ built: boolean; seconds: number }> {
  const started = performance.now();
  const output = options.output ?? "inherit";
  const built = await withBuildLock("appauth-qwik-example-build", async () => {
    let changed = false;
    if (!(await isNewerThanInputs(LIBRARY_MARKER, LIBRARY_INPUTS, NOT_INPUTS))) {
      options.onStep?.("tsc -p tsconfig.build.json (dist/)");
      await run(process.execPath, [TSC, "-p", "tsconfig.build.json"], { cwd: ROOT, output, what: "the library build" });
      changed = true;
    }
    await installExampleDependencies(options);
    const installed = await stat(INSTALLED_LIBRARY).catch(() => undefined);
    const library = await stat(LIBRARY_MARKER);
    if (!installed || installed.mtimeMs < library.mtimeMs) {
      // The copy in node_modules is older than dist/: install the package again.
      options.onStep?.("npm install (appauth into examples/qwik)");
      await rm(join(EXAMPLE_DIR, "node_modules", "appauth"), { recursive: true, force: true });
      await run(NPM, ["install", "--no-audit", "--no-fund"], { cwd: EXAMPLE_DIR, output, what: "installing appauth into examples/qwik" });
      changed = true;
    }
    if (changed || !(await isNewerThanInputs(APP_MARKER, APP_INPUTS, NOT_INPUTS))) {
      options.onStep?.("qwik build (examples/qwik)");
      await rm(APP_MARKER, { force: true });
      await run(NPM, ["run", "build"], { cwd: EXAMPLE_DIR, output, what: "qwik build in examples/qwik" });
      await writeFile(APP_MARKER, new Date().toISOString());
      return true;
    }
    return false;
  });
  return { built, seconds: (performance.now() - started) / 1000 };
}

/** Starts the demo's services and the built example beside them; resolves once the app answers. */
export function startExample(options: StartExampleOptions): Promise<RunningExample> {
  return serveExample(options, { name: "the Qwik City server", cwd: EXAMPLE_DIR, args: () => ["server/entry.node-server.js"], basePath: BASE_PATH });
}

/** `npm run demo:qwik`: build what is stale, then serve on $PORT (default 3004) until Ctrl+C. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3004);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535; got ${process.env.PORT}.`);
  const { built, seconds } = await buildExample({ onStep: (step) => console.log(`\n${step}…`) });
  if (built) console.log(`\nBuilt in ${seconds.toFixed(0)} s.`);
  const app = await startExample({ port });
  console.log(`
appauth Qwik City example on ${app.url}
  sign in with username "demo" and password "demo",
  with the bundled OpenID Provider (${app.issuer}): no account needed,
  by email (the links arrive at ${app.url}/dev/mailbox), or with a passkey
  protected area: ${app.url}/protected
  press Ctrl+C to stop`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  void app.exited.then((code) => {
    console.error(`The Qwik City server exited (code ${code}).`);
    void app.close().finally(() => process.exit(code || 1));
  });
}

/** `tsx scripts/start-qwik.ts typecheck`: the example against the library's sources (installs its dependencies first). */
async function typecheck(): Promise<void> {
  await installExampleDependencies({ onStep: (step) => console.log(`${step}…`) });
  await run(process.execPath, [TSC, "-p", join(EXAMPLE_DIR, "tsconfig.check.json"), "--noEmit"], { cwd: ROOT, what: "type-checking examples/qwik" });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const task = process.argv[2] === "typecheck" ? typecheck : main;
  task().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
