/**
 * Runs a machine from its start to its end without an actor system, for the flows nobody watches.
 *
 * `createActor` builds an actor, a system, a mailbox and a child actor per invoked effect, and each
 * microstep computes its exit and entry sets with fresh Sets and Maps. For a session read that is
 * most of the request's CPU and allocation (bench/ISSUE-19.md). The machines this runner accepts use
 * a small part of statecharts: flat states, eventless transitions, one invoked effect per state,
 * final states with output, and the actions `assign`, `emit` and `enqueueActions` (with
 * `enqueue.assign`/`enqueue.emit`) beside the application's own. For those, taking the machine's own
 * transitions one by one is exact and cheap, so the definition stays the one source of truth: the
 * same state nodes, guards, actions and effects, in the same order as xstate takes them.
 *
 * A machine outside that part (nested or parallel states, delays, an effect that is not a
 * `fromEffect` or a machine the runner accepts) is refused once, at `directPlan`, and runs on
 * xstate's actor as before; so does every flow while an inspector watches (`config.inspect` sees
 * real XState inspection events) and every flow that rests between two requests.
 */
import { assign, emit, type AnyActorRef, type AnyStateMachine } from "xstate";
import { effectRunOf } from "./effect.js";

type Dict = Record<string, unknown>;
type EventObject = { type: string; [key: string]: unknown };

/** What the runner needs of xstate's state nodes and transitions (read, never changed). */
interface Transition {
  target?: readonly StateNode[];
  actions: readonly unknown[];
  guard?: unknown;
  reenter?: boolean;
}
interface Invocation {
  id: string;
  src: unknown;
  input?: unknown;
}
interface StateNode {
  key: string;
  id: string;
  type: string;
  states: Record<string, StateNode>;
  entry: readonly unknown[];
  exit: readonly unknown[];
  always?: readonly Transition[];
  invoke: readonly Invocation[];
  after: readonly unknown[];
  transitions: Map<string, Transition[]>;
  output?: unknown;
  initial?: { target: readonly StateNode[] };
}
interface Implementations {
  actors: Dict;
  actions: Dict;
  guards: Dict;
}
interface Machine {
  id: string;
  root: StateNode;
  implementations: Implementations;
  config: { context?: unknown; output?: unknown };
}

/** What a run of the direct runner shares with the run it belongs to (and its child machines). */
export interface DirectRun {
  /** Stands in for the actor system: the key `requestOf` and `finishBeforeAnswering` use. */
  system: AnyActorRef["system"];
  /** Receives what the root machine emits, in order (a child's `emit` reaches nobody, as in xstate). */
  emitted: (event: EventObject) => void;
}

export interface DirectResult {
  output: unknown;
  /** The final state the machine ended in. */
  value: string;
  /** The context it ended with. */
  context: Record<string, unknown>;
}

/** Why a machine runs on xstate's actor instead, or null when the runner accepts it. */
const verdicts = new WeakMap<object, string | null>();

const ASSIGN = "xstate.assign";
const EMIT = "xstate.emit";
const ENQUEUE = "xstate.enqueueActions";

/**
 * Whether the runner accepts `machine` (null) or why not (a sentence). Decided once per machine
 * object: a provided machine (`machine.provide`) is a new object and is judged with its effects.
 */
export function directRefusal(machine: AnyStateMachine): string | null {
  const known = verdicts.get(machine);
  if (known !== undefined) return known;
  verdicts.set(machine, null); // a machine that invokes itself is judged by the rest of it
  const verdict = judge(machine as unknown as Machine);
  verdicts.set(machine, verdict);
  return verdict;
}

function judge(machine: Machine): string | null {
  const { root, implementations } = machine;
  if (root.type !== "compound") return "its root is not a compound state";
  if (root.entry.length || root.exit.length || root.invoke.length || root.transitions.size || root.always?.length) {
    return "its root has actions, effects or transitions of its own";
  }
  for (const node of Object.values(root.states)) {
    if (node.type !== "atomic" && node.type !== "final") return `state ${node.key} is ${node.type}`;
    if (node.after.length) return `state ${node.key} has delayed transitions`;
    if (node.invoke.length > 1) return `state ${node.key} invokes more than one effect`;
    if (node.invoke.length && node.always?.length) return `state ${node.key} both invokes and has eventless transitions`;
    const transitions = [...(node.always ?? []), ...[...node.transitions.values()].flat()];
    for (const t of transitions) {
      if (t.target?.length !== 1 || t.target[0]!.id === root.id) return `a transition of ${node.key} has no single state target`;
      if (t.guard !== undefined && !guardKnown(t.guard, implementations)) return `a guard of ${node.key} is not a plain guard`;
      for (const action of t.actions) if (!actionKnown(action, implementations)) return `an action of ${node.key} is not supported`;
    }
    for (const action of [...node.entry, ...node.exit]) if (!actionKnown(action, implementations)) return `an action of ${node.key} is not supported`;
    for (const invocation of node.invoke) {
      const logic = logicOf(invocation.src, implementations);
      if (effectRunOf(logic)) continue;
      if (isMachine(logic)) {
        const childVerdict = directRefusal(logic as AnyStateMachine);
        if (childVerdict) return `its effect ${String(invocation.src)}: ${childVerdict}`;
        continue;
      }
      return `its effect ${String(invocation.src)} is not a fromEffect`;
    }
  }
  return null;
}

function isMachine(logic: unknown): logic is Machine {
  return typeof logic === "object" && logic !== null && "root" in logic && "implementations" in logic;
}

function logicOf(src: unknown, implementations: Implementations): unknown {
  return typeof src === "string" ? implementations.actors[src] : src;
}

function implementationOf(action: unknown, implementations: Implementations): unknown {
  if (typeof action === "string") return implementations.actions[action];
  if (typeof action === "object" && action !== null && "type" in action) {
    const { type } = action as { type: unknown };
    return typeof type === "string" ? implementations.actions[type] : type;
  }
  return action;
}

function actionKnown(action: unknown, implementations: Implementations): boolean {
  const impl = implementationOf(action, implementations);
  if (typeof impl !== "function") return false;
  const type = (impl as { type?: unknown }).type;
  // xstate's other built-in actions (raise, sendTo, spawn, stop, log, cancel) need an actor system.
  return typeof type !== "string" || !type.startsWith("xstate.") || type === ASSIGN || type === EMIT || type === ENQUEUE;
}

function guardKnown(guard: unknown, implementations: Implementations): boolean {
  const impl = guardImplementation(guard, implementations);
  // Built-in guards (and, or, not, stateIn) carry a `check` of their own that reads a snapshot.
  return typeof impl === "function" && !("check" in impl);
}

function guardImplementation(guard: unknown, implementations: Implementations): unknown {
  if (typeof guard === "string") return implementations.guards[guard];
  if (typeof guard === "object" && guard !== null && "type" in guard) return implementations.guards[(guard as { type: string }).type];
  return guard;
}

function paramsOf(reference: unknown, args: { context: Dict; event: EventObject }): unknown {
  if (typeof reference !== "object" || reference === null || !("params" in reference)) return undefined;
  const { params } = reference as { params: unknown };
  return typeof params === "function" ? (params as (a: unknown) => unknown)(args) : params;
}

/** An action's implementation: the application's function, or one of xstate's built-ins with its parts. */
type ActionImpl = ((args: unknown, params: unknown) => unknown) & {
  type?: string;
  assignment?: unknown;
  event?: unknown;
  collect?: (args: unknown, params: unknown) => void;
};

/** One run: the context as it changes, and where emitted events go. */
class Step {
  /** What actions, inputs and outputs see as `self`: the run's system (for `requestOf`, `finishBeforeAnswering`) and the machine's id. */
  readonly self: AnyActorRef;

  constructor(
    readonly machine: Machine,
    readonly run: DirectRun,
    readonly emits: boolean,
    public context: Dict,
  ) {
    this.self = { system: run.system, id: machine.id } as unknown as AnyActorRef;
  }

  private args(event: EventObject) {
    return { context: this.context, event, self: this.self, system: this.run.system };
  }

  guard(guard: unknown, event: EventObject): boolean {
    const impl = guardImplementation(guard, this.machine.implementations) as (args: unknown, params: unknown) => unknown;
    const args = { context: this.context, event };
    return Boolean(impl(args, paramsOf(guard, args)));
  }

  /** Runs actions in order; each sees the context the ones before it left. */
  actions(list: readonly unknown[], event: EventObject): void {
    for (const action of list) {
      const impl = implementationOf(action, this.machine.implementations) as ActionImpl;
      this.execute(impl, paramsOf(action, { context: this.context, event }), event);
    }
  }

  private execute(impl: ActionImpl, params: unknown, event: EventObject): void {
    switch (impl.type) {
      case ASSIGN: {
        const args = { context: this.context, event, self: this.self, system: this.run.system, spawn: refuseSpawn };
        const { assignment } = impl;
        // A function's partial context goes straight into the new context (spreading nothing adds nothing, as in xstate).
        if (typeof assignment === "function") {
          this.context = { ...this.context, ...(assignment(args, params) as Dict | undefined) };
          return;
        }
        const partial: Dict = {};
        for (const [key, value] of Object.entries(assignment as Dict)) {
          partial[key] = typeof value === "function" ? (value as (a: unknown, p: unknown) => unknown)(args, params) : value;
        }
        this.context = { ...this.context, ...partial };
        return;
      }
      case EMIT: {
        const emitted = typeof impl.event === "function" ? (impl.event as (a: unknown, p: unknown) => EventObject)(this.args(event), params) : impl.event;
        if (this.emits) this.run.emitted(emitted as EventObject);
        return;
      }
      case ENQUEUE: {
        const queue: unknown[] = [];
        const enqueue = Object.assign((action: unknown) => void queue.push(action), {
          assign: (...a: Parameters<typeof assign>) => void queue.push(assign(...a)),
          emit: (...a: Parameters<typeof emit>) => void queue.push(emit(...a)),
        });
        const check = (guard: unknown) => this.guard(guard, event);
        impl.collect!({ ...this.args(event), enqueue, check }, params);
        for (const queued of queue) {
          if (!actionKnown(queued, this.machine.implementations)) throw new Error(`${this.machine.id}: an enqueued action needs an actor system`);
        }
        this.actions(queue, event);
        return;
      }
      default:
        impl(this.args(event), params);
    }
  }

  /** The first enabled transition of `candidates` for `event`. */
  select(candidates: readonly Transition[] | undefined, event: EventObject): Transition | undefined {
    if (!candidates) return undefined;
    for (const t of candidates) if (t.guard === undefined || this.guard(t.guard, event)) return t;
    return undefined;
  }
}

function refuseSpawn(): never {
  throw new Error("The direct runner cannot spawn actors.");
}

/**
 * Runs an accepted machine (`directRefusal` returned null) from its initial state with `input` to a
 * final state, and returns the machine's output and that state. An action or guard that throws, or an
 * effect's error no transition takes, rejects, as the actor would fail.
 */
export async function runDirect(machine: AnyStateMachine, input: unknown, run: DirectRun, emits = true): Promise<DirectResult> {
  const m = machine as unknown as Machine;
  const { root } = m;
  const step = new Step(m, run, emits, {});
  const { self } = step;
  const contextConfig = m.config.context;
  step.context =
    typeof contextConfig === "function"
      ? (contextConfig as (a: unknown) => Dict)({ input, self, spawn: refuseSpawn })
      : { ...((contextConfig as Dict | undefined) ?? {}) };

  let event: EventObject = { type: "xstate.init", input };
  let node = root.initial!.target[0]!;
  step.actions(node.entry, event);
  for (;;) {
    if (node.type === "final") {
      const args = { context: step.context, event, self };
      const stateOutput = typeof node.output === "function" ? (node.output as (a: unknown) => unknown)(args) : node.output;
      const done = { type: `xstate.done.state.${node.id}`, output: stateOutput };
      const machineOutput = m.config.output;
      const output =
        typeof machineOutput === "function"
          ? (machineOutput as (a: unknown) => unknown)({ context: step.context, event: done, self })
          : machineOutput;
      return { output, value: node.key, context: step.context };
    }
    let taken = step.select(node.always, event);
    if (!taken) {
      const invocation = node.invoke[0];
      if (!invocation) throw new Error(`${m.id} stopped in ${node.key}: nothing there moves it on without an event`);
      event = await invoke(step, invocation, event);
      taken = step.select(node.transitions.get(event.type), event);
      if (!taken) {
        if (event.type.startsWith("xstate.error.actor.")) throw event.error;
        throw new Error(`${m.id} stopped in ${node.key}: no transition takes ${event.type}`);
      }
    }
    step.actions(node.exit, event);
    step.actions(taken.actions, event);
    node = taken.target![0]!;
    step.actions(node.entry, event);
  }
}

async function invoke(step: Step, invocation: Invocation, cause: EventObject): Promise<EventObject> {
  const { machine, run, self } = step;
  const input =
    typeof invocation.input === "function"
      ? (invocation.input as (a: unknown) => unknown)({ context: step.context, event: cause, self })
      : invocation.input;
  const logic = logicOf(invocation.src, machine.implementations);
  try {
    const effect = effectRunOf(logic);
    const output = effect ? await effect({ input, system: run.system }) : (await runDirect(logic as AnyStateMachine, input, run, false)).output;
    return { type: `xstate.done.actor.${invocation.id}`, output, actorId: invocation.id };
  } catch (error) {
    return { type: `xstate.error.actor.${invocation.id}`, error, actorId: invocation.id };
  }
}
