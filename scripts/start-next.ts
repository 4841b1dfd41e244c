/**
 * The Next.js example (examples/next) as `npm start` and the e2e tests run it: built with
 * `next build` when its sources changed since the last build, then served by `next start`, with
 * the demo's services beside it — the bundled OpenID Provider (demo/op), the dev mailbox
 * (demo/mailbox) and the secret (demo/secret.ts) — handed to the app through its environment.
 * The SQLite file is migrated here, before the app opens it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMailbox, type Mailbox } from "../demo/mailbox/index.js";
import { DEFAULT_DATA_DIR, startDemoProvider } from "../demo/op/index.js";
import { resolveDemoSecret, type SecretSource } from "../demo/secret.js";
import { sqliteAdapter } from "../src/adapters/sql/sqlite.js";

export const EXAMPLE_DIR = fileURLToPath(new URL("../examples/next/", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");
const BUILD_ID = join(EXAMPLE_DIR, ".next", "BUILD_ID");

/** What a build is made of: when any file here is newer than the build, it is stale. */
const BUILD_INPUTS = ["examples/next", "src", "integrations", "machines", "package.json"];
const NOT_INPUTS = new Set([".next", "node_modules", ".data", "next-env.d.ts"]);

/** The provider id of the bundled OpenID Provider in examples/next/auth.ts. */
export const DEMO_IDP_ID = "demo-idp";
const BASE_PATH = "/api/auth";

/** Next's own variables: no telemetry, and no rewriting of a lockfile it thinks incomplete. */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };

async function newestFileTime(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (NOT_INPUTS.has(entry.name) || entry.name.endsWith(".md")) continue;
    newest = Math.max(newest, await newestFileTime(join(path, entry.name)));
  }
  return newest;
}

/** Whether `.next` holds a build at least as new as every file it was built from. */
export async function buildIsCurrent(): Promise<boolean> {
  const built = await stat(BUILD_ID).catch(() => undefined);
  if (!built) return false;
  const inputs = await Promise.all(BUILD_INPUTS.map((path) => newestFileTime(join(ROOT, path))));
  return Math.max(...inputs) <= built.mtimeMs;
}

export interface BuildOptions {
  /** Build even when the last build is current. */
  force?: boolean;
  /** `inherit` shows Next's output; `capture` keeps it for the error message. Default `inherit`. */
  output?: "inherit" | "capture";
}

// Beside npm's other caches: ignored by git, and not inside .next (which next build empties).
const BUILD_LOCK = join(ROOT, "node_modules", ".cache", "appauth-next-example-build.lock");
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 15 * 60 * 1000;

/** Holds the build lock while `work` runs: two test runs (or a test run and `npm start`) never build at once. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(dirname(BUILD_LOCK), { recursive: true });
      await writeFile(BUILD_LOCK, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const held = await stat(BUILD_LOCK).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(BUILD_LOCK, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    await rm(BUILD_LOCK, { force: true });
  }
}

/** Runs `next build` in examples/next unless the last build is current; resolves with what it did. */
export async function buildExample(options: BuildOptions = {}): Promise<{ built: boolean; seconds: number }> {
  if (!options.force && (await buildIsCurrent())) return { built: false, seconds: 0 };
  // Another process may have been building while we waited: look again once the lock is ours.
  return withBuildLock(async () => {
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
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`next build failed (exit code ${code}).\n${output().join("\n")}`);
  return { built: true, seconds: (performance.now() - started) / 1000 };
}

/** The last `keep` lines a child printed, for error messages. */
function collect(child: ChildProcess, keep: number, onLine?: (line: string) => void): () => string[] {
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split(/\r?\n/)) {
      if (!line) continue;
      lines.push(line);
      onLine?.(line);
    }
    if (lines.length > keep) lines.splice(0, lines.length - keep);
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return () => [...lines];
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A port nobody listens on right now (the app must name its port before `next start` opens it). */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  const port = await listen(probe, 0, host);
  await close(probe);
  return port;
}

/** The mailbox's messages as JSON on loopback, for the app's /dev/mailbox page. */
async function serveMailbox(mailbox: Mailbox): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/messages") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(mailbox.list()));
      return;
    }
    res.writeHead(404).end();
  });
  const port = await listen(server, 0, "127.0.0.1");
  return { url: `http://127.0.0.1:${port}/messages`, server };
}

export interface StartExampleOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default `localhost` (passkeys want that name, not an IP). */
  host?: string;
  /** Use this secret instead of the environment's or the stored one. */
  secret?: string;
  /** Where a generated secret is kept; default `demo/.data/secret`. */
  secretFile?: string;
  /** The OP's keys and state, and the SQLite file; default `demo/.data`. */
  dataDir?: string;
  /** `inherit` shows the app's output; `capture` keeps it (see `output()`). Default `inherit`. */
  output?: "inherit" | "capture";
  /** Called with each line the app prints, when output is captured. */
  onOutput?: (line: string) => void;
  /** Milliseconds to wait for the app to answer; default 60 s. */
  startTimeout?: number;
}

export interface RunningExample {
  /** e.g. `http://localhost:3000` */
  url: string;
  /** The bundled OpenID Provider's issuer. */
  issuer: string;
  secretSource: SecretSource | "option";
  mailbox: Mailbox;
  /** The last lines the app printed (captured output only). */
  output(): string[];
  /** Settles when `next start` exits, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

/** Waits until the app answers its providers route, or fails when it exits or takes too long. */
async function waitUntilReady(url: string, child: ChildProcess, timeout: number, output: () => string[]): Promise<void> {
  const deadline = Date.now() + timeout;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`next start exited before it was ready.\n${output().join("\n")}`);
    try {
      const response = await fetch(`${url}${BASE_PATH}/providers`, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer within ${timeout} ms.\n${output().join("\n")}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Starts the demo's services and the built example beside them; resolves once the app answers. */
export async function startExample(options: StartExampleOptions): Promise<RunningExample> {
  const host = options.host ?? "localhost";
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const port = options.port === 0 ? await freePort(host) : options.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let secret: string | undefined;
  let secretSource: RunningExample["secretSource"];
  if (options.secret !== undefined) {
    secret = options.secret;
    secretSource = "option";
  } else {
    const resolved = await resolveDemoSecret(options.secretFile ? { file: options.secretFile } : {});
    secret = resolved.secret;
    secretSource = resolved.source;
  }

  // The embedded default: users, accounts, sign-in links and passkeys in an SQLite file.
  const database = join(dataDir, "appauth.sqlite");
  const store = sqliteAdapter(database);
  try {
    await store.migrate();
  } finally {
    await store.destroy();
  }

  const op = await startDemoProvider({
    port: 0,
    host: host === "127.0.0.1" ? "127.0.0.1" : "localhost",
    redirectUris: [`${url}${BASE_PATH}/callback/${DEMO_IDP_ID}`],
    dataDir,
  });
  const mailbox = await startMailbox();
  const mailboxApi = await serveMailbox(mailbox);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...NEXT_ENV,
    NODE_ENV: "production",
    PORT: String(port),
    ...(secret !== undefined ? { AUTH_SECRET: secret } : {}),
    // Read by the library itself: provider `demo-idp` gets its issuer, client id and secret from these.
    AUTH_DEMO_IDP_ISSUER: op.issuer,
    AUTH_DEMO_IDP_ID: op.clientId,
    AUTH_DEMO_IDP_SECRET: op.clientSecret,
    EMAIL_SERVER: `smtp://${mailbox.host}:${mailbox.port}`,
    DEMO_MAILBOX_URL: mailboxApi.url,
    APPAUTH_DEMO_DATABASE: database,
  };
  const capture = options.output === "capture";
  const child = spawn(process.execPath, [NEXT_BIN, "start", "--port", String(port), "--hostname", host], {
    cwd: EXAMPLE_DIR,
    env,
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = collect(child, 500, options.onOutput);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const stopServices = async () => {
    await Promise.all([op.close(), mailbox.close(), close(mailboxApi.server)]);
  };
  try {
    await waitUntilReady(url, child, options.startTimeout ?? 60_000, output);
  } catch (error) {
    await stopChild(child);
    await stopServices();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    issuer: op.issuer,
    secretSource,
    mailbox,
    output,
    exited,
    close() {
      closing ??= stopChild(child).then(stopServices);
      return closing;
    },
  };
}
