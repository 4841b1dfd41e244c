/**
 * The diagrams in visualizations/ are generated from the machines and committed. This redraws them in
 * memory and fails while a committed file differs, is missing, or belongs to a machine that is gone.
 */
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { allMachines } from "../machines/index.js";
import { README_FILE, diagramMachineName, visualizationFiles } from "../src/visualize/index.js";

const directory = fileURLToPath(new URL("../visualizations/", import.meta.url));
const FIX = "run npm run visualize";

async function committed(name: string): Promise<string | undefined> {
  return readFile(`${directory}${name}`, "utf8").catch(() => undefined);
}

function expectCurrent(name: string, actual: string | undefined, expected: string): void {
  if (actual === undefined) expect.fail(`visualizations/${name} is missing: ${FIX}`);
  // A boolean, not toBe(): a diff of two SVGs helps nobody, the fix is the same whatever changed.
  expect(actual === expected, `visualizations/${name} differs from the machine definition: ${FIX}`).toBe(true);
}

describe("visualizations/", () => {
  let files: Map<string, string>;

  beforeAll(async () => {
    files = await visualizationFiles(allMachines);
  });

  for (const name of Object.keys(allMachines)) {
    it(`holds the current diagrams of ${name}`, async () => {
      for (const file of [`${name}.mmd`, `${name}.svg`]) {
        const expected = files.get(file);
        expect(expected).toBeDefined();
        expectCurrent(file, await committed(file), expected ?? "");
      }
    });
  }

  it("holds a README listing exactly the registered machines", async () => {
    expectCurrent(README_FILE, await committed(README_FILE), files.get(README_FILE) ?? "");
  });

  it("holds no diagram of a machine that is not in allMachines", async () => {
    const present = await readdir(directory).catch(() => [] as string[]);
    const orphans = present.filter((file) => {
      const machine = diagramMachineName(file);
      return machine !== undefined && !Object.hasOwn(allMachines, machine);
    });
    expect(orphans, `diagrams of machines that no longer exist: ${FIX}`).toEqual([]);
  });
});
