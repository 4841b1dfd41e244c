/**
 * Where the time of a database-session GET /session on PostgreSQL goes, for each library: wall
 * time from the call to the moment node-postgres is handed the query (`client.query`), from there
 * to the query's result, and from the result to the Response; and the process's CPU time per
 * request. Beside them, the adapter's read alone, inside a one-state XState machine that invokes it
 * (as appauth's flows invoke their effects) or that starts it from an entry action and gets the
 * result back as an event (one actor, no child actor), and those two machines with an instant
 * effect — the machinery costs far more CPU around a real I/O wait than in a hot loop. Medians over
 * interleaved batches of sequential requests.
 *
 *   npx tsx bench/profile-pg-roundtrip.ts [--requests 1500] [--batches 4]
 */
import pg from "pg";
import { createActor, fromPromise, setup as machineSetup, type AnyStateMachine } from "xstate";
import { isolateFromEnvironment } from "./contenders.js";
import { openDatabase } from "./database.js";
import { median } from "./measure.js";

function option(flag: string, fallback: number): number {
  const at = process.argv.indexOf(flag);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

// When the last query was handed to node-postgres, and when its result came back.
let queried = 0;
let resolved = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queried = performance.now();
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  if (result instanceof Promise) {
    result.then(
      () => (resolved = performance.now()),
      () => undefined,
    );
  }
  return result;
} as typeof originalQuery;

function busy(microseconds: number): void {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until);
}

interface Phases {
  toQuery: number[];
  roundTrip: number[];
  afterResult: number[];
  total: number[];
  /** Per batch: user and system CPU µs per request. */
  user: number[];
  system: number[];
}

const noPhases = (): Phases => ({ toQuery: [], roundTrip: [], afterResult: [], total: [], user: [], system: [] });

async function time(run: () => Promise<unknown>, requests: number, into: Phases): Promise<void> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    queried = Number.NaN;
    const start = performance.now();
    await run();
    const end = performance.now();
    into.total.push(end - start);
    if (Number.isNaN(queried)) continue;
    into.toQuery.push(queried - start);
    into.roundTrip.push(resolved - queried);
    into.afterResult.push(end - resolved);
  }
  const used = process.cpuUsage(cpu);
  into.user.push(used.user / requests);
  into.system.push(used.system / requests);
}

/** Runs a machine to its end the way src/flows/run.ts runs a flow: subscribe, start, await, stop. */
function runner(machine: AnyStateMachine): () => Promise<unknown> {
  return () => {
    const actor = createActor(machine);
    const done = new Promise<void>((resolve, reject) => actor.subscribe({ complete: () => resolve(), error: reject }));
    actor.start();
    return done.finally(() => actor.stop());
  };
}

/** A one-effect machine that invokes `read` as a promise actor (a child actor per run), as appauth's flows do. */
function invoking(read: () => Promise<unknown>): () => Promise<unknown> {
  return runner(
    machineSetup({ actors: { read: fromPromise(() => read()) } }).createMachine({
      initial: "reading",
      states: { reading: { invoke: { src: "read", onDone: "done" } }, done: { type: "final" } },
    }),
  );
}

/** The same with the effect an entry action that sends its result back as an event: one actor, no child. */
function sendingBack(read: () => Promise<unknown>): () => Promise<unknown> {
  return runner(
    machineSetup({
      types: { events: {} as { type: "read.done"; output: unknown } },
      actions: {
        read: ({ self }) => {
          void read().then((output) => self.send({ type: "read.done", output }));
        },
      },
    }).createMachine({
      initial: "reading",
      states: { reading: { entry: "read", on: { "read.done": "done" } }, done: { type: "final" } },
    }),
  );
}

async function main(): Promise<void> {
  isolateFromEnvironment();
  const requests = option("--requests", 1500);
  const batches = option("--batches", 4);
  const setup = await openDatabase("postgres");
  if ("skipped" in setup) throw new Error(setup.skipped);
  try {
    const [appauth, authjs] = setup.contenders;
    const [appauthAdapter] = setup.adapters;
    const [appauthToken] = setup.sessionTokens;
    // Requests are built before the clock starts, as in the benchmark.
    const handle = (i: 0 | 1) => {
      const request = new Request(`http://localhost:3000/api/auth/session`, { headers: { cookie: setup.fixtures[i].signedInCookies } });
      return () => setup.contenders[i].handle(request);
    };
    const read = () => appauthAdapter.getSessionAndUser!(appauthToken) as Promise<unknown>;
    const runs: [string, () => () => Promise<unknown>][] = [
      [`${authjs.label} Auth()`, () => handle(1)],
      [`${appauth.label} Auth()`, () => handle(0)],
      ["adapter getSessionAndUser alone", () => read],
      ["  ... invoked by a one-state machine", () => invoking(read)],
      ["  ... sent back as an event, one actor", () => sendingBack(read)],
      ["for scale: that machine, instant invoke", () => invoking(async () => null)],
      ["for scale: that one actor, instant effect", () => sendingBack(async () => null)],
      [
        "  ... after 40 µs of CPU work",
        () => () => {
          busy(40);
          return read();
        },
      ],
    ];
    const phases = runs.map(noPhases);
    for (const [, make] of runs) await time(make(), 300, noPhases());
    for (let batch = 0; batch < batches; batch++) {
      for (const [i, [, make]] of runs.entries()) await time(make(), requests, phases[i]!);
    }

    console.log(`${setup.description}\n${batches} interleaved batches of ${requests} sequential requests; medians in µs (Node ${process.version})\n`);
    const width = Math.max(...runs.map(([label]) => label.length));
    const cols = ["call -> query", "round trip", "result -> done", "total", "CPU user", "CPU system"];
    console.log(`${"".padEnd(width)}  ${cols.map((c) => c.padStart(14)).join("  ")}`);
    for (const [i, [label]] of runs.entries()) {
      const p = phases[i]!;
      const wall = [p.toQuery, p.roundTrip, p.afterResult, p.total].map((values) => (values.length ? median(values) * 1000 : Number.NaN));
      const cells = [...wall, median(p.user), median(p.system)].map((v) => (Number.isNaN(v) ? "-" : v.toFixed(0)).padStart(14));
      console.log(`${label.padEnd(width)}  ${cells.join("  ")}`);
    }
    console.log("\nCPU user/system: this process's CPU time per request (all threads), median over the batches.");
  } finally {
    await setup.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
