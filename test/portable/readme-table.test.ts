/**
 * The README's runtime table is the last recorded run of the portable suite (test/portable/results.json,
 * written by `npm run runtimes:table` from a run), and that run covered every runtime of runtimes.json
 * at the version CI installs, with every flow passing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { END, RESULTS_FILE, START, renderRuntimeTable, type PortableResults } from "../../scripts/runtime-table.js";
import { FLOWS } from "./flows.js";
import { ROOT, runtimeSpecs } from "./harness.js";

const results = JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as PortableResults;

describe("the README's runtime table", () => {
  it("is the recorded results, rendered", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END));
    expect(section.trim()).toBe(renderRuntimeTable(results));
  });

  it("records a run of every runtime CI installs, at the version it installs, every flow passing", () => {
    const specs = runtimeSpecs();
    expect(Object.keys(results.runtimes)).toEqual(Object.keys(specs));
    expect(results.skipped).toEqual([]);
    for (const [id, spec] of Object.entries(specs)) {
      const recorded = results.runtimes[id]!;
      expect(recorded.label).toBe(spec.label);
      if (spec.version) expect([id, recorded.version]).toEqual([id, spec.version]);
      else expect([id, recorded.version]).toEqual([id, expect.stringMatching(/^20\./)]);
      expect([id, FLOWS.filter((flow) => recorded.flows[flow] !== "passed")]).toEqual([id, []]);
    }
  });
});
