/**
 * A paired comparison of appauth at two revisions on one scenario, in one process: batches of each
 * alternate, so the machine's load and the process's warm-up fall on both alike, and each batch is
 * timed by the CPU it used (user + system), not by the wall clock. For a change whose cost is a few
 * percent, where two separate `npm run bench` runs differ by more than that.
 *
 *   git worktree add --detach ../base <commit> && ln -s "$PWD/node_modules" ../base/node_modules
 *   npx tsx bench/ab.ts --base ../base [--scenario signin] [--batches 40] [--batch 300]
 *
 * Each revision runs its own bench/contenders.ts and bench/scenarios.ts (its own configuration).
 * Prints the median CPU time per request of each and their ratio (current / base), with the
 * interquartile range of the per-pair ratios.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type * as ContendersModule from "./contenders.js";
import type { Contender } from "./contenders.js";
import type * as ScenariosModule from "./scenarios.js";
import type { Fixture, Scenario, ScenarioId } from "./scenarios.js";

function option(flag: string, fallback?: string): string {
  const at = process.argv.indexOf(flag);
  const value = at >= 0 ? process.argv[at + 1] : fallback;
  if (value === undefined) throw new TypeError(`${flag} is required`);
  return value;
}

const baseDir = resolve(option("--base"));
const scenarioId = option("--scenario", "signin") as ScenarioId;
const batches = Number(option("--batches", "40"));
const batchSize = Number(option("--batch", "300"));

interface Side {
  label: string;
  contender: Contender;
  scenario: Scenario;
  fixture: Fixture;
  microseconds: number[];
}

async function side(label: string, dir: string): Promise<Side> {
  const contenders = (await import(pathToFileURL(`${dir}/bench/contenders.ts`).href)) as typeof ContendersModule;
  const scenarios = (await import(pathToFileURL(`${dir}/bench/scenarios.ts`).href)) as typeof ScenariosModule;
  contenders.isolateFromEnvironment();
  const contender = contenders.createContenders().find((c) => c.id === "appauth");
  if (!contender) throw new Error(`${dir}: no appauth contender`);
  const scenario = scenarios.SCENARIOS[scenarioId];
  const fixture = await scenarios.signInOnce(contender);
  return { label, contender, scenario, fixture, microseconds: [] };
}

async function batch(s: Side): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < batchSize; i++) {
    const response = await s.contender.handle(s.scenario.request(s.fixture));
    const problem = s.scenario.quickCheck(response);
    if (problem) throw new Error(`${s.label}: ${problem}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / batchSize;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

const current = await side("current", resolve(import.meta.dirname, ".."));
const base = await side("base", baseDir);
// Warm-up: both sides through the optimiser before anything counts.
for (let i = 0; i < 5; i++) {
  await batch(current);
  await batch(base);
}
const ratios: number[] = [];
for (let i = 0; i < batches; i++) {
  // Alternate which side goes first, so neither always follows the other's garbage.
  const order = i % 2 ? [base, current] : [current, base];
  for (const s of order) s.microseconds.push(await batch(s));
  ratios.push(current.microseconds.at(-1)! / base.microseconds.at(-1)!);
}
console.log(`scenario ${scenarioId}: ${batches} pairs of ${batchSize} requests, CPU time per request (user + system)`);
for (const s of [base, current]) console.log(`  ${s.label.padEnd(8)} median ${median(s.microseconds).toFixed(1)} µs`);
console.log(`  current / base: median ${median(ratios).toFixed(3)} (interquartile ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)})`);
