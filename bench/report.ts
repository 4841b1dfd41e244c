/**
 * Presenting a run: a table for people, a JSON record (`bench/.last-run.json`) for tools and for
 * comparing runs. Ratios are the point; absolute figures only mean something on the machine that
 * produced them, which the record describes.
 */
import { writeFile } from "node:fs/promises";
import os from "node:os";
import type { Contender } from "./contenders.js";
import type { MeasureOptions, ScenarioResult } from "./measure.js";

/** The project's requirement: appauth serves GET /session at least this many times as fast as @auth/core. */
export const SESSION_RATIO_REQUIRED = 2;

function formatOps(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Half the spread of the rounds, relative to the median: a rough noise figure. */
function spread(rounds: readonly number[], median: number): string {
  const half = (Math.max(...rounds) - Math.min(...rounds)) / 2;
  return `±${((half / median) * 100).toFixed(0)}%`;
}

export function renderTable(results: readonly ScenarioResult[], contenders: readonly [Contender, Contender]): string {
  const header = [
    "scenario",
    `${contenders[0].label} ops/s`,
    `${contenders[1].label} ops/s`,
    "ratio",
    "paired",
    "CPU µs/req",
    "CPU ratio",
  ];
  const rows = results.map((r) => [
    r.title,
    `${formatOps(r.results[0].medianOpsPerSec)} ${spread(r.results[0].roundsOpsPerSec, r.results[0].medianOpsPerSec)}`,
    `${formatOps(r.results[1].medianOpsPerSec)} ${spread(r.results[1].roundsOpsPerSec, r.results[1].medianOpsPerSec)}`,
    `${r.ratio.toFixed(2)}x`,
    `${r.pairedRatio.toFixed(2)}x`,
    `${r.results[0].medianCpuMicrosPerOp.toFixed(0)} / ${r.results[1].medianCpuMicrosPerOp.toFixed(0)}`,
    `${r.cpuRatio.toFixed(2)}x`,
  ]);
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => row[col]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("   ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("   "), ...rows.map(line)].join("\n");
}

/** A scenario that could not run here (a database server that does not answer), and why. */
export interface Skipped {
  scenario: ScenarioResult["scenario"];
  title: string;
  reason: string;
}

export interface RunRecord {
  date: string;
  machine: { node: string; platform: string; arch: string; cpu: string; cpus: number };
  options: MeasureOptions;
  gcBetweenRounds: boolean;
  libraries: string[];
  scenarios: ScenarioResult[];
  skipped: Skipped[];
  requirement: { scenario: "session"; minRatio: number; ratio: number | null; met: boolean | null };
}

export function buildRecord(
  results: ScenarioResult[],
  contenders: readonly [Contender, Contender],
  options: MeasureOptions,
  skipped: Skipped[] = [],
): RunRecord {
  const session = results.find((r) => r.scenario === "session");
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: os.platform(),
      arch: os.arch(),
      cpu: cpus[0]?.model.trim() ?? "unknown",
      cpus: cpus.length,
    },
    options,
    gcBetweenRounds: typeof (globalThis as { gc?: unknown }).gc === "function",
    libraries: contenders.map((c) => c.label),
    scenarios: results,
    skipped,
    requirement: {
      scenario: "session",
      minRatio: SESSION_RATIO_REQUIRED,
      ratio: session ? session.ratio : null,
      met: session ? session.ratio >= SESSION_RATIO_REQUIRED : null,
    },
  };
}

export async function writeRecord(path: URL, record: RunRecord): Promise<void> {
  await writeFile(path, `${JSON.stringify(record, null, 2)}\n`);
}
