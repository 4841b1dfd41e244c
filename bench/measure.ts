/**
 * Interleaved rounds: for one scenario, the two libraries take turns (A B, then B A, ...), each
 * round a fixed number of sequential requests, so drift in the machine (frequency, other load, JIT
 * state) falls on both alike. Requests are built before the clock starts: a framework hands the
 * library a ready `Request`, so building one is not the library's cost.
 */
import type { Contender } from "./contenders.js";
import { Misbehaviour, type Fixture, type Scenario } from "./scenarios.js";

export interface MeasureOptions {
  rounds: number;
  /** Warm-up requests per library, each response checked in full. */
  warmup: number;
  /** Target duration of one round of the faster library, which fixes the requests per round. */
  roundMs: number;
}

export interface LibraryResult {
  /** Median of the per-round throughputs. */
  medianOpsPerSec: number;
  roundsOpsPerSec: number[];
}

export interface ScenarioResult {
  scenario: Scenario["id"];
  title: string;
  opsPerRound: number;
  results: [LibraryResult, LibraryResult];
  /** Median of `results[0]` over median of `results[1]`. */
  ratio: number;
  /** Median of the ratios of rounds run back to back; close to `ratio` when the run was steady. */
  pairedRatio: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Collects garbage between rounds when the process was started with `--expose-gc`. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function warmUp(contender: Contender, scenario: Scenario, fixture: Fixture, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await contender.handle(scenario.request(fixture));
    const problem = await scenario.fullCheck(contender, fixture, response);
    if (problem) throw new Misbehaviour(contender, `${scenario.title} (warm-up request ${i + 1})`, problem);
  }
}

/** Runs `ops` sequential requests and returns their throughput in operations per second. */
async function timeRound(contender: Contender, scenario: Scenario, fixture: Fixture, ops: number): Promise<number> {
  const requests = Array.from({ length: ops }, () => scenario.request(fixture));
  collectGarbage();
  const start = performance.now();
  for (let i = 0; i < ops; i++) {
    const response = await contender.handle(requests[i]!);
    const problem = scenario.quickCheck(response);
    if (problem) throw new Misbehaviour(contender, `${scenario.title} (measured request ${i + 1})`, problem);
  }
  const elapsed = performance.now() - start;
  return (ops * 1000) / elapsed;
}

/** Measures one scenario on both libraries. `fixtures[i]` belongs to `contenders[i]`. */
export async function measureScenario(
  scenario: Scenario,
  contenders: readonly [Contender, Contender],
  fixtures: readonly [Fixture, Fixture],
  options: MeasureOptions,
): Promise<ScenarioResult> {
  for (const i of [0, 1] as const) await warmUp(contenders[i], scenario, fixtures[i], options.warmup);

  // A short probe of each library sets the round size, the same for both.
  const probeOps = Math.max(50, Math.min(options.warmup, 500));
  const probe: number[] = [];
  for (const i of [0, 1] as const) probe.push(await timeRound(contenders[i], scenario, fixtures[i], probeOps));
  const faster = Math.max(...probe);
  const opsPerRound = Math.min(50_000, Math.max(200, Math.round((faster * options.roundMs) / 1000)));

  const rounds: [number[], number[]] = [[], []];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const i of order) rounds[i].push(await timeRound(contenders[i], scenario, fixtures[i], opsPerRound));
  }

  const results: [LibraryResult, LibraryResult] = [
    { medianOpsPerSec: median(rounds[0]), roundsOpsPerSec: rounds[0] },
    { medianOpsPerSec: median(rounds[1]), roundsOpsPerSec: rounds[1] },
  ];
  return {
    scenario: scenario.id,
    title: scenario.title,
    opsPerRound,
    results,
    ratio: results[0].medianOpsPerSec / results[1].medianOpsPerSec,
    pairedRatio: median(rounds[0].map((ops, round) => ops / rounds[1][round]!)),
  };
}
