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
  /**
   * Median over the rounds of the process's CPU time (user + system, all threads: the main thread,
   * the thread pool's crypto jobs, GC) per request, in µs. Unlike throughput it does not count time
   * spent waiting for a CPU, so it stays put when other processes load the machine; it does not
   * count a database server's time either.
   */
  medianCpuMicrosPerOp: number;
  roundsCpuMicrosPerOp: number[];
}

interface Round {
  opsPerSec: number;
  cpuMicrosPerOp: number;
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
  /** CPU per request of `results[1]` over that of `results[0]`: above 1 when the first library needs less CPU. */
  cpuRatio: number;
  /** Requests each library served for this scenario: warm-up, probe, rounds and the final check. */
  requestsPerLibrary: number;
  /** Database-session scenarios: the store, and the writes each library made through its adapter. */
  database?: { description: string; writes: [Record<string, number>, Record<string, number>] };
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

/**
 * Runs `ops` requests, one after another or (`scenario.concurrency`) in batches started together: their
 * throughput in operations per second, and the CPU time each took.
 */
async function timeRound(contender: Contender, scenario: Scenario, fixture: Fixture, ops: number): Promise<Round> {
  const requests = Array.from({ length: ops }, () => scenario.request(fixture));
  const batch = scenario.concurrency ?? 1;
  collectGarbage();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < ops; i += batch) {
    if (batch === 1) {
      const problem = scenario.quickCheck(await contender.handle(requests[i]!));
      if (problem) throw new Misbehaviour(contender, `${scenario.title} (measured request ${i + 1})`, problem);
      continue;
    }
    const responses = await Promise.all(requests.slice(i, i + batch).map((request) => contender.handle(request)));
    for (const [j, response] of responses.entries()) {
      const problem = scenario.quickCheck(response);
      if (problem) throw new Misbehaviour(contender, `${scenario.title} (measured request ${i + j + 1})`, problem);
    }
  }
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { opsPerSec: (ops * 1000) / elapsed, cpuMicrosPerOp: (used.user + used.system) / ops };
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
  for (const i of [0, 1] as const) probe.push((await timeRound(contenders[i], scenario, fixtures[i], probeOps)).opsPerSec);
  const faster = Math.max(...probe);
  const opsPerRound = Math.min(50_000, Math.max(200, Math.round((faster * options.roundMs) / 1000)));

  const rounds: [Round[], Round[]] = [[], []];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const i of order) rounds[i].push(await timeRound(contenders[i], scenario, fixtures[i], opsPerRound));
  }

  // One more response each, checked in full: the rounds ended in the state they started in.
  for (const i of [0, 1] as const) {
    const response = await contenders[i].handle(scenario.request(fixtures[i]));
    const problem = await scenario.fullCheck(contenders[i], fixtures[i], response);
    if (problem) throw new Misbehaviour(contenders[i], `${scenario.title} (after the rounds)`, problem);
  }

  const library = (own: Round[]): LibraryResult => {
    const ops = own.map((r) => r.opsPerSec);
    const cpu = own.map((r) => r.cpuMicrosPerOp);
    return { medianOpsPerSec: median(ops), roundsOpsPerSec: ops, medianCpuMicrosPerOp: median(cpu), roundsCpuMicrosPerOp: cpu };
  };
  const results: [LibraryResult, LibraryResult] = [library(rounds[0]), library(rounds[1])];
  return {
    scenario: scenario.id,
    title: scenario.title,
    opsPerRound,
    results,
    ratio: results[0].medianOpsPerSec / results[1].medianOpsPerSec,
    pairedRatio: median(rounds[0].map((r, round) => r.opsPerSec / rounds[1][round]!.opsPerSec)),
    cpuRatio: results[1].medianCpuMicrosPerOp / results[0].medianCpuMicrosPerOp,
    requestsPerLibrary: options.warmup + probeOps + options.rounds * opsPerRound + 1,
  };
}
