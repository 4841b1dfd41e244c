/**
 * Per runtime (issue 31; `npm run bench -- --only runtimes`, not in the default run): the portable
 * suite's app (test/portable/app, the packed package in a temp project) on each installed runtime's
 * own server, measured two ways, with ratios against Node 20 in the same run:
 *
 * - cold start: from spawning the runtime to the first `GET /auth/session` answered (polled every
 *   5 ms over loopback: boot, imports, config and the first request), median of alternating runs;
 * - JWT session read: `GET /auth/session` with a signed-in cookie under autocannon (20 connections),
 *   beside the same server's floor (`GET /whoami`, a fixed JSON answer), so the runtime's HTTP server
 *   is seen apart from appauth's work; median of three interleaved rounds.
 *
 * The runtimes come from `node scripts/install-runtimes.mjs`; those not installed are listed as such.
 */
import autocannon from "autocannon";
import { median } from "./measure.js";
import { findRuntimes, freePort, prepareProject, startApp, type AppSettings, type Project, type Runtime } from "../test/portable/harness.js";

export interface RuntimeFigures {
  id: string;
  label: string;
  coldStartMs: number;
  sessionRps: number;
  floorRps: number;
  /** Against Node 20 (>1 = this runtime better): Node 20's cold start over this one's; this one's session reads per second over Node 20's. */
  coldStartRatio: number;
  sessionRatio: number;
}

export interface RuntimesResult {
  runtimes: RuntimeFigures[];
  notInstalled: string[];
}

const SETTINGS: Omit<AppSettings, "RUNTIME" | "REDIS_PREFIX"> = {
  SECRET: "bench-runtimes-secret-0123456789abcdef0123",
  ISSUER: "http://127.0.0.1:9/unused",
  CLIENT_ID: "unused",
  CLIENT_SECRET: "unused",
  MAIL_API: "http://127.0.0.1:9",
  REDIS_URL: "redis://127.0.0.1:6379",
};

function settingsFor(runtime: Runtime): AppSettings {
  return { ...SETTINGS, RUNTIME: runtime.id, REDIS_PREFIX: `bench-runtimes:${process.pid}:${runtime.id}:` };
}

async function coldStart(runtime: Runtime, project: Project): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const app = await startApp(runtime, project, port, settingsFor(runtime), { readyPath: "/auth/session", pollMs: 5 });
  const elapsed = performance.now() - started;
  await app.stop();
  return elapsed;
}

async function load(url: string, cookie: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, headers: { cookie }, connections: 20, duration: seconds });
  if (result.non2xx || result.errors) throw new Error(`runtimes bench: ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/** A signed-in session cookie from the app's credentials provider. */
async function signIn(origin: string): Promise<string> {
  const csrf = await fetch(`${origin}/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${origin}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "ada", password: "correct horse battery staple", csrfToken }),
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("appauth.session-token="));
  if (!session) throw new Error(`runtimes bench: sign-in at ${origin} set no session cookie (${response.status})`);
  const cookie = session.split(";")[0]!;
  const read = (await (await fetch(`${origin}/auth/session`, { headers: { cookie } })).json()) as { user?: { name?: string } } | null;
  if (read?.user?.name !== "Ada Lovelace") throw new Error(`runtimes bench: the session at ${origin} does not read back`);
  return cookie;
}

export async function measureRuntimes(coldRuns = 5, seconds = 2): Promise<RuntimesResult> {
  const all = findRuntimes();
  const runtimes = all.filter((runtime) => runtime.binary);
  const project = await prepareProject();
  try {
    // Cold starts alternate between runtimes, so a busy moment of the machine is shared.
    const cold = new Map<string, number[]>(runtimes.map((runtime) => [runtime.id, []]));
    for (let run = 0; run < coldRuns; run++) {
      for (const runtime of runtimes) cold.get(runtime.id)!.push(await coldStart(runtime, project));
    }
    // Every server up at once, then interleaved rounds (runtime after runtime, three times): the median
    // round of each, so a moment when the shared machine was busy does not fall on one runtime alone.
    const apps = await Promise.all(runtimes.map(async (runtime) => startApp(runtime, project, await freePort(), settingsFor(runtime))));
    const rounds = new Map<string, { session: number[]; floor: number[] }>(runtimes.map((runtime) => [runtime.id, { session: [], floor: [] }]));
    try {
      const cookies = await Promise.all(apps.map((app) => signIn(app.origin)));
      for (const [i, app] of apps.entries()) await load(`${app.origin}/auth/session`, cookies[i]!, 1); // warm-up
      for (let round = 0; round < 3; round++) {
        for (const [i, app] of apps.entries()) {
          const figures = rounds.get(runtimes[i]!.id)!;
          figures.session.push(await load(`${app.origin}/auth/session`, cookies[i]!, seconds));
          figures.floor.push(await load(`${app.origin}/whoami`, cookies[i]!, seconds));
        }
      }
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
    }
    const throughput = new Map([...rounds].map(([id, figures]) => [id, { session: median(figures.session), floor: median(figures.floor) }]));
    const base = runtimes.find((runtime) => runtime.id === "node20")!;
    const baseCold = median(cold.get(base.id)!);
    const baseSession = throughput.get(base.id)!.session;
    return {
      runtimes: runtimes.map((runtime) => {
        const coldStartMs = median(cold.get(runtime.id)!);
        const { session, floor } = throughput.get(runtime.id)!;
        return {
          id: runtime.id,
          label: runtime.label,
          coldStartMs,
          sessionRps: session,
          floorRps: floor,
          coldStartRatio: baseCold / coldStartMs,
          sessionRatio: session / baseSession,
        };
      }),
      notInstalled: all.filter((runtime) => !runtime.binary).map((runtime) => runtime.id),
    };
  } finally {
    project.cleanup();
  }
}

export function describeRuntimes(result: RuntimesResult): string {
  const lines = [
    "Runtimes (the portable app from the packed package; ratios against Node 20, >1 = better than Node 20):",
    "  runtime              cold start (ms)  ratio   GET /session (req/s)  ratio   floor /whoami (req/s)",
    ...result.runtimes.map(
      (r) =>
        `  ${r.label.padEnd(20)} ${r.coldStartMs.toFixed(0).padStart(15)}  ${r.coldStartRatio.toFixed(2).padStart(5)}x ` +
        `${r.sessionRps.toFixed(0).padStart(21)}  ${r.sessionRatio.toFixed(2).padStart(5)}x ${r.floorRps.toFixed(0).padStart(22)}`,
    ),
  ];
  if (result.notInstalled.length) lines.push(`  not installed (node scripts/install-runtimes.mjs): ${result.notInstalled.join(", ")}`);
  return lines.join("\n");
}
