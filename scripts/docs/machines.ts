/**
 * A page per machine: the diagram `npm run visualize` drew (visualizations/<name>.svg, copied into
 * the site), the opening comment of the machine's file, and its states and events read from the
 * definition itself.
 */
import { readFile, readdir } from "node:fs/promises";
import type { AnyStateMachine } from "xstate";
import { allMachines } from "../../machines/index.js";
import { leadingComment, proseMarkdown } from "./markdown.js";
import type { Page } from "./pages.js";

export interface MachineSite {
  pages: Page[];
  /** Files to copy into the site's public folder: site path → absolute source path. */
  assets: Map<string, string>;
}

/** The file in machines/ whose definition has `id: "<id>"`, with its source. */
async function machineSources(root: string): Promise<Map<string, string>> {
  const byId = new Map<string, string>();
  for (const file of (await readdir(`${root}/machines`)).filter((f) => f.endsWith(".machine.ts"))) {
    const source = await readFile(`${root}/machines/${file}`, "utf8");
    const id = /^\s*id: "([^"]+)",$/m.exec(source)?.[1];
    if (id) byId.set(id, source);
  }
  return byId;
}

function stateList(machine: AnyStateMachine): string {
  const states = Object.entries(machine.root.states).map(([key, node]) => {
    const final = node.type === "final" ? " (final)" : "";
    return `\`${key}\`${final}`;
  });
  return states.join(", ");
}

function eventList(machine: AnyStateMachine): string {
  // Internal and actor-completion events (xstate.done.actor...) are drawn on the diagram, not listed here.
  const events = [...new Set(machine.events)].filter((type) => !type.startsWith("xstate.") && type !== "");
  return events.length ? events.map((type) => `\`${type}\``).join(", ") : "none: it runs from its input to its output";
}

export async function machinePages(root: string): Promise<MachineSite> {
  const sources = await machineSources(root);
  const assets = new Map<string, string>();
  const pages: Page[] = [];
  for (const [name, machine] of Object.entries(allMachines)) {
    const source = sources.get(machine.id);
    if (!source) throw new Error(`machines/: no file defines the machine "${machine.id}" (${name})`);
    assets.set(`machines/${name}.svg`, `${root}/visualizations/${name}.svg`);
    const { text } = leadingComment(source);
    pages.push({
      path: `machines/${name}.md`,
      title: name,
      section: "machines",
      inNav: true,
      body: [
        `# ${name}`,
        proseMarkdown(text),
        `**States:** ${stateList(machine)}.\\\n**Events it waits for:** ${eventList(machine)}.`,
        // The theme's diagram: fitted to the page, opened full size with zoom and pan.
        `<Diagram src="/machines/${name}.svg" alt="The ${name} state machine" />`,
        `Drawn from the definition by \`npm run visualize\`; the Mermaid source is \`visualizations/${name}.mmd\`.
How to read the diagrams: [Flow diagrams](index.md#reading-the-diagrams).`,
      ]
        .filter(Boolean)
        .join("\n\n"),
    });
  }
  const rows = pages.map((page) => `- [${page.title}](${page.path.slice("machines/".length)})`);
  pages.unshift({
    path: "machines/index.md",
    title: "Flow diagrams",
    section: "machines",
    inNav: true,
    order: 0,
    body: [
      `# Flow diagrams`,
      `Every flow of appauth is an XState v5 machine in \`machines/\`, pure (no I/O, clock or randomness).
The library binds each one to its effects once per configuration; \`appauth/machines\` exports the
definitions for custom servers. These diagrams are drawn from the definitions, never by hand.`,
      rows.join("\n"),
      `## Reading the diagrams`,
      `A transition is labelled \`event [guard] / actions\`; \`done: x\` and \`error: x\` (red)
are the outcomes of the invoked actor \`x\`; a dashed transition labelled \`[guard]\` or
\`always\` is taken as soon as it can be; dotted ones are delays. A dot marks the initial state, a double
border a final state, and lines inside a state list what it invokes. Select a diagram (or its
**Open full size** button) to see it full size: zoom with the buttons, the mouse wheel or a pinch, and drag to pan.
See also [Machines](../concepts/machines.md).`,
    ].join("\n\n"),
  });
  return { pages, assets };
}
