/**
 * A CPU profile of one library serving one scenario in a loop, summarised: self time by area
 * (xstate, the library's own files, Web Crypto, undici's Request/Response, GC) and the functions
 * with the most self and inclusive time. Profiles in-process through `node:inspector`, so it runs
 * under tsx with no extra flags; `--save` also writes the raw `.cpuprofile` for Chrome DevTools.
 *
 *   npx tsx bench/cpu-profile.ts [--library appauth|authjs] [--scenario session|session-100|signin|csrf|db-memory|db-sqlite|db-postgres] [--ops 20000] [--save]
 *
 * The database scenarios run on their own store (bench/database.ts), removed at the end.
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { createContenders, isolateFromEnvironment, type Contender } from "./contenders.js";
import { openDatabase } from "./database.js";
import { SCENARIOS, signInOnce, type Fixture, type Scenario, type ScenarioId } from "./scenarios.js";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

function option(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Which part of the stack a frame belongs to. */
function area(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName || "anonymous"}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  if (url.startsWith("node:internal/deps/undici") || url.includes("internal/deps/undici")) return "node undici (Request/Response/Headers)";
  if (url.startsWith("node:internal/crypto")) return "node webcrypto";
  if (url.startsWith("node:")) return `node ${url.slice(5).split("/").slice(0, 2).join("/")}`;
  const own = /\/work\/[^/]+\/(src|machines|bench)\/(.+)$/.exec(url) ?? /\/(src|machines|bench)\/([^/]+(?:\/[^/]+)?)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url;
}

function frameKey(frame: CallFrame): string {
  const file = frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/\/work\/[^/]+\//, "");
  return `${frame.functionName || "(anonymous)"}  ${file}${file ? `:${frame.lineNumber + 1}` : ""}`;
}

function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totalHits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const msPerHit = (profile.endTime - profile.startTime) / 1000 / Math.max(totalHits, 1);

  const selfByArea = new Map<string, number>();
  const selfByFrame = new Map<string, number>();
  const inclusiveByFrame = new Map<string, number>();

  // Inclusive hits per node, then per frame with each frame counted once per stack (recursion).
  const inclusive = new Map<number, number>();
  const totalOf = (id: number): number => {
    const node = byId.get(id)!;
    let sum = node.hitCount ?? 0;
    for (const child of node.children ?? []) sum += totalOf(child);
    inclusive.set(id, sum);
    return sum;
  };
  const root = profile.nodes[0]!;
  totalOf(root.id);
  const walk = (id: number, onStack: Set<string>): void => {
    const node = byId.get(id)!;
    const key = frameKey(node.callFrame);
    const hits = node.hitCount ?? 0;
    selfByArea.set(area(node.callFrame), (selfByArea.get(area(node.callFrame)) ?? 0) + hits);
    selfByFrame.set(key, (selfByFrame.get(key) ?? 0) + hits);
    const fresh = !onStack.has(key);
    if (fresh) {
      inclusiveByFrame.set(key, (inclusiveByFrame.get(key) ?? 0) + inclusive.get(id)!);
      onStack.add(key);
    }
    for (const child of node.children ?? []) walk(child, onStack);
    if (fresh) onStack.delete(key);
  };
  walk(root.id, new Set());

  const busy = totalHits - (selfByArea.get("(idle)") ?? 0);
  const table = (title: string, entries: Map<string, number>, denominator: number, limit: number) => {
    const rows = [...entries].filter(([k]) => k !== "(idle)" && !k.startsWith("(root)")).sort((a, b) => b[1] - a[1]).slice(0, limit);
    const lines = rows.map(
      ([k, hits]) => `${((hits / denominator) * 100).toFixed(1).padStart(6)}%  ${(hits * msPerHit).toFixed(0).padStart(6)} ms  ${k}`,
    );
    return [`\n${title}`, ...lines].join("\n");
  };
  return [
    `busy ${(busy * msPerHit).toFixed(0)} ms of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms (idle = waiting on the thread pool)`,
    table("self time by area (% of busy)", selfByArea, busy, 20),
    table("self time by function (% of busy)", selfByFrame, busy, top),
    table("inclusive time by function (% of busy)", inclusiveByFrame, busy, top),
  ].join("\n");
}

async function main(): Promise<void> {
  isolateFromEnvironment();
  const library = option("--library") ?? "appauth";
  const scenarioId = (option("--scenario") ?? "session") as ScenarioId;
  const ops = Number(option("--ops") ?? 20000);
  const scenario = SCENARIOS[scenarioId];
  if (!scenario) throw new Error(`unknown scenario ${scenarioId}`);
  if (library !== "appauth" && library !== "authjs") throw new Error(`unknown library ${library}: appauth or authjs`);
  const index = library === "appauth" ? 0 : 1;

  let contender: Contender;
  let fixture: Fixture;
  let close = async () => {};
  if (scenario.database) {
    const setup = await openDatabase(scenario.database);
    if ("skipped" in setup) throw new Error(`${scenario.title}: ${setup.skipped}`);
    ({ close } = setup);
    contender = setup.contenders[index];
    fixture = setup.fixtures[index];
  } else {
    contender = createContenders()[index];
    fixture = await signInOnce(contender);
  }
  try {
    await profile(contender, scenario, fixture, ops);
  } finally {
    await close();
  }
}

async function profile(contender: Contender, scenario: Scenario, fixture: Fixture, ops: number): Promise<void> {
  const library = contender.id;
  const scenarioId = scenario.id;
  for (let i = 0; i < 2000; i++) await contender.handle(scenario.request(fixture));

  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  const start = performance.now();
  const batch = scenario.concurrency ?? 1;
  for (let i = 0; i < ops; i += batch) {
    const requests = Array.from({ length: Math.min(batch, ops - i) }, () => scenario.request(fixture));
    for (const response of await Promise.all(requests.map((request) => contender.handle(request)))) {
      const problem = scenario.quickCheck(response);
      if (problem) throw new Error(`${contender.label}: ${problem}`);
    }
  }
  const elapsed = performance.now() - start;
  const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
  session.disconnect();

  console.log(`${contender.label} ${scenario.title}: ${ops} requests, ${((ops * 1000) / elapsed).toFixed(0)} ops/s while profiling`);
  console.log("(includes building each Request, which the benchmark keeps off its clock)");
  console.log(summarise(profile, Number(option("--top") ?? 25)));
  if (process.argv.includes("--save")) {
    const path = new URL(`./.profile-${library}-${scenarioId}.cpuprofile`, import.meta.url);
    await writeFile(path, JSON.stringify(profile));
    console.log(`\nRaw profile: ${path.pathname}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
