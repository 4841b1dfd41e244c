/**
 * Paths through a machine that is driven by the effects it invokes rather than by outside events.
 * Each effect's possible endings (an output, or an error) are listed as outcomes; `xstate/graph` walks
 * the machine's own definition, offering at each state the done/error events of the effect running
 * there, so where each outcome leads is decided by the machine, not by the test. A path is the
 * sequence of outcomes from the initial state to a final state, and `playBack` runs the real actor
 * with fakes that end each effect as the path says.
 */
import { expect } from "vitest";
import {
  fromPromise,
  getInitialMicrosteps,
  getMicrosteps,
  getStateNodes,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InputFrom,
} from "xstate";
import { getSimplePaths } from "xstate/graph";
import { runToEnd, transitionKey, type Ending } from "./run-actor.js";

/** How an effect ends. */
export type EffectEnding = { output: unknown } | { error: unknown };

export interface Outcome {
  /** Read in test names after the effect's name: "authorize returns a user". */
  label: string;
  /** The ending, given the input the machine invoked the effect with. */
  end: (input: never) => EffectEnding;
}

export function returns<I>(label: string, output: (input: I) => unknown): Outcome {
  return { label, end: (input: I) => ({ output: output(input) }) };
}

export function throws(label: string, error: unknown): Outcome {
  return { label, end: () => ({ error }) };
}

/** The outcomes of each effect, by its actor name in the machine's `setup({ actors })`. */
export type OutcomeTable = Record<string, readonly Outcome[]>;

export interface EffectStep {
  effect: string;
  outcome: Outcome;
  /** The input the machine gives the effect at this point of the path. */
  input: unknown;
  ending: EffectEnding;
}

export interface EffectPath<M extends AnyStateMachine> {
  /** "<input>: <effect> <outcome> › ... ⇒ <final state>" */
  name: string;
  input: InputFrom<M>;
  steps: EffectStep[];
  /** The final snapshot the model reaches: its value, and the output the machine computes there. */
  end: AnyMachineSnapshot;
  /** The id of the final state the path ends in. */
  finalState: string;
  /** Ids of every state the path passes through, transient ones included. */
  visited: Set<string>;
  /** The state value (as JSON) after each microstep after the first, as the runtime reports them. */
  trace: string[];
}

/** Every path from the initial state to a final state, for each named input. */
export function effectPaths<M extends AnyStateMachine>(
  machine: M,
  inputs: Record<string, InputFrom<M>>,
  outcomes: OutcomeTable,
): EffectPath<M>[] {
  const paths: EffectPath<M>[] = [];
  for (const [inputName, input] of Object.entries(inputs)) {
    const stepOf = new WeakMap<EventObject, EffectStep>();
    // Walked as any machine: the events offered are the xstate.done/error.actor.* ones, which a
    // machine's own event type does not list.
    const model: AnyStateMachine = machine;
    const generated = getSimplePaths(model, {
      input,
      events: (snapshot) => effectEndings(snapshot, outcomes, stepOf),
      // The traversal also offers every event type a state listens for bare ({ type } alone): only
      // the listed outcomes are real endings.
      filterEvents: (_, event) => stepOf.has(event),
      serializeEvent: (event) => `${event.type} ${stepOf.get(event)?.outcome.label}`,
      serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context }, readable),
    });
    for (const path of generated) {
      if (path.state.status !== "done") continue;
      const events = path.steps.slice(1).map((step) => step.event);
      const steps = events.map((event) => stepOf.get(event)!);
      // Microsteps show the transient states (eventless transitions) that macrosteps pass over.
      const microsteps = [
        ...getInitialMicrosteps(model, input),
        ...events.flatMap((event, i) => getMicrosteps(model, path.steps[i]!.state, event)),
      ].map(([snapshot]) => snapshot as AnyMachineSnapshot);
      const end = path.state as AnyMachineSnapshot;
      paths.push({
        name: `${inputName}: ${steps.map((s) => `${s.effect} ${s.outcome.label}`).join(" › ") || "no effect"} ⇒ ${String(end.value)}`,
        input,
        steps,
        end,
        finalState: activeStateNodes(machine, end).find((node) => node.type === "final")!.id,
        visited: new Set(microsteps.flatMap((snapshot) => activeStateNodes(machine, snapshot).map((node) => node.id))),
        trace: microsteps.slice(1).map((snapshot) => JSON.stringify(snapshot.value)),
      });
    }
  }
  return paths;
}

/** The done and error events that the effects running in `snapshot` may end with. */
function effectEndings(snapshot: AnyMachineSnapshot, outcomes: OutcomeTable, stepOf: WeakMap<EventObject, EffectStep>) {
  const events: EventObject[] = [];
  for (const [id, child] of Object.entries(snapshot.children as Record<string, AnyActorRef>)) {
    const effect = String(child.src);
    const listed = outcomes[effect];
    if (!listed?.length) throw new Error(`No outcomes are listed for the effect "${effect}".`);
    // Before it runs, an invoked promise actor's snapshot holds the input the machine computed for it.
    const input = (child.getSnapshot() as { input: unknown }).input;
    for (const outcome of listed) {
      const ending = outcome.end(input as never);
      const event =
        "error" in ending
          ? { type: `xstate.error.actor.${id}`, error: ending.error }
          : { type: `xstate.done.actor.${id}`, output: ending.output };
      stepOf.set(event, { effect, outcome, input, ending });
      events.push(event);
    }
  }
  return events;
}

/** State serialization for the traversal: errors by name and message, class instances by class. */
function readable(_key: string, value: unknown): unknown {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return `[${(value as object).constructor.name}]`;
  }
  return value;
}

function activeStateNodes(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return getStateNodes(machine.root, snapshot.value).filter((node) => node !== machine.root);
}

export interface PlayedPath<M extends AnyStateMachine> extends Ending<M> {
  /** Each effect the real actor invoked, with the input it gave it. */
  invoked: Array<{ effect: string; input: unknown }>;
  /** Scripted outcomes the actor never asked for. */
  unplayed: number;
}

/** Runs the real machine with fakes that end each effect as `path` says, in the order it says. */
export async function playBack<M extends AnyStateMachine>(machine: M, path: EffectPath<M>): Promise<PlayedPath<M>> {
  const script = [...path.steps];
  const invoked: PlayedPath<M>["invoked"] = [];
  const actors = Object.fromEntries(
    effectNames(machine).map((effect) => [
      effect,
      fromPromise(async ({ input }: { input: unknown }) => {
        invoked.push({ effect, input });
        const next = script.shift();
        if (next?.effect !== effect) throw new Error(`The path did not expect "${effect}" to run here.`);
        const ending = next.outcome.end(input as never);
        if ("error" in ending) throw ending.error;
        return ending.output;
      }),
    ]),
  );
  const ending = await runToEnd(machine.provide({ actors }) as M, path.input);
  return { ...ending, invoked, unplayed: script.length };
}

/** The real actor ends where the path predicts, with the predicted output, having run the predicted effects. */
export function expectPlayedAsPredicted<M extends AnyStateMachine>(path: EffectPath<M>, played: PlayedPath<M>): void {
  expect(played.value).toEqual(path.end.value);
  expect(played.output).toEqual(path.end.output);
  expect(played.invoked).toEqual(path.steps.map(({ effect, input }) => ({ effect, input })));
  expect(played.unplayed).toBe(0);
  expect(played.trace).toEqual(path.trace);
}

function descendants(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [child, ...descendants(child)]);
}

/** Ids of every state of the machine, read from its definition. */
export function stateIds(machine: AnyStateMachine): string[] {
  return descendants(machine.root).map((node) => node.id);
}

export function finalStateIds(machine: AnyStateMachine): string[] {
  return descendants(machine.root)
    .filter((node) => node.type === "final")
    .map((node) => node.id);
}

/** Every transition of the machine, named as `transitionKey` names the ones an actor takes. */
export function transitionKeys(machine: AnyStateMachine): string[] {
  return [machine.root, ...descendants(machine.root)].flatMap((node) => [
    ...[...node.transitions.values()].flat(),
    ...(node.always ?? []),
  ]).map(transitionKey);
}

/** The names of the effects the machine invokes. */
export function effectNames(machine: AnyStateMachine): string[] {
  const names = descendants(machine.root).flatMap((node) => node.invoke.map((invoke) => String(invoke.src)));
  return [...new Set(names)];
}
