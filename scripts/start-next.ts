/**
 * The Next.js example (examples/next) as `npm start` and the e2e tests run it: built with
 * `next build` when its sources changed since the last build, then served by `next start`, with
 * the demo's services beside it — the bundled OpenID Provider (demo/op), the dev mailbox
 * (demo/mailbox) and the secret (demo/secret.ts) — handed to the app through its environment.
 * The SQLite file is migrated here, before the app opens it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  collect,
  exitOf,
  isNewerThanInputs,
  serveExample,
  withBuildLock,
  type RunningExample,
  type StartExampleOptions,
} from "./demo-services.js";

export { DEMO_IDP_ID, type RunningExample, type StartExampleOptions } from "./demo-services.js";
export const EXAMPLE_DIR = fileURLToPath(new URL("../examples/next/", import.meta.url));
const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");
const BUILD_ID = join(EXAMPLE_DIR, ".next", "BUILD_ID");

/** What a build is made of: when any file here is newer than the build, it is stale. */
const BUILD_INPUTS = ["examples/next", "examples/shared", "src", "integrations", "machines", "package.json"];
const NOT_INPUTS = new Set([".next", "node_modules", ".data", "next-env.d.ts"]);

const BASE_PATH = "/api/auth";

/** Next's own variables: no telemetry, and no rewriting of a lockfile it thinks incomplete. */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };

/** Whether `.next` holds a build at least as new as every file it was built from. */
export async function buildIsCurrent(): Promise<boolean> {
  return isNewerThanInputs(BUILD_ID, BUILD_INPUTS, NOT_INPUTS);
}

export interface BuildOptions {
  /** Build even when the last build is current. */
  force?: boolean;
  /** `inherit` shows Next's output; `capture` keeps it for the error message. Default `inherit`. */
  output?: "inherit" | "capture";
}

/** Runs `next build` in examples/next unless the last build is current; resolves with what it did. */
export async function buildExample(options: BuildOptions = {}): Promise<{ built: boolean; seconds: number }> {
  if (!options.force && (await buildIsCurrent())) return { built: false, seconds: 0 };
  // Another process may have been building while we waited: look again once the lock is ours.
  return withBuildLock("appauth-next-example-build", async () => {
    if (!options.force && (await buildIsCurrent())) return { built: false, seconds: 0 };
    return runNextBuild(options);
  });
}

async function runNextBuild(options: BuildOptions): Promise<{ built: boolean; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: EXAMPLE_DIR,
    env: { ...process.env, ...NEXT_ENV, NODE_ENV: "production" },
    stdio: options.output === "capture" ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = collect(child, 200);
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`next build failed (exit code ${code}).\n${output().join("\n")}`);
  return { built: true, seconds: (performance.now() - started) / 1000 };
}

/** Starts the demo's services and the built example (`next start`) beside them; resolves once the app answers. */
export function startExample(options: StartExampleOptions): Promise<RunningExample> {
  return serveExample(options, {
    name: "next start",
    cwd: EXAMPLE_DIR,
    basePath: BASE_PATH,
    args: ({ port, host }) => [NEXT_BIN, "start", "--port", String(port), "--hostname", host],
    env: NEXT_ENV,
  });
}
