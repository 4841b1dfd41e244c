/**
 * HTTP-level scenario (issue 19): each library behind the same `node:http` server (a child process,
 * so the load generator does not share its thread), loaded over loopback by autocannon with 100
 * connections on GET /api/auth/session with a valid JWT session cookie. The floor is the same
 * server turning each request into a `Request` and answering a fixed session JSON without any
 * library. Targets take turns over the rounds; figures are medians over the rounds.
 *
 *   npx tsx bench/http.ts [--rounds 3] [--seconds 4]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createContenders, isolateFromEnvironment, ORIGIN } from "./contenders.js";
import { median } from "./measure.js";
import { signInOnce } from "./scenarios.js";

type Target = "floor" | "appauth" | "authjs";

export interface HttpFigure {
  requestsPerSec: number;
  p99Ms: number;
  /** Every round's throughput, for the spread. */
  rounds: number[];
}

export interface HttpResult {
  connections: number;
  seconds: number;
  floor: HttpFigure;
  appauth: HttpFigure;
  authjs: HttpFigure;
}

/** The server side, in the child: one target, its session cookie sent to the parent on stdout. */
async function serve(target: Target): Promise<void> {
  isolateFromEnvironment();
  const contenders = createContenders();
  const contender = target === "authjs" ? contenders[1] : contenders[0];
  const fixture = await signInOnce(contender);
  const fixedSession = JSON.stringify({ user: { name: "Bench User", email: "bench@example.com" }, expires: new Date(Date.now() + 86_400_000).toISOString() });
  const handle =
    target === "floor"
      ? async () => new Response(fixedSession, { headers: { "content-type": "application/json" } })
      : (request: Request) => contender.handle(request);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`${ORIGIN}${req.url}`, { method: req.method, headers });
    handle(request).then(
      async (response) => {
        const body = await response.text();
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((value, name) => (out[name] = value));
        const cookies = response.headers.getSetCookie();
        if (cookies.length) out["set-cookie"] = cookies;
        res.writeHead(response.status, out).end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ port: address.port, cookie: fixture.signedInCookies })}\n`);
  });
}

async function start(target: Target): Promise<{ child: ChildProcess; port: number; cookie: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", target], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const { port, cookie } = JSON.parse(line.toString()) as { port: number; cookie: string };
  return { child, port, cookie };
}

async function load(port: number, cookie: string, seconds: number, connections: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/auth/session`,
    headers: { cookie },
    connections,
    duration: seconds,
  });
  if (result.non2xx || result.errors) throw new Error(`http bench: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSec: result.requests.average, p99Ms: result.latency.p99 };
}

export async function measureHttp(rounds = 3, seconds = 4, connections = 100): Promise<HttpResult> {
  const targets: Target[] = ["floor", "appauth", "authjs"];
  const servers = new Map<Target, Awaited<ReturnType<typeof start>>>();
  for (const target of targets) servers.set(target, await start(target));
  const runs = new Map<Target, { requestsPerSec: number; p99Ms: number }[]>(targets.map((t) => [t, []]));
  try {
    // A short warm-up each, then the rounds, the order turning each round.
    for (const target of targets) await load(servers.get(target)!.port, servers.get(target)!.cookie, 1, connections);
    for (let round = 0; round < rounds; round++) {
      const order = [...targets.slice(round % 3), ...targets.slice(0, round % 3)];
      for (const target of order) runs.get(target)!.push(await load(servers.get(target)!.port, servers.get(target)!.cookie, seconds, connections));
    }
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
  const figure = (target: Target): HttpFigure => {
    const own = runs.get(target)!;
    return { requestsPerSec: median(own.map((r) => r.requestsPerSec)), p99Ms: median(own.map((r) => r.p99Ms)), rounds: own.map((r) => r.requestsPerSec) };
  };
  return { connections, seconds, floor: figure("floor"), appauth: figure("appauth"), authjs: figure("authjs") };
}

export function describeHttp(r: HttpResult): string {
  const line = (name: string, f: HttpFigure) =>
    `  ${name.padEnd(10)} ${Math.round(f.requestsPerSec).toLocaleString("en-US").padStart(7)} req/s (rounds ${f.rounds.map((x) => Math.round(x)).join(", ")}), p99 ${f.p99Ms} ms`;
  return [
    `HTTP, GET /session over loopback, ${r.connections} connections, ${r.seconds} s rounds (autocannon; server in its own process):`,
    line("floor", r.floor),
    line("appauth", r.appauth),
    line("@auth/core", r.authjs),
    `  appauth / @auth/core: ${(r.appauth.requestsPerSec / r.authjs.requestsPerSec).toFixed(2)}x throughput, ` +
      `p99 ${(r.authjs.p99Ms / r.appauth.p99Ms).toFixed(2)}x (@auth/core's p99 / appauth's); appauth / floor: ${(r.appauth.requestsPerSec / r.floor.requestsPerSec).toFixed(2)}x (goal: at least 0.5)`,
  ].join("\n");
}

if (process.argv[2] === "--serve") {
  await serve(process.argv[3] as Target);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = (flag: string, fallback: number) => (process.argv.includes(flag) ? Number(process.argv[process.argv.indexOf(flag) + 1]) : fallback);
  console.log(describeHttp(await measureHttp(at("--rounds", 3), at("--seconds", 4))));
}
