/**
 * What every example's launcher needs besides its framework: the demo's services — the secret
 * (demo/secret.ts), the SQLite file (migrated before the app opens it), the bundled OpenID
 * Provider (demo/op) and the dev mailbox (demo/mailbox) with its loopback JSON API — handed to the
 * app through its environment; plus the plumbing of building and serving an example: is the build
 * current, one build at a time, a free port, waiting for the app to answer, stopping it.
 * Used by start-next.ts and start-solid.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMailbox, type Mailbox } from "../demo/mailbox/index.js";
import { DEFAULT_DATA_DIR, startDemoProvider } from "../demo/op/index.js";
import { launcherSecret, type SecretSource } from "../demo/secret.js";
import { sqliteAdapter } from "../src/adapters/sql/sqlite.js";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The provider id of the bundled OpenID Provider in the examples' configurations. */
export const DEMO_IDP_ID = "demo-idp";

/** The newest modification time under `path`, skipping the names in `skip` and Markdown files. */
export async function newestFileTime(path: string, skip: ReadonlySet<string>): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (skip.has(entry.name) || entry.name.endsWith(".md")) continue;
    newest = Math.max(newest, await newestFileTime(join(path, entry.name), skip));
  }
  return newest;
}

/** Whether `marker` (a file the build writes last) is at least as new as every input (paths relative to the repository). */
export async function isNewerThanInputs(marker: string, inputs: readonly string[], skip: ReadonlySet<string>): Promise<boolean> {
  const built = await stat(marker).catch(() => undefined);
  if (!built) return false;
  const times = await Promise.all(inputs.map((path) => newestFileTime(join(ROOT, path), skip)));
  return Math.max(...times) <= built.mtimeMs;
}

/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 15 * 60 * 1000;

/**
 * Holds the lock `name` (beside npm's other caches, ignored by git) while `work` runs: two test
 * runs, or a test run and a demo, never build the same thing at once.
 */
export async function withBuildLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = join(ROOT, "node_modules", ".cache", `${name}.lock`);
  for (;;) {
    try {
      await mkdir(dirname(lock), { recursive: true });
      await writeFile(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The last `keep` lines a child printed, for error messages. */
export function collect(child: ChildProcess, keep: number, onLine?: (line: string) => void): () => string[] {
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

/** Settles with the child's exit code; rejects when it could not be started. */
/** Runs a command to completion; its output is shown (`inherit`) or kept for the error message (`capture`). */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; output?: "inherit" | "capture"; what: string },
): Promise<void> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: options.output === "capture" ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = collect(child, 200);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`${options.what} failed (exit code ${code}).\n${output().join("\n")}`);
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
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

/** A port nobody listens on right now (for apps that must be told their port before they open it). */
export async function freePort(host: string): Promise<number> {
  const probe = createServer();
  const port = await listen(probe, 0, host);
  await close(probe);
  return port;
}

/** The mailbox's messages as JSON on loopback, for the apps' /dev/mailbox pages. */
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

/** Waits until `probe` answers 2xx, or fails when the child exits or `timeout` ms pass. */
export async function waitUntilReady(probe: string, child: ChildProcess, options: { timeout: number; name: string; output: () => string[] }): Promise<void> {
  const deadline = Date.now() + options.timeout;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${options.name} exited before it was ready.\n${options.output().join("\n")}`);
    try {
      const response = await fetch(probe, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${options.name} did not answer within ${options.timeout} ms.\n${options.output().join("\n")}`);
}

/** SIGTERM, then SIGKILL after 5 s. */
export function stopChild(child: ChildProcess): Promise<void> {
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

export interface DemoServicesOptions {
  /** The app's origin, e.g. `http://localhost:3000`. */
  url: string;
  host: string;
  /** The app's base path for the library's routes (the OP registers the callback under it). */
  basePath: string;
  /** Use this secret instead of the environment's or the stored one. */
  secret?: string;
  /** Where a generated secret is kept; default `demo/.data/secret`. */
  secretFile?: string;
  /** The OP's keys and state, and the SQLite file; default `demo/.data`. */
  dataDir?: string;
}

export interface DemoServices {
  /** What the app's environment needs: secret, OP, mailbox, database. */
  env: NodeJS.ProcessEnv;
  issuer: string;
  secretSource: SecretSource | "option";
  mailbox: Mailbox;
  close(): Promise<void>;
}

/** Starts the demo's services for an app on `options.url` and returns the environment that points the app at them. */
export async function startDemoServices(options: DemoServicesOptions): Promise<DemoServices> {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const { secret, source: secretSource } = await launcherSecret(options);

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
    host: options.host === "127.0.0.1" ? "127.0.0.1" : "localhost",
    redirectUris: [`${options.url}${options.basePath}/callback/${DEMO_IDP_ID}`],
    dataDir,
  });
  const mailbox = await startMailbox();
  const mailboxApi = await serveMailbox(mailbox);

  const env: NodeJS.ProcessEnv = {
    ...(secret !== undefined ? { AUTH_SECRET: secret } : {}),
    // Read by the library itself: provider `demo-idp` gets its issuer, client id and secret from these.
    AUTH_DEMO_IDP_ISSUER: op.issuer,
    AUTH_DEMO_IDP_ID: op.clientId,
    AUTH_DEMO_IDP_SECRET: op.clientSecret,
    EMAIL_SERVER: `smtp://${mailbox.host}:${mailbox.port}`,
    DEMO_MAILBOX_URL: mailboxApi.url,
    APPAUTH_DEMO_DATABASE: database,
  };
  return {
    env,
    issuer: op.issuer,
    secretSource,
    mailbox,
    async close() {
      await Promise.all([op.close(), mailbox.close(), close(mailboxApi.server)]);
    },
  };
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
  /** More variables for the app's environment (a test's `APPAUTH_DEMO_SESSION_UPDATE_AGE`). */
  env?: NodeJS.ProcessEnv;
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
  /** Settles when the app's process exits, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

/** How to run one example's production server. */
export interface ExampleServer {
  /** For messages: `next start`, ... */
  name: string;
  cwd: string;
  /** The library's base path in the app: the OP's callback lives under it, and `/providers` says the app is up. */
  basePath: string;
  /** Node's arguments for the server on `port` and `host`. */
  args(where: { port: number; host: string }): string[];
  /** The framework's own variables. */
  env?: NodeJS.ProcessEnv;
}

/** Starts the demo's services and an example's built server beside them; resolves once the app answers. */
export async function serveExample(options: StartExampleOptions, server: ExampleServer): Promise<RunningExample> {
  const host = options.host ?? "localhost";
  const port = options.port === 0 ? await freePort(host) : options.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const services = await startDemoServices({
    url,
    host,
    basePath: server.basePath,
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.secretFile !== undefined ? { secretFile: options.secretFile } : {}),
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
  });
  const env: NodeJS.ProcessEnv = { ...process.env, ...server.env, NODE_ENV: "production", PORT: String(port), HOST: host, ...services.env, ...options.env };
  const capture = options.output === "capture";
  const child = spawn(process.execPath, server.args({ port, host }), {
    cwd: server.cwd,
    env,
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = collect(child, 500, options.onOutput);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const probe = `${url}${server.basePath}/providers`;
  try {
    await waitUntilReady(probe, child, { timeout: options.startTimeout ?? 60_000, name: server.name, output });
  } catch (error) {
    await stopChild(child);
    await services.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    issuer: services.issuer,
    secretSource: services.secretSource,
    mailbox: services.mailbox,
    output,
    exited,
    close() {
      closing ??= stopChild(child).then(() => services.close());
      return closing;
    },
  };
}

/** `PORT` from the environment (default `fallback`); exits with a message for anything but a port number. */
export function portFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer from 0 to 65535; got ${JSON.stringify(value)}.`);
    process.exit(1);
  }
  return port;
}

export interface DemoCommand {
  /** `Next.js`, `SolidStart`: for messages. */
  framework: string;
  /** The server's name in messages (`next start`). */
  server: string;
  /** Brings the build up to date; resolves with whether it built and how long it took. */
  build(): Promise<{ built: boolean; seconds: number }>;
  buildIsCurrent(): Promise<boolean>;
  start(options: StartExampleOptions): Promise<RunningExample>;
}

/** A demo command (`npm start`, `npm run demo:solid`): build when needed, serve on $PORT until SIGINT or SIGTERM. */
export async function runDemo(command: DemoCommand): Promise<void> {
  const port = portFromEnv(process.env.PORT, 3000);
  if (!(await command.buildIsCurrent())) {
    console.log(`Building the ${command.framework} example (first start, or its sources changed)…\n`);
    try {
      const { built, seconds } = await command.build();
      console.log(built ? `\nBuilt in ${seconds.toFixed(0)} s.\n` : "Another process has just built it.\n");
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
  }

  let app: RunningExample;
  try {
    app = await command.start({ port });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }

  const secretNote = {
    env: "from APPAUTH_SECRET / AUTH_SECRET",
    file: "from demo/.data/secret",
    generated: "generated and saved to demo/.data/secret",
    option: "given to startExample",
  }[app.secretSource];

  console.log(`
appauth ${command.framework} example on ${app.url}
  sign in with username "demo" and password "demo",
  with the bundled OpenID Provider (${app.issuer}): no account needed,
  by email (the links arrive at ${app.url}/dev/mailbox), or with a passkey
  protected area: ${app.url}/protected
  secret: ${secretNote}; data: demo/.data
  press Ctrl+C to stop`);

  let stopping = false;
  void app.exited.then((code) => {
    if (stopping) return;
    console.error(`${command.server} exited (code ${code}): stopping the demo's services.`);
    void app.close().finally(() => process.exit(code || 1));
  });

  function stop(signal: NodeJS.Signals): void {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  }
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
