/**
 * Where a JWT session read allocates: V8's sampling heap profiler over many reads by one library,
 * summarised by function (self bytes) and by file. Keeps the raw profile with `--save`
 * (bench/.profile-alloc-<library>.heapprofile, for Chrome DevTools).
 *
 *   npx tsx bench/profile-allocation.ts [--library appauth|authjs] [--ops 5000] [--save]
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { createContenders, isolateFromEnvironment } from "./contenders.js";
import { SCENARIOS, signInOnce } from "./scenarios.js";

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const option = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const library = option("--library") ?? "appauth";
const ops = Number(option("--ops") ?? 5000);

isolateFromEnvironment();
const contender = createContenders().find((c) => c.id === library)!;
const fixture = await signInOnce(contender);
for (let i = 0; i < 500; i++) await contender.handle(SCENARIOS.session.request(fixture));

const session = new Session();
session.connect();
await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < ops; i++) await contender.handle(SCENARIOS.session.request(fixture));
const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: Node } };
session.disconnect();

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
const walk = (node: Node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, "").replace(/^file:\/\/\/work\/[^/]+\//, "") || "(native)";
  const key = `${functionName || "(anonymous)"}  ${file}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
  total += node.selfSize;
  node.children.forEach(walk);
};
walk(profile.head);
const per = (bytes: number) => `${(bytes / ops).toFixed(0).padStart(7)} B/read`;
console.log(`${library}: ~${(total / ops / 1024).toFixed(1)} KiB sampled per read (the request built by the bench included)\n\nby file:`);
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${per(v)}  ${k}`);
console.log("\nby function:");
for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${per(v)}  ${k}`);
if (process.argv.includes("--save")) await writeFile(new URL(`./.profile-alloc-${library}.heapprofile`, import.meta.url), JSON.stringify(profile));
