/**
 * `npm run visualize`: regenerates visualizations/ from `allMachines` — a Mermaid source and an SVG
 * per machine, and the README listing them — and deletes the diagrams of machines that are gone.
 */
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { allMachines } from "../machines/index.js";
import { diagramMachineName, visualizationFiles } from "../src/visualize/index.js";

const directory = fileURLToPath(new URL("../visualizations/", import.meta.url));

const started = performance.now();
const files = await visualizationFiles(allMachines);
await mkdir(directory, { recursive: true });

for (const [name, contents] of files) {
  const previous = await readFile(`${directory}${name}`, "utf8").catch(() => undefined);
  if (previous === contents) {
    console.log(`unchanged  visualizations/${name}`);
  } else {
    await writeFile(`${directory}${name}`, contents);
    console.log(`${previous === undefined ? "wrote    " : "updated  "}  visualizations/${name}`);
  }
}

for (const name of (await readdir(directory)).sort()) {
  if (diagramMachineName(name) !== undefined && !files.has(name)) {
    await rm(`${directory}${name}`);
    console.log(`removed    visualizations/${name} (no such machine in allMachines)`);
  }
}

const machineCount = Object.keys(allMachines).length;
console.log(`${machineCount} machine(s) drawn in ${Math.round(performance.now() - started)} ms`);
