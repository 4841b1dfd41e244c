/**
 * The database-session scenarios' stores: each library gets its own instance of one of appauth's
 * adapters (both libraries speak the Auth.js adapter contract), a user and a session record created
 * directly through that adapter, and a session cookie carrying the record's token.
 *
 * - memory: `MemoryAdapter()`, an in-process store;
 * - sqlite: `sqliteAdapter(file)`, one temp file per library, removed by `close()`;
 * - postgres: `postgresAdapter(url)`, one throwaway database per library, created here and dropped by
 *   `close()`; skipped (with the reason) when the server cannot be reached. The server is
 *   `BENCH_POSTGRES_URL`, else `APPAUTH_TEST_POSTGRES_URL` (the adapter tests' variable), else
 *   postgres://postgres@127.0.0.1:5432/postgres.
 *
 * Every write either library makes through its adapter is counted (`writes()`), so a read path that
 * writes — extending the session on every read, or deleting it — shows in the report. Reads are not
 * wrapped unless asked (`countCalls`), so the measured read path is the adapter's own.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MemoryAdapter } from "../src/adapters/memory/index.js";
import { postgresAdapter, sqliteAdapter, type OwnedSqlAdapter } from "../src/adapters/sql/index.js";
import type { Adapter } from "../src/types.js";
import { BASE_PATH, BENCH_USER, ORIGIN, createContenders, databaseConfigs, type Contender } from "./contenders.js";
import { checkSession, cookiesSet, Misbehaviour, type DatabaseKind, type Fixture } from "./scenarios.js";

// Read when the module loads, before `isolateFromEnvironment()` removes APPAUTH_* variables.
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.APPAUTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The libraries' default `session.maxAge`, which both configs keep: 30 days. */
const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** Adapter method calls by name, for one library. */
export type CallCounts = Record<string, number>;

export interface DatabaseSetup {
  kind: DatabaseKind;
  /** What the store is, for the report: "PostgreSQL 15.4 at 127.0.0.1:5432", ... */
  description: string;
  /** The two libraries configured with `strategy: "database"` on their own adapter. */
  contenders: [Contender, Contender];
  /** Each library's session cookie, for its own record. */
  fixtures: [Fixture, Fixture];
  /** The adapter each library was configured with (writes counted, reads untouched unless `countCalls`). */
  adapters: [Adapter, Adapter];
  /** The token of each library's session record. */
  sessionTokens: [string, string];
  /** The writes each library made through its adapter since the records were created, by method. */
  writes(): [CallCounts, CallCounts];
  /** Every adapter call each library made (reads too): only with `countCalls`, else empty. */
  calls(): [CallCounts, CallCounts];
  /** Zeroes the counters. */
  resetCounts(): void;
  /**
   * Closes the connections and removes the files or databases, after the request in flight; the
   * contenders refuse requests from then on (`Interrupted`). Safe to call twice.
   */
  close(): Promise<void>;
}

export type DatabaseOpening = DatabaseSetup | { skipped: string };

const WRITE_METHOD = /^(create|update|delete|link|unlink|use)/;

/**
 * The adapter with its writes counted — and, with `countCalls`, every call. A method is replaced
 * by a wrapper only when it is counted, so an uncounted read runs exactly as the adapter defines it.
 */
function counted(adapter: Adapter, writes: CallCounts, calls: CallCounts, countCalls: boolean): Adapter {
  const out: Record<string, unknown> = { ...adapter };
  for (const [name, method] of Object.entries(adapter)) {
    if (typeof method !== "function") continue;
    const isWrite = WRITE_METHOD.test(name);
    if (!isWrite && !countCalls) continue;
    out[name] = (...args: unknown[]) => {
      if (isWrite) writes[name] = (writes[name] ?? 0) + 1;
      if (countCalls) calls[name] = (calls[name] ?? 0) + 1;
      return (method as (...a: unknown[]) => unknown).apply(adapter, args);
    };
  }
  return out as Adapter;
}

interface Stores {
  description: string;
  adapters: [Adapter, Adapter];
  close(): Promise<void>;
}

async function memoryStores(): Promise<Stores> {
  return { description: "MemoryAdapter(), in process", adapters: [MemoryAdapter(), MemoryAdapter()], close: async () => {} };
}

async function destroyAll(adapters: readonly OwnedSqlAdapter[]): Promise<void> {
  await Promise.allSettled(adapters.map((adapter) => adapter.destroy()));
}

async function sqliteStores(): Promise<Stores> {
  const dir = await mkdtemp(join(tmpdir(), "appauth-bench-"));
  const opened: OwnedSqlAdapter[] = [];
  const close = async () => {
    await destroyAll(opened);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const name of ["appauth", "authjs"]) {
      const adapter = sqliteAdapter(join(dir, `${name}.db`));
      opened.push(adapter);
      await adapter.migrate();
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { description: `sqliteAdapter(file), WAL, one file per library in ${dir}`, adapters: [opened[0]!, opened[1]!], close };
}

/** A client on the server's maintenance database, or the reason it cannot be reached. */
async function postgresAdmin(): Promise<pg.Client | string> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    const where = new URL(POSTGRES_URL);
    return `PostgreSQL at ${where.host} is not reachable (${error instanceof Error ? error.message || error.name : String(error)})`;
  }
}

async function postgresStores(): Promise<Stores | { skipped: string }> {
  const admin = await postgresAdmin();
  if (typeof admin === "string") return { skipped: `${admin}; set BENCH_POSTGRES_URL to run it` };
  const run = `appauth_bench_${Date.now().toString(36)}_${randomUUID().slice(0, 8)}`;
  const names = [`${run}_appauth`, `${run}_authjs`];
  const created: string[] = [];
  const opened: OwnedSqlAdapter[] = [];
  let version = "";
  const close = async () => {
    await destroyAll(opened);
    opened.length = 0;
    await Promise.all(created.splice(0).map((name) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    await admin.end();
  };
  try {
    version = String(((await admin.query("SHOW server_version")).rows[0] as { server_version?: string }).server_version ?? "");
    for (const name of names) {
      await admin.query(`CREATE DATABASE "${name}"`);
      created.push(name);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${name}`;
      const adapter = postgresAdapter({ connectionString: url.href });
      opened.push(adapter);
      await adapter.migrate();
    }
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const host = new URL(POSTGRES_URL).host;
  return {
    description: `postgresAdapter(url), PostgreSQL ${version} at ${host}, one throwaway database per library`,
    adapters: [opened[0]!, opened[1]!],
    close,
  };
}

/** Thrown by a contender whose store was closed: the run was interrupted (Ctrl-C). */
export class Interrupted extends Error {
  constructor() {
    super("interrupted: the bench's stores are closed");
    this.name = "Interrupted";
  }
}

/**
 * Stores still open, closed on Ctrl-C so an interrupted run leaves no database or file behind:
 * closing one first makes its contenders refuse further requests, so the loop that was measuring
 * stops at its next request instead of running on a destroyed connection.
 */
const openStores = new Set<() => Promise<void>>();
let interruptHandled = false;
function closeOnInterrupt(): void {
  if (interruptHandled) return;
  interruptHandled = true;
  process.once("SIGINT", () => {
    console.error("\nInterrupted: removing the bench's databases and files.");
    void Promise.allSettled([...openStores].map((close) => close())).then((outcomes) => {
      for (const outcome of outcomes) if (outcome.status === "rejected") console.error(outcome.reason);
      process.exit(130);
    });
  });
}

const noop = (): void => undefined;

/** Creates the user and a 30-day session record through the adapter; returns the session token. */
async function seedSession(adapter: Adapter): Promise<string> {
  const user = await adapter.createUser!({
    id: randomUUID(),
    name: BENCH_USER.name,
    email: BENCH_USER.email,
    emailVerified: null,
    image: null,
  });
  const sessionToken = randomUUID();
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + SESSION_MAX_AGE_MS) });
  return sessionToken;
}

/**
 * The cookies a browser holds once it has read its session: the session cookie, plus whatever the
 * first GET /session set (@auth/core sets its CSRF and callback-URL cookies on any request that
 * lacks them; a browser sends them back from then on). Each GET /session is checked in full: the
 * first with the session cookie alone, the second with the whole jar. No CSRF pair is needed.
 */
async function browserJar(contender: Contender, sessionToken: string, kind: DatabaseKind): Promise<Fixture> {
  const get = (cookie: string) => contender.handle(new Request(`${ORIGIN}${BASE_PATH}/session`, { headers: { cookie } }));
  const jar = new Map([[contender.sessionCookie, sessionToken]]);
  const first = await get(`${contender.sessionCookie}=${sessionToken}`);
  for (const [name, value] of cookiesSet(first)) jar.set(name, value);
  const firstProblem = await checkSession(contender, first);
  if (firstProblem) throw new Misbehaviour(contender, `the first GET /session on ${kind}`, firstProblem);
  if (jar.get(contender.sessionCookie) !== sessionToken) {
    throw new Misbehaviour(contender, `the first GET /session on ${kind}`, "the session cookie was replaced");
  }
  const signedInCookies = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const secondProblem = await checkSession(contender, await get(signedInCookies));
  if (secondProblem) throw new Misbehaviour(contender, `GET /session on ${kind} with the cookies of the first`, secondProblem);
  return { csrfToken: "", csrfCookie: "", signedInCookies };
}

/**
 * Opens the store `kind` for both libraries, seeds one session in each, and checks that each
 * library answers GET /session with it. Throws `Misbehaviour` when one does not.
 */
export async function openDatabase(kind: DatabaseKind, options: { countCalls?: boolean } = {}): Promise<DatabaseOpening> {
  const stores = kind === "memory" ? await memoryStores() : kind === "sqlite" ? await sqliteStores() : await postgresStores();
  if ("skipped" in stores) return stores;

  let closed = false;
  // The request being served, if any: closing waits for it (the benchmark's requests are sequential).
  let inFlight: Promise<unknown> = Promise.resolve();
  let closing: Promise<void> | undefined;
  const close = () => {
    closed = true;
    closing ??= inFlight.then(noop, noop).then(async () => {
      openStores.delete(close);
      await stores.close();
    });
    return closing;
  };
  openStores.add(close);
  closeOnInterrupt();
  const guarded = (contender: Contender): Contender => ({
    ...contender,
    handle: (request) => {
      if (closed) return Promise.reject(new Interrupted());
      const response = contender.handle(request);
      inFlight = response;
      return response;
    },
  });

  try {
    const writes: [CallCounts, CallCounts] = [{}, {}];
    const calls: [CallCounts, CallCounts] = [{}, {}];
    const tokens = [await seedSession(stores.adapters[0]), await seedSession(stores.adapters[1])];
    const countCalls = options.countCalls ?? false;
    const adapters: [Adapter, Adapter] = [
      counted(stores.adapters[0], writes[0], calls[0], countCalls),
      counted(stores.adapters[1], writes[1], calls[1], countCalls),
    ];
    const contenders = createContenders(databaseConfigs({ appauth: adapters[0], authjs: adapters[1] })).map(guarded) as [
      Contender,
      Contender,
    ];
    const fixtures = [
      await browserJar(contenders[0], tokens[0]!, kind),
      await browserJar(contenders[1], tokens[1]!, kind),
    ] as [Fixture, Fixture];

    const reset = () => {
      for (const counts of [...writes, ...calls]) for (const key of Object.keys(counts)) delete counts[key];
    };
    return {
      kind,
      description: stores.description,
      contenders,
      fixtures,
      adapters,
      sessionTokens: [tokens[0]!, tokens[1]!],
      writes: () => [{ ...writes[0] }, { ...writes[1] }],
      calls: () => [{ ...calls[0] }, { ...calls[1] }],
      resetCounts: reset,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** "none", or "updateSession 3, deleteSession 1". */
export function describeCounts(counts: CallCounts, per = 1): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (!entries.length) return "none";
  return entries.map(([name, n]) => `${name} ${per === 1 ? n : +(n / per).toFixed(3)}`).join(", ");
}
