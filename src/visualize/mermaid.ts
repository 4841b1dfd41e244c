/**
 * A machine as a Mermaid `stateDiagram-v2`, for documents that render Mermaid (GitHub, GitLab, IDEs).
 * Names are written as Mermaid entity codes wherever the grammar would read them as syntax (`:` ends
 * a label, `;` ends a statement, `#` and `%%` start comments), so any state or event name survives.
 */
import type { AnyStateMachine } from "xstate";
import { descendants, machineGraph, transitionLabel } from "./model.js";
import type { VizMachine, VizState, VizTransition } from "./model.js";

/** The machine's definition as Mermaid `stateDiagram-v2` source, ending with a newline. */
export function toMermaid(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const writer = new MermaidWriter(graph);
  return writer.write();
}

/** A scope is a composite state whose braces hold statements, or `null` for the diagram's top level. */
type Scope = VizState | null;

class MermaidWriter {
  private readonly lines: string[] = [];
  private readonly ids = new Map<string, string>();
  private readonly parents = new Map<string, VizState>();
  private readonly edgesByScope = new Map<Scope, VizTransition[]>();

  constructor(private readonly graph: VizMachine) {
    const all = [graph.root, ...descendants(graph.root)];
    const nameCounts = new Map<string, number>();
    for (const state of all) nameCounts.set(state.name, (nameCounts.get(state.name) ?? 0) + 1);
    const taken = new Set<string>();
    for (const state of all) {
      for (const child of state.children) this.parents.set(child.id, state);
      // A name used once is its own id; a name several states share is qualified by its path.
      const qualified = (nameCounts.get(state.name) ?? 0) > 1;
      this.ids.set(state.id, uniqueId(mermaidId(state, { root: graph.root, qualified }), taken));
    }
    for (const transition of graph.transitions) {
      const scope = this.scopeOf(transition);
      const list = this.edgesByScope.get(scope) ?? [];
      list.push(transition);
      this.edgesByScope.set(scope, list);
    }
  }

  write(): string {
    const { graph } = this;
    this.lines.push("---", `title: ${JSON.stringify(graph.id)}`, "---", "stateDiagram-v2");
    this.lines.push("  %% Generated from the machine definition by `npm run visualize`. Do not edit.");
    if (graph.rootIsState) {
      this.line(1, `[*] --> ${this.id(graph.root)}`);
      this.writeState(graph.root, 1);
      this.writeEdges(null, 1);
      if (graph.root.kind === "final") this.line(1, `${this.id(graph.root)} --> [*]`);
    } else {
      this.writeScope(graph.root, 1);
    }
    return `${this.lines.join("\n")}\n`;
  }

  /** The statements inside a composite state: initial arrow, child states, edges, final arrows. */
  private writeScope(state: VizState, depth: number): void {
    if (state.kind === "parallel") {
      // Each region of a parallel state is its own concurrent section, divided by `--`.
      state.children.forEach((region, index) => {
        if (index > 0) this.line(depth, "--");
        this.writeState(region, depth);
      });
    } else {
      const initial = state.children.find((child) => child.id === state.initial);
      if (initial !== undefined) this.line(depth, `[*] --> ${this.id(initial)}`);
      for (const child of state.children) this.writeState(child, depth);
    }
    this.writeEdges(state, depth);
    for (const child of state.children) {
      if (child.kind === "final") this.line(depth, `${this.id(child)} --> [*]`);
    }
  }

  private writeState(state: VizState, depth: number): void {
    const id = this.id(state);
    const declaration = state.name === id ? `state ${id}` : `state "${escapeText(state.name)}" as ${id}`;
    const details = [...state.invokes.map((name) => `invoke ${name}`), ...state.activities];
    if (state.children.length > 0) {
      this.line(depth, `${declaration} {`);
      this.writeScope(state, depth + 1);
      this.line(depth, "}");
      if (details.length > 0) {
        this.line(depth, `note right of ${id}`);
        for (const detail of details) this.line(depth + 1, escapeText(detail));
        this.line(depth, "end note");
      }
      return;
    }
    this.line(depth, state.name === id ? id : declaration);
    for (const detail of details) this.line(depth, `${id} : ${escapeText(detail)}`);
  }

  private writeEdges(scope: Scope, depth: number): void {
    for (const transition of this.edgesByScope.get(scope) ?? []) {
      const label = transitionLabel(transition);
      const arrow = `${this.idOf(transition.source)} --> ${this.idOf(transition.target)}`;
      this.line(depth, label === "" ? arrow : `${arrow} : ${escapeText(label)}`);
    }
  }

  /**
   * The innermost composite state that contains both ends, where Mermaid expects the edge. Parallel
   * states do not qualify: their braces hold only concurrent regions.
   */
  private scopeOf(transition: VizTransition): Scope {
    const sourceAncestors = this.ancestors(transition.source);
    const targetAncestors = new Set(this.ancestors(transition.target));
    for (const candidate of sourceAncestors) {
      if (targetAncestors.has(candidate) && candidate.kind !== "parallel") {
        return candidate === this.graph.root && this.graph.rootIsState ? null : candidate;
      }
    }
    return null;
  }

  /** Strict ancestors, innermost first. */
  private ancestors(stateId: string): VizState[] {
    const result: VizState[] = [];
    for (let parent = this.parents.get(stateId); parent !== undefined; parent = this.parents.get(parent.id)) {
      result.push(parent);
    }
    return result;
  }

  private id(state: VizState): string {
    return this.idOf(state.id);
  }

  private idOf(stateId: string): string {
    const id = this.ids.get(stateId);
    if (id === undefined) throw new Error(`unknown state ${stateId}`);
    return id;
  }

  private line(depth: number, text: string): void {
    this.lines.push(`${"  ".repeat(depth)}${text}`);
  }
}

/** Words the Mermaid lexer reads as keywords at the start of a statement, whatever follows. */
const KEYWORD_PREFIX = /^(default|state|note|class|scale|hide|acc|direction|end)/i;

/** A Mermaid identifier for a state: its name (or path below the root), anything but `\w` as `_`. */
function mermaidId(state: VizState, options: { root: VizState; qualified: boolean }): string {
  const { root, qualified } = options;
  let text = state.name;
  if (qualified && state !== root) {
    text = state.id.startsWith(`${root.id}.`) ? state.id.slice(root.id.length + 1) : state.id;
  }
  let id = text.replace(/\W+/g, "_").replace(/^_+|_+$/g, "");
  if (id === "" || /^\d/.test(id) || KEYWORD_PREFIX.test(id)) id = `s_${id}`;
  return id;
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

const ENTITIES: Record<string, string> = {
  "#": "#35;",
  ";": "#59;",
  ":": "#58;",
  '"': "#quot;",
  "<": "#lt;",
  ">": "#gt;",
  "&": "#amp;",
  "%": "#37;",
  "{": "#123;",
  "}": "#125;",
};

/** Text as Mermaid shows it verbatim: syntax characters as entity codes, one line. */
function escapeText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[#;:"<>&%{}]/g, (char) => ENTITIES[char] ?? char)
    .replace(/\b(direction)(\s+(?:TB|BT|LR|RL))/gi, (_, word: string, rest: string) => `#${word.charCodeAt(0)};${word.slice(1)}${rest}`)
    .replace(/\bend note\b/gi, (match) => `#${match.charCodeAt(0)};${match.slice(1)}`);
}
