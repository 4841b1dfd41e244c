/**
 * Diagrams drawn from the machine definitions: Mermaid source and a standalone SVG. Development
 * tooling (it lays out with elkjs, a devDependency); `npm run visualize` is its command line.
 */
export { toMermaid } from "./mermaid.js";
export { toSvg } from "./svg.js";
export { visualizationFiles, diagramMachineName, DIAGRAM_EXTENSIONS, README_FILE } from "./files.js";
export { machineGraph } from "./model.js";
export type { VizMachine, VizState, VizTransition, VizStateKind, VizTransitionKind } from "./model.js";
