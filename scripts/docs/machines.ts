/**
 * A page per machine: the diagram `npm run visualize` drew (visualizations/<name>.svg, copied into
 * the site), the opening comment of the machine's file, and its states and events read from the
 * definition itself.
 */
import { readFile, readdir } from "node:fs/promises";
import type { AnyStateMachine } from "xstate";
import { allMachines } from "../../machines/index.js";
import { escapeHtml, leadingComment, renderMarkdown } from "./markdown.js";
import type { Page } from "./layout.js";

export interface MachineSite {
  pages: Page[];
  /** Files to copy into the site: site path → absolute source path. */
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
    return `<code>${escapeHtml(key)}</code>${final}`;
  });
  return states.join(", ");
}

function eventList(machine: AnyStateMachine): string {
  // Internal and actor-completion events (xstate.done.actor...) are drawn on the diagram, not listed here.
  const events = [...new Set(machine.events)].filter((type) => !type.startsWith("xstate.") && type !== "");
  return events.length ? events.map((type) => `<code>${escapeHtml(type)}</code>`).join(", ") : "none: it runs from its input to its output";
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
      path: `machines/${name}.html`,
      title: name,
      section: "machines",
      inNav: true,
      body: [
        `<h1>${escapeHtml(name)}</h1>`,
        renderMarkdown(text).html,
        `<p><strong>States:</strong> ${stateList(machine)}.<br><strong>Events it waits for:</strong> ${eventList(machine)}.</p>`,
        `<p><a href="${escapeHtml(name)}.svg"><img class="diagram" src="${escapeHtml(name)}.svg" alt="The ${escapeHtml(name)} state machine"></a></p>`,
        `<p>Drawn from the definition by <code>npm run visualize</code>; the Mermaid source is <code>visualizations/${escapeHtml(name)}.mmd</code>.
          How to read the diagrams: <a href="index.html#reading-the-diagrams">Flow diagrams</a>.</p>`,
      ].join("\n"),
    });
  }
  const rows = pages.map((page) => `<li><a href="${page.path.slice("machines/".length)}">${escapeHtml(page.title)}</a></li>`);
  pages.unshift({
    path: "machines/index.html",
    title: "Flow diagrams",
    section: "machines",
    inNav: true,
    order: 0,
    body: [
      `<h1>Flow diagrams</h1>`,
      `<p>Every flow of appauth is an XState v5 machine in <code>machines/</code>, pure (no I/O, clock or randomness).
        The library binds each one to its effects once per configuration; <code>appauth/machines</code> exports the
        definitions for custom servers. These diagrams are drawn from the definitions, never by hand.</p>`,
      `<ul>${rows.join("")}</ul>`,
      `<h2 id="reading-the-diagrams">Reading the diagrams</h2>`,
      `<p>A transition is labelled <code>event [guard] / actions</code>; <code>done: x</code> and <code>error: x</code> (red)
        are the outcomes of the invoked actor <code>x</code>; a dashed transition labelled <code>[guard]</code> or
        <code>always</code> is taken as soon as it can be; dotted ones are delays. A dot marks the initial state, a double
        border a final state, and lines inside a state list what it invokes. See also
        <a href="../concepts/machines.html">Machines</a>.</p>`,
    ].join("\n"),
  });
  return { pages, assets };
}
