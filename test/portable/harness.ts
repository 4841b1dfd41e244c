/**
 * The portable suite's machinery: which runtimes are installed (scripts/install-runtimes.mjs puts them
 * in a cache outside the clone), one packed tarball installed once into a temp project shared by
 * every runtime, the workerd bundle, and starting the app (test/portable/app) on a runtime's own
 * server. The test driver stays on Node 20 in vitest.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const APP_DIR = fileURLToPath(new URL("./app", import.meta.url));

export type RuntimeKind = "node" | "bun" | "deno" | "workerd";

export interface RuntimeSpec {
  label: string;
  kind: RuntimeKind;
  /** The npm package the binary comes from; null for the Node running the tests (Node 20 in CI). */
  package: string | null;
  version?: string;
  bin?: string;
}

export interface Runtime extends RuntimeSpec {
  id: string;
  /** The binary, or undefined when it is not installed. */
  binary?: string;
}

export function runtimeSpecs(): Record<string, RuntimeSpec> {
  return (JSON.parse(readFileSync(join(ROOT, "test/portable/runtimes.json"), "utf8")) as { runtimes: Record<string, RuntimeSpec> }).runtimes;
}

export function runtimesDir(): string {
  return process.env.APPAUTH_RUNTIMES_DIR || join(homedir(), ".cache", "appauth-runtimes");
}

/** Every runtime of runtimes.json, with its binary when installed. */
export function findRuntimes(): Runtime[] {
  return Object.entries(runtimeSpecs()).map(([id, spec]) => {
    if (!spec.package) return { id, ...spec, binary: process.execPath };
    const binary = join(runtimesDir(), `${spec.package}-${spec.version}`, spec.bin!);
    return { id, ...spec, binary: existsSync(binary) ? binary : undefined };
  });
}

/** The version a runtime reports (`--version`, first line, without a leading `v`); workerd's npm version (its binary reports a date). */
export function versionOf(runtime: Runtime): string {
  if (runtime.kind === "workerd") return runtime.version!;
  const text = execFileSync(runtime.binary!, ["--version"], { encoding: "utf8" }).trim().split("\n")[0]!;
  return text.replace(/^deno /, "").replace(/ \(.*$/, "").replace(/^v/, "");
}

export interface Project {
  dir: string;
  /** The workerd bundle's path (the app with its npm dependencies, one ES module). */
  workerBundle: string;
  cleanup(): void;
}

/**
 * Packs the built package (dist/ must exist: `npm run build`), installs the tarball and ioredis into
 * a new temp project, copies the app in, and bundles it for workerd from there. Once per run.
 */
export async function prepareProject(): Promise<Project> {
  if (!existsSync(join(ROOT, "dist/src/index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  const dir = mkdtempSync(join(tmpdir(), "appauth-portable-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"))!;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "appauth-portable-app", private: true, type: "module" }));
  const ioredis = (JSON.parse(readFileSync(join(ROOT, "node_modules/ioredis/package.json"), "utf8")) as { version: string }).version;
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", `./${tarball}`, `ioredis@${ioredis}`],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
  );
  cpSync(APP_DIR, join(dir, "app"), { recursive: true });
  const workerBundle = join(dir, "worker.mjs");
  // As a Workers build resolves packages, with Node built-ins unresolvable: any `node:` import fails the bundle.
  await build({
    entryPoints: [join(dir, "app/workerd.mjs")],
    absWorkingDir: dir,
    outfile: workerBundle,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["browser", "module", "main"],
    logLevel: "error",
  });
  return { dir, workerBundle, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A free loopback port (another process may take it before it is used; the server start then fails loudly). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningApp {
  origin: string;
  /** Everything the runtime printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** The settings every runtime's glue reads (test/portable/app/settings.mjs), without the `PORTABLE_` prefix. */
export type AppSettings = Record<"SECRET" | "ISSUER" | "CLIENT_ID" | "CLIENT_SECRET" | "MAIL_API" | "RUNTIME" | "REDIS_URL" | "REDIS_PREFIX", string>;

function workerdConfig(port: number, bundle: string, settings: AppSettings): string {
  const bindings = Object.entries(settings)
    .map(([name, value]) => `(name = ${JSON.stringify(`PORTABLE_${name}`)}, text = ${JSON.stringify(value)})`)
    .join(",\n    ");
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .app),
    # The test OP and the mail stand-in are on loopback: outbound fetches may reach it.
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const app :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed ${JSON.stringify(basename(bundle))}) ],
  compatibilityDate = "2026-11-01",
  globalOutbound = "loopback",
  bindings = [
    ${bindings}
  ],
);
`;
}

export interface StartOptions {
  /** The path whose first successful answer means ready. Default `/whoami`. */
  readyPath?: string;
  /** How often to ask until then, in ms. Default 50. */
  pollMs?: number;
}

/** Starts the app on `runtime`'s own server at `port`; resolves once it answers. */
export async function startApp(runtime: Runtime, project: Project, port: number, settings: AppSettings, options: StartOptions = {}): Promise<RunningApp> {
  const { readyPath = "/whoami", pollMs = 50 } = options;
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), NODE_ENV: "test" };
  for (const [name, value] of Object.entries(settings)) env[`PORTABLE_${name}`] = value;
  let args: string[];
  if (runtime.kind === "node") args = ["app/node.mjs"];
  else if (runtime.kind === "bun") args = ["app/bun.mjs"];
  else if (runtime.kind === "deno") args = ["run", "--allow-all", "--node-modules-dir=manual", "--no-prompt", "app/deno.mjs"];
  else {
    const config = join(project.dir, `workerd-${port}.capnp`);
    writeFileSync(config, workerdConfig(port, project.workerBundle, settings));
    args = ["serve", config, "--experimental"];
  }
  const child: ChildProcess = spawn(runtime.binary!, args, { cwd: project.dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  // Ready when readyPath answers; a process that exits first fails the start with what it printed.
  let ready = false;
  let dead = false;
  void exited.then(() => (dead = true));
  for (let waited = 0; !ready; waited += pollMs) {
    if (dead) throw new Error(`${runtime.id} exited before answering:\n${output}`);
    if (waited > 30_000) throw new Error(`${runtime.id} did not answer at ${origin} within 30 s:\n${output}`);
    ready = await fetch(`${origin}${readyPath}`).then((response) => response.ok, () => false);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return {
    origin,
    output: () => output,
    stop: async () => {
      if (!dead) child.kill("SIGTERM");
      await exited;
    },
  };
}
