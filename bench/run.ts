/**
 * `npm run bench`: appauth against @auth/core in one process, on the routes that matter most —
 * reading a session (JWT, and database sessions on the memory, SQLite and PostgreSQL adapters), a
 * credentials sign-in, and the CSRF token — reported as ratios (DESIGN.md §7).
 *
 *   npm run bench -- --rounds 10 --round-ms 250 --warmup 300 --only session,signin --assert
 *   npm run bench -- --only db-memory,db-sqlite,db-postgres
 *
 * The database scenarios create their stores and remove them at the end (bench/database.ts); the
 * PostgreSQL one is skipped, with a note, when no server answers (BENCH_POSTGRES_URL).
 *
 * `NODE_OPTIONS=--expose-gc npm run bench` also collects garbage before every round, so one
 * library's garbage is not collected on the other's time.
 *
 * After the request scenarios come the steps of issue 19, each also runnable alone (`--only cold`):
 * `cold` (cold start in fresh processes, bench/cold-start.ts; needs `npm run build`), `bundle`
 * (the middleware bundle, bench/bundle.ts), `alloc` (allocation per JWT session read,
 * bench/allocation.ts), `http` (both behind one node:http server under autocannon, bench/http.ts) and
 * `server-auth` (`auth()` in a server component, appauth/next against next-auth, bench/server-auth.ts).
 *
 * Not in the default run (it takes about a minute): `--only runtimes`, cold start and JWT session read on
 * Node 20/22/24, Bun, Deno and workerd (bench/runtimes.ts; needs `npm run build` and
 * `node scripts/install-runtimes.mjs`), as ratios against Node 20.
 */
import { createContenders, isolateFromEnvironment } from "./contenders.js";
import { describeCounts, Interrupted, openDatabase } from "./database.js";
import { measureScenario, type MeasureOptions, type ScenarioResult } from "./measure.js";
import { buildRecord, renderTable, SESSION_RATIO_REQUIRED, writeRecord, type Skipped } from "./report.js";
import { Misbehaviour, SCENARIOS, signInOnce, type Scenario, type ScenarioId } from "./scenarios.js";
import { describeFigure, measureColdStart } from "./cold-start.js";
import { describeBundles, measureBundles } from "./bundle.js";
import { describeAllocation, measureAllocation } from "./allocation.js";
import { describeHttp, measureHttp } from "./http.js";
import { describeServerAuth, measureServerAuth } from "./server-auth.js";
import { describeRuntimes, measureRuntimes } from "./runtimes.js";

/** The steps that are not request scenarios measured in this process. */
const STEPS = ["cold", "bundle", "alloc", "http", "server-auth", "runtimes"] as const;
type StepId = (typeof STEPS)[number];
/** The steps of a run without `--only`: all but the slow per-runtime one. */
const DEFAULT_STEPS: StepId[] = STEPS.filter((step) => step !== "runtimes");

interface CliOptions extends MeasureOptions {
  only: ScenarioId[];
  steps: StepId[];
  /** Exit with status 1 when the session ratio is below the requirement. */
  assert: boolean;
}

function usage(problem: string): never {
  console.error(`bench: ${problem}`);
  console.error(`usage: npm run bench -- [--rounds N] [--round-ms MS] [--warmup N] [--only ${[...Object.keys(SCENARIOS), ...STEPS].join(",")}] [--assert]`);
  process.exit(2);
}

function positiveInteger(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) usage(`${flag} needs a positive integer, got ${value ?? "nothing"}`);
  return n;
}

function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    rounds: 10,
    roundMs: 250,
    warmup: 300,
    only: Object.keys(SCENARIOS) as ScenarioId[],
    steps: [...DEFAULT_STEPS],
    assert: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case "--rounds":
        options.rounds = positiveInteger(flag, argv[++i]);
        break;
      case "--round-ms":
        options.roundMs = positiveInteger(flag, argv[++i]);
        break;
      case "--warmup":
        options.warmup = positiveInteger(flag, argv[++i]);
        break;
      case "--only": {
        const ids = (argv[++i] ?? "").split(",").filter(Boolean);
        const unknown = ids.filter((id) => !(id in SCENARIOS) && !(STEPS as readonly string[]).includes(id));
        if (!ids.length || unknown.length) usage(`--only takes a list of ${[...Object.keys(SCENARIOS), ...STEPS].join(", ")}`);
        options.only = ids.filter((id) => id in SCENARIOS) as ScenarioId[];
        options.steps = ids.filter((id) => (STEPS as readonly string[]).includes(id)) as StepId[];
        break;
      }
      case "--assert":
        options.assert = true;
        break;
      default:
        usage(`unknown argument ${flag}`);
    }
  }
  return options;
}

/** A database-session scenario: its own contenders and store, opened for it and removed after. */
async function measureDatabaseScenario(scenario: Scenario, measure: MeasureOptions): Promise<ScenarioResult | Skipped> {
  const setup = await openDatabase(scenario.database!);
  if ("skipped" in setup) return { scenario: scenario.id, title: scenario.title, reason: setup.skipped };
  try {
    const result = await measureScenario(scenario, setup.contenders, setup.fixtures, measure);
    return { ...result, database: { description: setup.description, writes: setup.writes() } };
  } finally {
    await setup.close();
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const removed = isolateFromEnvironment();
  if (removed.length) console.log(`Ignoring ${removed.join(", ")}: both libraries run on their bench config alone.`);

  const contenders = createContenders();
  const needsSignIn = options.only.some((id) => !SCENARIOS[id].database);
  const steps = await runSteps(options.steps);
  const fixtures = needsSignIn ? ([await signInOnce(contenders[0]), await signInOnce(contenders[1])] as const) : undefined;
  const measure: MeasureOptions = { rounds: options.rounds, roundMs: options.roundMs, warmup: options.warmup };
  const gc = typeof (globalThis as { gc?: unknown }).gc === "function";
  console.log(
    `${contenders[0].label} vs ${contenders[1].label} on Node ${process.version}: ${options.rounds} interleaved rounds ` +
      `of ~${options.roundMs} ms per scenario after ${options.warmup} checked warm-up requests${gc ? ", GC between rounds" : ""}.\n`,
  );

  const results: ScenarioResult[] = [];
  const skipped: Skipped[] = [];
  for (const id of options.only) {
    const scenario = SCENARIOS[id];
    const outcome = scenario.database
      ? await measureDatabaseScenario(scenario, measure)
      : await measureScenario(scenario, contenders, fixtures!, measure);
    if ("reason" in outcome) {
      console.log(`  ${outcome.title}: SKIPPED, ${outcome.reason}`);
      skipped.push(outcome);
      continue;
    }
    console.log(`  ${outcome.title}: ${outcome.opsPerRound} requests per round, ${outcome.ratio.toFixed(2)}x`);
    results.push(outcome);
  }

  console.log(`\n${renderTable(results, contenders)}\n`);
  console.log(
    "ops/s: median of the rounds (± half the spread of the rounds); ratio: appauth / @auth/core; " +
      "paired: median of the ratios of rounds run back to back (steadier when the machine is loaded).",
  );
  console.log(
    `CPU µs/req: the process's CPU time per request, ${contenders[0].label} / ${contenders[1].label} (all threads; not a database ` +
      `server's); CPU ratio: ${contenders[1].label} / ${contenders[0].label}, the ratio a loaded machine disturbs least.`,
  );
  for (const result of results.filter((r) => r.database)) {
    const [a, b] = result.database!.writes;
    console.log(
      `${result.title}: ${result.database!.description}; adapter writes in ${result.requestsPerLibrary} requests each: ` +
        `${contenders[0].label} ${describeCounts(a)}, ${contenders[1].label} ${describeCounts(b)}.`,
    );
  }
  for (const skip of skipped) console.log(`${skip.title}: not measured, ${skip.reason}.`);

  for (const line of steps.lines) console.log(line);
  const record = { ...buildRecord(results, contenders, measure, skipped), steps: steps.figures };
  await writeRecord(new URL("./.last-run.json", import.meta.url), record);
  console.log("Written to bench/.last-run.json.");

  const { ratio, met } = record.requirement;
  if (ratio !== null) {
    console.log(
      `Requirement (GET /session at least ${SESSION_RATIO_REQUIRED}x): ${met ? "met" : "NOT met"} at ${ratio.toFixed(2)}x.`,
    );
    if (!met && options.assert) process.exitCode = 1;
  }
}

/** The issue-19 steps, run before the request scenarios (the cold start wants a quiet process). */
async function runSteps(steps: readonly StepId[]): Promise<{ lines: string[]; figures: Record<string, unknown> }> {
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  if (steps.includes("cold")) {
    console.log("Cold start: fresh processes, alternately...");
    const cold = measureColdStart(12);
    figures.coldStart = cold;
    lines.push(
      `Cold start, median of ${cold.runs} alternating fresh processes (ratio @auth/core / appauth, >1 = appauth faster):`,
      `  ${describeFigure("import + config + first GET /session", cold.total, "ms")}`,
      `  ${describeFigure("of which the imports", cold.imports, "ms")}`,
      `  ${describeFigure("CPU time of it", cold.cpu, "ms")}`,
      ...(cold.note ? [`  NOTE: ${cold.note}`] : []),
    );
  }
  if (steps.includes("bundle")) {
    const bundles = await measureBundles();
    figures.middlewareBundle = bundles;
    lines.push(describeBundles(bundles));
  }
  if (steps.includes("alloc")) {
    console.log("Allocation per JWT session read...");
    const allocation = measureAllocation();
    figures.allocation = allocation;
    lines.push(describeAllocation(allocation));
  }
  if (steps.includes("http")) {
    console.log("HTTP under autocannon...");
    const http = await measureHttp();
    figures.http = http;
    lines.push(describeHttp(http));
  }
  if (steps.includes("server-auth")) {
    console.log("Server-side auth(), appauth/next against next-auth...");
    const serverAuth = await measureServerAuth();
    figures.serverAuth = serverAuth;
    lines.push(describeServerAuth(serverAuth));
  }
  if (steps.includes("runtimes")) {
    console.log("Runtimes: cold start and JWT session read on each installed runtime...");
    const runtimes = await measureRuntimes();
    figures.runtimes = runtimes;
    lines.push(describeRuntimes(runtimes));
  }
  return { lines, figures };
}

main().catch((error: unknown) => {
  if (error instanceof Interrupted) {
    process.exitCode = 130;
    return;
  }
  if (error instanceof Misbehaviour) {
    console.error(`\nbench aborted: ${error.message}`);
    console.error("Nothing was measured on an error path; fix the library or the bench config first.");
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
