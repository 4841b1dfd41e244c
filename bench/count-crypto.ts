/**
 * How many crypto operations each library makes per request, by method. In Node every
 * `crypto.subtle` operation that computes (sign, verify, encrypt, decrypt, digest, deriveBits) is a
 * job on the libuv thread pool, and so is `node:crypto`'s callback `hkdf` (which @auth/core's key
 * derivation uses): two thread hand-offs each. On a busy machine those hops are the part of a
 * request whose cost grows most with load. `importKey` of raw bytes runs inline.
 *
 * The database-session scenarios also count the adapter calls each library makes per request
 * (DESIGN.md §7: one read, and no write until `updateAge` has passed).
 *
 *   npx tsx bench/count-crypto.ts [--only session,db-memory,...]
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { createContenders, isolateFromEnvironment, type Contender } from "./contenders.js";
import { describeCounts, openDatabase } from "./database.js";
import { SCENARIOS, signInOnce, type Fixture, type Scenario, type ScenarioId } from "./scenarios.js";

const counts = new Map<string, number>();
let counting = false;

function countSubtleCalls(): void {
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of ["sign", "verify", "encrypt", "decrypt", "digest", "deriveBits", "deriveKey", "importKey", "exportKey"]) {
    const original = subtle[method]!.bind(crypto.subtle);
    subtle[method] = (...args: unknown[]) => {
      if (counting) counts.set(method, (counts.get(method) ?? 0) + 1);
      return original(...args);
    };
  }
}

/** `node:crypto.hkdf`, patched where ESM importers of the built-in see it too. */
function countNodeHkdf(): void {
  const nodeCrypto = createRequire(import.meta.url)("node:crypto") as Record<string, (...args: unknown[]) => unknown>;
  const original = nodeCrypto.hkdf!;
  nodeCrypto.hkdf = (...args: unknown[]) => {
    if (counting) counts.set("node:crypto.hkdf", (counts.get("node:crypto.hkdf") ?? 0) + 1);
    return original(...args);
  };
  syncBuiltinESMExports();
}

const REQUESTS = 100;

/** Crypto operations per request of one library on one scenario, after a warm-up. */
async function countPerRequest(contender: Contender, scenario: Scenario, fixture: Fixture): Promise<string> {
  // Warm caches first, so a one-off key derivation is not counted as a per-request cost.
  for (let i = 0; i < 10; i++) await contender.handle(scenario.request(fixture));
  counts.clear();
  counting = true;
  for (let i = 0; i < REQUESTS; i++) await contender.handle(scenario.request(fixture));
  counting = false;
  return [...counts].map(([method, n]) => `${method} ${n / REQUESTS}`).join(", ") || "none";
}

async function main(): Promise<void> {
  isolateFromEnvironment();
  countSubtleCalls();
  countNodeHkdf();
  const at = process.argv.indexOf("--only");
  const ids = at >= 0 ? ((process.argv[at + 1] ?? "").split(",") as ScenarioId[]) : (Object.keys(SCENARIOS) as ScenarioId[]);
  const line = (contender: Contender, scenario: Scenario, text: string) =>
    console.log(`${contender.label.padEnd(11)} ${scenario.title.padEnd(40)} ${text}`);

  const contenders = createContenders();
  const fixtures = new Map<Contender, Fixture>();
  for (const id of ids) {
    const scenario = SCENARIOS[id];
    if (!scenario) throw new Error(`unknown scenario ${id}`);
    if (!scenario.database) {
      for (const contender of contenders) {
        if (!fixtures.has(contender)) fixtures.set(contender, await signInOnce(contender));
        line(contender, scenario, await countPerRequest(contender, scenario, fixtures.get(contender)!));
      }
      continue;
    }
    const setup = await openDatabase(scenario.database, { countCalls: true });
    if ("skipped" in setup) {
      console.log(`${scenario.title}: skipped, ${setup.skipped}`);
      continue;
    }
    try {
      for (const i of [0, 1] as const) {
        const crypto = await countPerRequest(setup.contenders[i], scenario, setup.fixtures[i]);
        // The counters ran through the warm-up too: reset, then count exactly REQUESTS requests.
        setup.resetCounts();
        for (let n = 0; n < REQUESTS; n++) await setup.contenders[i].handle(scenario.request(setup.fixtures[i]));
        line(setup.contenders[i], scenario, `${crypto}; adapter calls per request: ${describeCounts(setup.calls()[i], REQUESTS)}`);
      }
    } finally {
      await setup.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
