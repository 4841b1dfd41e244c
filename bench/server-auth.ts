/**
 * Server-side `auth()` (issue 19): what a server component pays to read the session, appauth's
 * `auth()` of `appauth/next` against next-auth's `auth()` (v5, on @auth/core), in one process and
 * interleaved rounds, both configured as bench/contenders.ts configures the core libraries.
 *
 * Neither runs outside Next as is: both call `next/headers`. Here that module is, for both, the
 * minimal request scope of the Next integration tests (test/integrations/next/next-request-scope.ts,
 * swapped in by loader hooks, bench/server-auth/hooks.mjs): `headers()` gives the request's headers
 * (host, `x-forwarded-proto`, referer, cookie) and `cookies()` a store over its cookies that refuses
 * writes, as Next does in a server component. Everything else of Next is its own. One fresh scope per
 * call, built before the clock starts, as Next makes one per request. Each call's session is checked.
 */
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { parseCookies } from "../src/cookies.js";
import { appauthConfig, authjsConfig, BENCH_USER, createContenders, isolateFromEnvironment } from "./contenders.js";
import { median } from "./measure.js";
import { signInOnce } from "./scenarios.js";
import type * as Scope from "../test/integrations/next/next-request-scope.js";

type Read = () => Promise<{ user?: { email?: string | null } } | null>;

interface Side {
  label: string;
  auth: Read;
  cookies: Record<string, string>;
}

export interface ServerAuthResult {
  rounds: number;
  callsPerRound: number;
  /** Median over the rounds of each library's calls per second and CPU µs per call. */
  appauth: { opsPerSec: number; cpuMicros: number };
  nextAuth: { opsPerSec: number; cpuMicros: number };
  /** appauth's throughput over next-auth's, and next-auth's CPU per call over appauth's (>1 = appauth faster). */
  ratio: number;
  pairedRatio: number;
  cpuRatio: number;
}

/** Loads both integrations with `next/headers` replaced by the request scope. */
async function sides(): Promise<{ sides: [Side, Side]; scope: typeof Scope }> {
  register(new URL("./server-auth/hooks.mjs", import.meta.url));
  const scope = await import("../test/integrations/next/next-request-scope.js");
  const { default: AppAuth } = await import("../integrations/next/index.js");
  // Untyped on purpose: next-auth's types bring Next's global ones, which change `process.env`'s type everywhere.
  const nextAuth: string = "next-auth";
  const { default: NextAuth } = (await import(nextAuth)) as { default: (config: unknown) => { auth: unknown } };
  const [core, authjs] = createContenders();
  // A session cookie from each core library's own sign-in: the Next integrations read them alike.
  const jar = async (contender: typeof core) => Object.fromEntries(parseCookies((await signInOnce(contender)).signedInCookies));
  return {
    scope,
    sides: [
      { label: "appauth", auth: AppAuth(appauthConfig()).auth as Read, cookies: await jar(core) },
      { label: "next-auth", auth: NextAuth(authjsConfig()).auth as Read, cookies: await jar(authjs) },
    ],
  };
}

export async function measureServerAuth(options: { rounds?: number; roundMs?: number } = {}): Promise<ServerAuthResult> {
  const rounds = options.rounds ?? 10;
  const { sides: both, scope } = await sides();
  const call = async (side: Side, count: number): Promise<{ opsPerSec: number; cpuMicros: number }> => {
    const scopes = Array.from({ length: count }, () => new scope.RequestScope({ url: "http://localhost:3000/dashboard", cookies: side.cookies, canSetCookies: false }));
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const each of scopes) {
      const session = await scope.inRequest(each, side.auth);
      if (session?.user?.email !== BENCH_USER.email) throw new Error(`${side.label}'s auth() read ${JSON.stringify(session)}`);
    }
    const elapsed = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { opsPerSec: (count * 1000) / elapsed, cpuMicros: (used.user + used.system) / count };
  };
  for (const side of both) await call(side, 300);
  const probe = Math.max(...(await Promise.all(both.map((side) => call(side, 200)))).map((r) => r.opsPerSec));
  const callsPerRound = Math.max(200, Math.round((probe * (options.roundMs ?? 250)) / 1000));
  const runs: [Array<{ opsPerSec: number; cpuMicros: number }>, Array<{ opsPerSec: number; cpuMicros: number }>] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) runs[i as 0 | 1].push(await call(both[i]!, callsPerRound));
  }
  const summary = (own: typeof runs[0]) => ({ opsPerSec: median(own.map((r) => r.opsPerSec)), cpuMicros: median(own.map((r) => r.cpuMicros)) });
  const [appauth, nextAuth] = [summary(runs[0]), summary(runs[1])];
  return {
    rounds,
    callsPerRound,
    appauth,
    nextAuth,
    ratio: appauth.opsPerSec / nextAuth.opsPerSec,
    pairedRatio: median(runs[0].map((r, i) => r.opsPerSec / runs[1][i]!.opsPerSec)),
    cpuRatio: nextAuth.cpuMicros / appauth.cpuMicros,
  };
}

export function describeServerAuth(r: ServerAuthResult): string {
  const ops = (n: number) => Math.round(n).toLocaleString("en-US");
  return [
    `Server-side auth() in a server component, appauth/next vs next-auth (next/headers = the same minimal request scope; ${r.rounds} interleaved rounds of ${r.callsPerRound} calls; >1 = appauth faster):`,
    `  calls/s: appauth ${ops(r.appauth.opsPerSec)}, next-auth ${ops(r.nextAuth.opsPerSec)}: ${r.ratio.toFixed(2)}x (paired ${r.pairedRatio.toFixed(2)}x)`,
    `  CPU µs/call: appauth ${r.appauth.cpuMicros.toFixed(0)}, next-auth ${r.nextAuth.cpuMicros.toFixed(0)}: ${r.cpuRatio.toFixed(2)}x`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  isolateFromEnvironment();
  const rounds = Number(process.argv[2] ?? 10);
  console.log(describeServerAuth(await measureServerAuth({ rounds })));
}
