/**
 * `npm run bench`: appauth against @auth/core in one process, on the routes that matter most —
 * reading a session, a credentials sign-in, and the CSRF token — reported as ratios (DESIGN.md §7).
 *
 *   npm run bench -- --rounds 10 --round-ms 250 --warmup 300 --only session,signin --assert
 *
 * `NODE_OPTIONS=--expose-gc npm run bench` also collects garbage before every round, so one
 * library's garbage is not collected on the other's time.
 */
import { createContenders, isolateFromEnvironment } from "./contenders.js";
import { measureScenario, type MeasureOptions, type ScenarioResult } from "./measure.js";
import { buildRecord, renderTable, SESSION_RATIO_REQUIRED, writeRecord } from "./report.js";
import { Misbehaviour, SCENARIOS, signInOnce, type ScenarioId } from "./scenarios.js";

interface CliOptions extends MeasureOptions {
  only: ScenarioId[];
  /** Exit with status 1 when the session ratio is below the requirement. */
  assert: boolean;
}

function usage(problem: string): never {
  console.error(`bench: ${problem}`);
  console.error("usage: npm run bench -- [--rounds N] [--round-ms MS] [--warmup N] [--only session,signin,csrf] [--assert]");
  process.exit(2);
}

function positiveInteger(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) usage(`${flag} needs a positive integer, got ${value ?? "nothing"}`);
  return n;
}

function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { rounds: 10, roundMs: 250, warmup: 300, only: ["session", "signin", "csrf"], assert: false };
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
        const unknown = ids.filter((id) => !(id in SCENARIOS));
        if (!ids.length || unknown.length) usage(`--only takes a list of ${Object.keys(SCENARIOS).join(", ")}`);
        options.only = ids as ScenarioId[];
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

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const removed = isolateFromEnvironment();
  if (removed.length) console.log(`Ignoring ${removed.join(", ")}: both libraries run on their bench config alone.`);

  const contenders = createContenders();
  const fixtures = [await signInOnce(contenders[0]), await signInOnce(contenders[1])] as const;
  const measure: MeasureOptions = { rounds: options.rounds, roundMs: options.roundMs, warmup: options.warmup };
  const gc = typeof (globalThis as { gc?: unknown }).gc === "function";
  console.log(
    `${contenders[0].label} vs ${contenders[1].label} on Node ${process.version}: ${options.rounds} interleaved rounds ` +
      `of ~${options.roundMs} ms per scenario after ${options.warmup} checked warm-up requests${gc ? ", GC between rounds" : ""}.\n`,
  );

  const results: ScenarioResult[] = [];
  for (const id of options.only) {
    const result = await measureScenario(SCENARIOS[id], contenders, fixtures, measure);
    console.log(`  ${result.title}: ${result.opsPerRound} requests per round, ${result.ratio.toFixed(2)}x`);
    results.push(result);
  }

  console.log(`\n${renderTable(results, contenders)}\n`);
  console.log("ops/s: median of the rounds (± half the spread of the rounds); ratio: appauth / @auth/core.");

  const record = buildRecord(results, contenders, measure);
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

main().catch((error: unknown) => {
  if (error instanceof Misbehaviour) {
    console.error(`\nbench aborted: ${error.message}`);
    console.error("Nothing was measured on an error path; fix the library or the bench config first.");
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
