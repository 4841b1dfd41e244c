/**
 * Instructions per request, counted by valgrind (callgrind), for appauth and @auth/core on one
 * scenario: a figure that does not move with the machine's load, where timings do (bench/README in
 * the issue notes: the credentials sign-in's device cookie was sized with it).
 *
 *   npx tsx bench/instructions.ts [--scenario signin|session|csrf] [--ops 1000] [--warmup 200] [--library appauth|authjs] [--predictable]
 *
 * Each library runs in its own `node --single-threaded` process under callgrind twice, with `warmup`
 * and `warmup + ops` requests; the difference divided by ops is the cost of one request, start-up
 * cancelled. Needs valgrind (Debian's package) and takes about a minute per library at the defaults.
 *
 * What the window holds matters. V8 keeps compiling functions as they get hot for thousands of
 * requests, and `--single-threaded` puts that compilation on the main thread, where callgrind counts
 * it: after 200 requests about half of what a sign-in is charged is the optimizing compiler. That is
 * a start-up figure (what a fresh serverless instance pays). `--warmup 5000 --ops 5000` measures the
 * steady state a long-running server reaches (about five minutes per library).
 *
 * Even there the count is not wholly the program's: V8 schedules some collections by time, so two
 * runs of one revision differed by ~4%. `--predictable` runs node with V8's `--predictable
 * --predictable-gc-schedule` (collector and compiler on a fixed schedule; higher counts, not
 * comparable with runs without it); `--warmup 2200 --ops 5000 --predictable` is what compared the
 * revisions in issue 25's notes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";

const run = promisify(execFile);

function option(flag: string, fallback: string): string {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const scenario = option("--scenario", "signin");
const ops = Number(option("--ops", "1000"));
const only = option("--library", "");
const BASE = Number(option("--warmup", "200"));
const V8_FLAGS = process.argv.includes("--predictable") ? ["--predictable", "--predictable-gc-schedule"] : [];

/** The program valgrind runs: `n` requests of the scenario against one library, each answer checked. */
const LOOP = `
import { createContenders, isolateFromEnvironment } from ${JSON.stringify(fileURLToPath(new URL("./contenders.ts", import.meta.url)))};
import { SCENARIOS, signInOnce } from ${JSON.stringify(fileURLToPath(new URL("./scenarios.ts", import.meta.url)))};
isolateFromEnvironment();
const [library, n, id] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const contender = createContenders().find((c) => c.id === library);
const scenario = SCENARIOS[id];
const fixture = await signInOnce(contender);
for (let i = 0; i < n; i++) {
  const response = await contender.handle(scenario.request(fixture));
  const problem = scenario.quickCheck(response);
  if (problem) throw new Error(library + ": " + problem);
}
`;

async function instructions(bundle: string, library: string, n: number): Promise<number> {
  const { stderr } = await run(
    "valgrind",
    ["--tool=callgrind", "--callgrind-out-file=/dev/null", "node", "--single-threaded", ...V8_FLAGS, bundle, library, String(n), scenario],
    { maxBuffer: 1 << 24 },
  );
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`callgrind printed no count:\n${stderr.slice(-2000)}`);
  return Number(collected[1]);
}

const dir = await mkdtemp(join(tmpdir(), "appauth-instructions-"));
try {
  const entry = join(dir, "loop.ts");
  await writeFile(entry, LOOP);
  const bundle = join(dir, "loop.mjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: bundle,
    logLevel: "warning",
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  const perRequest: Record<string, number> = {};
  for (const library of only ? [only] : ["appauth", "authjs"]) {
    const [low, high] = await Promise.all([instructions(bundle, library, BASE), instructions(bundle, library, BASE + ops)]);
    perRequest[library] = Math.round((high - low) / ops);
    console.log(`${library.padEnd(8)} ${perRequest[library]!.toLocaleString("en")} instructions per request (${scenario})`);
  }
  if (!only) console.log(`ratio (@auth/core / appauth): ${(perRequest.authjs! / perRequest.appauth!).toFixed(3)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
