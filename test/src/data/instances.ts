/**
 * Starts app instances (test/fixtures/instance/server.ts) as separate Node processes, each with tsx
 * as its loader, and stops them. An instance that fails to start rejects with what it printed on
 * stderr; one that outlives its test is killed (SIGTERM, then SIGKILL), and every instance also
 * exits on its own when its stdin closes, which happens when the test process dies.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { deleteKeys, REDIS_URL, runId, scratchPostgres } from "../adapters/servers.js";
import type { ExtendedAdapter } from "../../../src/adapters/extensions.js";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { postgresAdapter } from "../../../src/adapters/sql/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SERVER = "test/fixtures/instance/server.ts";
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface Instance {
  /** e.g. `http://127.0.0.1:PORT` */
  origin: string;
  pid: number;
  /** Everything the instance has written to stderr so far (its logger writes there). */
  stderr(): string;
  /** Stops the process and waits for it to exit; resolves at once when it has already exited. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts one instance with `env` added to this process's environment; resolves once it listens. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => (stderr += chunk));

  async function stop(): Promise<void> {
    if (exited(child)) return;
    child.kill("SIGTERM");
    if (await waitForExit(child, STOP_TIMEOUT_MS)) return;
    child.kill("SIGKILL");
    await waitForExit(child, STOP_TIMEOUT_MS);
  }

  const lines = createInterface({ input: child.stdout! });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        reject(new Error(`the instance ${why}. Its stderr:\n${stderr}`));
      };
      const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
      child.once("error", (error) => fail(`could not be spawned: ${error.message}`));
      child.once("exit", (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
      lines.once("line", (line) => {
        clearTimeout(timer);
        try {
          resolve((JSON.parse(line) as { port: number }).port);
        } catch {
          fail(`printed ${JSON.stringify(line)} instead of its port`);
        }
      });
    });
    return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A store the instances share, prepared by the test: the env that points an instance at it. */
export interface SharedStore {
  env: Record<string, string>;
  /** The test's own adapter on the store, to prepare records and to look inside. */
  adapter: ExtendedAdapter;
  /** Removes everything the run put in the store; `true` when nothing was left behind. */
  remove(): Promise<boolean>;
}

/** A scratch PostgreSQL database, migrated once, here, before any instance starts. */
export async function sharedPostgres(): Promise<SharedStore> {
  const scratch = await scratchPostgres();
  // postgresAdapter's pool listens for connection errors, so the DROP DATABASE ... FORCE that ends
  // the run cannot surface as an unhandled error.
  const adapter = postgresAdapter(scratch.location);
  await adapter.migrate();
  return {
    env: { APPAUTH_INSTANCE_STORE: "postgres", APPAUTH_INSTANCE_STORE_URL: scratch.location },
    adapter,
    async remove() {
      await adapter.destroy();
      await scratch.drop();
      return true;
    },
  };
}

/** A fresh key prefix on the local Redis server. */
export async function sharedRedis(): Promise<SharedStore> {
  const prefix = `${runId()}:`;
  const client = new Redis(REDIS_URL);
  return {
    env: { APPAUTH_INSTANCE_STORE: "redis", APPAUTH_INSTANCE_STORE_URL: REDIS_URL, APPAUTH_INSTANCE_REDIS_PREFIX: prefix },
    adapter: RedisAdapter(client, { prefix }),
    async remove() {
      await deleteKeys(client, prefix);
      const [, left] = await client.scan("0", "MATCH", `${prefix}*`, "COUNT", 1000);
      client.disconnect();
      return left.length === 0;
    },
  };
}
