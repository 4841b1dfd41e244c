/**
 * How many crypto operations each library makes per request, by method. In Node every
 * `crypto.subtle` operation that computes (sign, verify, encrypt, decrypt, digest, deriveBits) is a
 * job on the libuv thread pool, and so is `node:crypto`'s callback `hkdf` (which @auth/core's key
 * derivation uses): two thread hand-offs each. On a busy machine those hops are the part of a
 * request whose cost grows most with load. `importKey` of raw bytes runs inline.
 *
 *   npx tsx bench/count-crypto.ts
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { createContenders, isolateFromEnvironment } from "./contenders.js";
import { SCENARIOS, signInOnce, type ScenarioId } from "./scenarios.js";

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

async function main(): Promise<void> {
  isolateFromEnvironment();
  countSubtleCalls();
  countNodeHkdf();
  const requests = 100;
  for (const contender of createContenders()) {
    const fixture = await signInOnce(contender);
    for (const id of Object.keys(SCENARIOS) as ScenarioId[]) {
      const scenario = SCENARIOS[id];
      // Warm caches first, so a one-off key derivation is not counted as a per-request cost.
      for (let i = 0; i < 10; i++) await contender.handle(scenario.request(fixture));
      counts.clear();
      counting = true;
      for (let i = 0; i < requests; i++) await contender.handle(scenario.request(fixture));
      counting = false;
      const perRequest = [...counts].map(([method, n]) => `${method} ${n / requests}`).join(", ") || "none";
      console.log(`${contender.label.padEnd(11)} ${scenario.title.padEnd(28)} ${perRequest}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
