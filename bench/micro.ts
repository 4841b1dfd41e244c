/**
 * The harness of the micro-measurements (`profile-*.ts`): each piece is awaited in a loop, the
 * pieces take turns pass after pass so drift falls on all alike, and both the best pass and the
 * median pass are shown. On a busy machine the best pass is the better estimate of a piece's own
 * cost; the median says how much the load added.
 */
import { median } from "./measure.js";

export interface Piece {
  label: string;
  run: () => unknown;
}

export interface MicroOptions {
  iterations: number;
  passes: number;
}

/** `--iterations N --passes N` from the command line, with defaults. */
export function microOptions(defaults: MicroOptions = { iterations: 1000, passes: 15 }): MicroOptions {
  const read = (flag: string, fallback: number) => {
    const at = process.argv.indexOf(flag);
    const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return { iterations: read("--iterations", defaults.iterations), passes: read("--passes", defaults.passes) };
}

/** Wall and CPU (this process, all threads) µs per operation over `iterations` sequential awaits. */
async function microsecondsPerOp(piece: Piece, iterations: number): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await piece.run();
  const wall = ((performance.now() - start) * 1000) / iterations;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / iterations };
}

/** Measures every piece and prints one line each: best and median µs per operation. */
export async function measurePieces(title: string, pieces: readonly Piece[], options: MicroOptions): Promise<void> {
  for (const piece of pieces) await microsecondsPerOp(piece, Math.min(options.iterations, 500));
  const samples = pieces.map(() => [] as number[]);
  const cpuSamples = pieces.map(() => [] as number[]);
  for (let pass = 0; pass < options.passes; pass++) {
    for (const [i, piece] of pieces.entries()) {
      const { wall, cpu } = await microsecondsPerOp(piece, options.iterations);
      samples[i]!.push(wall);
      cpuSamples[i]!.push(cpu);
    }
  }
  const width = Math.max(...pieces.map((p) => p.label.length));
  console.log(`${title}: µs per operation over ${options.passes} passes of ${options.iterations} sequential awaits (Node ${process.version})\n`);
  console.log(`${"".padEnd(width)}  ${"best".padStart(8)}  ${"median".padStart(8)}  ${"CPU".padStart(8)}`);
  for (const [i, piece] of pieces.entries()) {
    const best = Math.min(...samples[i]!);
    const cells = [best, median(samples[i]!), median(cpuSamples[i]!)].map((v) => v.toFixed(1).padStart(8));
    console.log(`${piece.label.padEnd(width)}  ${cells.join("  ")}`);
  }
  console.log("\nbest, median: wall time of the passes; CPU: median of the passes' process CPU time (all threads: GC, thread pool).");
}
