/**
 * The machine's definition read into a plain graph both renderers draw: states (nested as in the
 * machine), and one edge per transition target, each labelled the way the machine names things.
 * Everything is read from `machine.root`; nothing runs. Order follows the definition, so the output
 * of a given machine never changes.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from "xstate";
import { describeActions, describeDelay, describeGuard } from "./describe.js";

export type VizStateKind = "atomic" | "compound" | "parallel" | "final" | "history";

export interface VizState {
  /** The xstate state id (`machine.child.grandchild` unless the definition sets one): unique. */
  readonly id: string;
  /** The state's key, as written in the definition. */
  readonly name: string;
  readonly kind: VizStateKind;
  readonly children: readonly VizState[];
  /** Id of the child entered first (compound states only). */
  readonly initial: string | undefined;
  /** The actors this state invokes, by name. */
  readonly invokes: readonly string[];
  /** Lines shown inside the state: `entry / a, b`, `exit / c`, and transitions that stay (`event / a`). */
  readonly activities: readonly string[];
}

export type VizTransitionKind = "event" | "always" | "after" | "done" | "error";

export interface VizTransition {
  readonly source: string;
  readonly target: string;
  readonly kind: VizTransitionKind;
  /** `submit`, `done: authorize`, `error: authorize`, `after 15s`, `done` (a state's onDone); `""` for always. */
  readonly event: string;
  /**
   * The event type as XState names it at run time (`submit`, `xstate.done.actor.0.signIn.authorizing`,
   * `""` for always): what an inspected run's transitions carry, so a run can be matched to the edge.
   */
  readonly eventType: string;
  readonly guard: string | undefined;
  readonly actions: readonly string[];
}

export interface VizMachine {
  readonly id: string;
  readonly root: VizState;
  /**
   * Whether the root must be drawn as a state of its own: it has transitions, invokes or entry/exit
   * actions, or is parallel. Otherwise its children are drawn at the top level.
   */
  readonly rootIsState: boolean;
  readonly transitions: readonly VizTransition[];
}

/** Reads a machine's definition into the graph the renderers draw. */
export function machineGraph(machine: AnyStateMachine): VizMachine {
  const invokeNames = new Map<string, string>();
  collectInvokeNames(machine.root, invokeNames);
  const transitions: VizTransition[] = [];
  const root = readState(machine.root, { invokeNames, transitions });
  const rootHasOwnEdges = transitions.some((t) => t.source === root.id);
  const rootIsState =
    root.kind !== "compound" || rootHasOwnEdges || root.invokes.length > 0 || root.activities.length > 0;
  return { id: machine.id, root, rootIsState, transitions };
}

/** The label of a transition on one line: `event [guard] / action1, action2`. */
export function transitionLabel(transition: VizTransition): string {
  return transitionLabelParts(transition).join(" ");
}

/** The label in its parts (event, `[guard]`, `/ actions`), empty parts left out. */
export function transitionLabelParts(transition: VizTransition): string[] {
  const parts: string[] = [];
  if (transition.event !== "") parts.push(transition.event);
  // An eventless transition reads as its guard; without one, it says `always`.
  else if (transition.kind === "always" && transition.guard === undefined) parts.push("always");
  if (transition.guard !== undefined) parts.push(`[${transition.guard}]`);
  if (transition.actions.length > 0) parts.push(`/ ${transition.actions.join(", ")}`);
  return parts;
}

/** Every state below `state` (not `state` itself), parents before children, in definition order. */
export function descendants(state: VizState): VizState[] {
  return state.children.flatMap((child) => [child, ...descendants(child)]);
}

interface ReadContext {
  readonly invokeNames: Map<string, string>;
  readonly transitions: VizTransition[];
}

function readState(node: AnyStateNode, context: ReadContext): VizState {
  const activities: string[] = [];
  if (node.type === "history") activities.push(`${node.history === "deep" ? "deep" : "shallow"} history`);
  const entry = describeActions(node.entry);
  if (entry.length > 0) activities.push(`entry / ${entry.join(", ")}`);
  const exit = describeActions(node.exit);
  if (exit.length > 0) activities.push(`exit / ${exit.join(", ")}`);

  const delays = new Map<string, unknown>(node.after.map((t) => [t.eventType, t.delay]));
  for (const [eventType, definitions] of node.transitions) {
    const { kind, event } = describeEvent(eventType, delays, context.invokeNames);
    for (const definition of definitions) {
      addTransition(node, definition, { kind, event, eventType }, { context, activities });
    }
  }
  for (const definition of node.always ?? []) {
    addTransition(node, definition, { kind: "always", event: "", eventType: "" }, { context, activities });
  }

  const children = Object.values(node.states).map((child) => readState(child, context));
  const initial = node.type === "compound" ? node.initial.target[0]?.id : undefined;
  return {
    id: node.id,
    name: node.key,
    kind: node.type,
    children,
    initial,
    invokes: node.invoke.map((invoke) => context.invokeNames.get(invoke.id) ?? invoke.id),
    activities,
  };
}

interface TransitionSink {
  readonly context: ReadContext;
  readonly activities: string[];
}

function addTransition(
  node: AnyStateNode,
  definition: AnyTransitionDefinition,
  label: { kind: VizTransitionKind; event: string; eventType: string },
  sink: TransitionSink,
): void {
  const guard = definition.guard === undefined ? undefined : describeGuard(definition.guard);
  const actions = describeActions(definition.actions);
  const targets = definition.target ?? [];
  if (targets.length === 0) {
    // A transition without a target never leaves the state: it belongs inside it, like entry/exit.
    sink.activities.push(transitionLabel({ source: node.id, target: node.id, ...label, guard, actions }));
    return;
  }
  for (const target of targets) {
    sink.context.transitions.push({ source: node.id, target: target.id, ...label, guard, actions });
  }
}

function describeEvent(
  eventType: string,
  delays: ReadonlyMap<string, unknown>,
  invokeNames: ReadonlyMap<string, string>,
): { kind: VizTransitionKind; event: string } {
  if (delays.has(eventType)) return { kind: "after", event: `after ${describeDelay(delays.get(eventType))}` };
  for (const [prefix, kind, word] of [
    ["xstate.done.actor.", "done", "done"],
    ["xstate.error.actor.", "error", "error"],
    ["xstate.snapshot.", "event", "snapshot"],
  ] as const) {
    if (eventType.startsWith(prefix)) {
      const invokeId = eventType.slice(prefix.length);
      return { kind, event: `${word}: ${invokeNames.get(invokeId) ?? invokeId}` };
    }
  }
  if (eventType.startsWith("xstate.done.state.")) return { kind: "done", event: "done" };
  return { kind: "event", event: eventType };
}

/** Invoked actors by invoke id: the name given in `setup({ actors })`, else the invoke's own id. */
function collectInvokeNames(node: AnyStateNode, names: Map<string, string>): void {
  const configs: unknown[] = [node.config.invoke ?? []].flat();
  node.invoke.forEach((invoke, index) => {
    const config = configs[index] as { id?: unknown } | undefined;
    let name: string;
    if (typeof invoke.src === "string" && !invoke.src.startsWith("xstate.invoke.")) name = invoke.src;
    else if (typeof config?.id === "string") name = config.id;
    else name = "inline actor";
    names.set(invoke.id, name);
  });
  for (const child of Object.values(node.states)) collectInvokeNames(child, names);
}
