/**
 * Cold start (issue 19): a fresh Node process imports the library, builds the bench config (one
 * Credentials provider) and answers its first GET /session — what a serverless function or an edge
 * isolate pays on its first request. The two libraries run alternately (A B, B A, ...) in fresh
 * processes (bench/cold/*.mjs); each reports the time from before its imports to the first response
 * read in full, and the CPU time that took. appauth runs from its build (dist/): run `npm run
 * build` first, as the check below reminds.
 */
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));

interface Run {
  importMs: number;
  totalMs: number;
  cpuMs: number;
}

export interface Figure {
  /** Median of appauth's runs, of @auth/core's runs, and of the paired ratios (@auth/core / appauth: >1 = appauth faster). */
  appauth: number;
  authjs: number;
  ratio: number;
  /** Smallest and largest of the paired ratios: the spread the machine gave. */
  ratioRange: [number, number];
}

export interface ColdStartResult {
  runs: number;
  total: Figure;
  imports: Figure;
  cpu: Figure;
  note?: string;
}

function once(library: "appauth" | "authjs"): Run {
  const child = spawnSync(process.execPath, [`bench/cold/${library}.mjs`], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  if (child.status !== 0) throw new Error(`cold start of ${library} failed: ${child.stderr}`);
  const run = JSON.parse(child.stdout) as Run & { status: number; body: string };
  // Without a session cookie both answer 200 and the JSON `null`: anything else is an error path.
  if (run.status !== 200 || run.body !== "null") throw new Error(`cold start of ${library} answered ${run.status} ${run.body}`);
  return run;
}

function figure(a: number[], b: number[]): Figure {
  const ratios = a.map((value, i) => b[i]! / value);
  return { appauth: median(a), authjs: median(b), ratio: median(ratios), ratioRange: [Math.min(...ratios), Math.max(...ratios)] };
}

/** Whether dist/ is older than a source file it is built from (the cold start would measure old code). */
function staleBuild(): string | undefined {
  try {
    const built = statSync(`${root}/dist/src/handler.js`).mtimeMs;
    const sources = ["src/handler.ts", "src/config/runtime.ts", "src/config/schema.ts", "src/flows/session.ts"];
    const newer = sources.filter((file) => statSync(`${root}/${file}`).mtimeMs > built);
    return newer.length ? `dist/ is older than ${newer.join(", ")}: run npm run build` : undefined;
  } catch {
    return "dist/ is missing: run npm run build";
  }
}

export function measureColdStart(runs: number): ColdStartResult {
  const stale = staleBuild();
  if (stale?.includes("missing")) throw new Error(`cold start: ${stale}`);
  // One of each first, unmeasured: the file system cache then holds both libraries' files.
  once("appauth");
  once("authjs");
  const a: Run[] = [];
  const b: Run[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      a.push(once("appauth"));
      b.push(once("authjs"));
    } else {
      b.push(once("authjs"));
      a.push(once("appauth"));
    }
  }
  const pick = (rs: Run[], key: keyof Run) => rs.map((r) => r[key]);
  return {
    runs,
    total: figure(pick(a, "totalMs"), pick(b, "totalMs")),
    imports: figure(pick(a, "importMs"), pick(b, "importMs")),
    cpu: figure(pick(a, "cpuMs"), pick(b, "cpuMs")),
    ...(stale ? { note: stale } : {}),
  };
}

export function describeFigure(name: string, f: Figure, unit: string): string {
  return (
    `${name}: appauth ${f.appauth.toFixed(1)} ${unit}, @auth/core ${f.authjs.toFixed(1)} ${unit}, ` +
    `${f.ratio.toFixed(2)}x (paired ratios ${f.ratioRange[0].toFixed(2)}–${f.ratioRange[1].toFixed(2)})`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 12);
  const result = measureColdStart(runs);
  console.log(`Cold start, median of ${runs} alternating fresh processes (>1 = appauth faster):`);
  console.log(`  ${describeFigure("import + config + first GET /session", result.total, "ms")}`);
  console.log(`  ${describeFigure("of which the imports", result.imports, "ms")}`);
  console.log(`  ${describeFigure("CPU time of it", result.cpu, "ms")}`);
  if (result.note) console.log(`  NOTE: ${result.note}`);
}
