/**
 * Paths through a machine that is driven by the effects it invokes rather than by outside events.
 * Each effect's possible endings (an output, or an error) are listed as outcomes; `xstate/graph` walks
 * the machine's own definition, offering at each state the done/error events of the effect running
 * there, so where each outcome leads is decided by the machine, not by the test. A path is the
 * sequence of outcomes from the initial state to a final state, and `playBack` runs the real actor
 * with fakes that end each effect as the path says. An effect may be a child machine: the parent only
 * sees how it ends, so its outcomes are listed like a promise's.
 *
 * A flow that spans two requests is walked in two parts: up to the state it rests in (`until`), and
 * from that state, restored with the context the second request builds and sent its event (`resume`).
 */
import { expect, it } from "vitest";
import {
  fromPromise,
  getInitialMicrosteps,
  getMicrosteps,
  getStateNodes,
  transition,
  type Actor,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InputFrom,
} from "xstate";
import { getSimplePaths } from "xstate/graph";
import { runActor, transitionKey, type Ending, type Resumption } from "./run-actor.js";
import { directRefusal, runDirect } from "../../src/flows/direct.js";
import { fromEffect } from "../../src/flows/effect.js";

/** Time allowed for a test that plays every path of a machine (a budget for a loaded CI machine, not a measurement). */
const WHOLE_MACHINE_BUDGET = 180_000;

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
  /** "<input>: [<event> ›] <effect> <outcome> › ... ⇒ <final state>" */
  name: string;
  /** The input the flow starts with (for a resumed path: the one its restored context was built from). */
  input: InputFrom<M>;
  /** Set when the path starts from a persisted resting state rather than the initial one. */
  resumed?: Resumption<M>;
  /** Set when the path ends resting in that state rather than in a final one. */
  until?: string;
  steps: EffectStep[];
  /** The snapshot the model ends in: its value, and the output the machine computes there. */
  end: AnyMachineSnapshot;
  /** The id of the final state the path ends in, or of the state it rests in. */
  finalState: string;
  /** Ids of every state the path passes through, transient ones included. */
  visited: Set<string>;
  /** The state value (as JSON) after each microstep after the first, as the runtime reports them. */
  trace: string[];
}

export interface PathOptions<M extends AnyStateMachine> {
  /** A state the flow rests in, waiting for an event: paths that reach it end there. */
  until?: string;
  /** Start each path from a persisted resting state, restored as the second request restores it. */
  resume?: (input: InputFrom<M>) => Resumption<M>;
}

/** Every path from the initial (or resumed) state to a final (or resting) state, for each named input. */
export function effectPaths<M extends AnyStateMachine>(
  machine: M,
  inputs: Record<string, InputFrom<M>>,
  outcomes: OutcomeTable,
  options: PathOptions<M> = {},
): EffectPath<M>[] {
  const paths: EffectPath<M>[] = [];
  const { until } = options;
  for (const [inputName, input] of Object.entries(inputs)) {
    const stepOf = new WeakMap<EventObject, EffectStep>();
    // Walked as any machine: the events offered are the xstate.done/error.actor.* ones, which a
    // machine's own event type does not list.
    const model: AnyStateMachine = machine;
    const resumed = options.resume?.(input);
    // The microsteps before the first effect ends: the initial ones, or, for a resumed flow, the
    // restored state and what the event it is sent leads to.
    let lead: AnyMachineSnapshot[];
    let fromState: AnyMachineSnapshot | undefined;
    if (resumed) {
      const restored = model.resolveState({ value: resumed.value, context: resumed.context });
      fromState = transition(model, restored, resumed.event)[0];
      lead = [restored, ...getMicrosteps(model, restored, resumed.event).map(([snapshot]) => snapshot)];
    } else {
      lead = getInitialMicrosteps(model, input).map(([snapshot]) => snapshot);
    }
    const generated = getSimplePaths(model, {
      input,
      ...(fromState ? { fromState } : {}),
      events: (snapshot) => effectEndings(snapshot, outcomes, stepOf),
      // The traversal also offers every event type a state listens for bare ({ type } alone): only
      // the listed outcomes are real endings.
      filterEvents: (_, event) => stepOf.has(event),
      serializeEvent: (event) => `${event.type} ${stepOf.get(event)?.outcome.label}`,
      serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context }, readable),
    });
    for (const path of generated) {
      const end = path.state as AnyMachineSnapshot;
      const rests = until !== undefined && end.status === "active" && end.matches(until);
      if (end.status !== "done" && !rests) continue;
      const events = path.steps.slice(1).map((step) => step.event);
      const steps = events.map((event) => stepOf.get(event)!);
      // Microsteps show the transient states (eventless transitions) that macrosteps pass over.
      const microsteps = [
        ...lead,
        ...events.flatMap((event, i) => getMicrosteps(model, path.steps[i]!.state, event).map(([snapshot]) => snapshot)),
      ];
      const effects = steps.map((s) => `${s.effect} ${s.outcome.label}`);
      const route = [...(resumed ? [(resumed.event as EventObject).type] : []), ...effects].join(" › ") || "no effect";
      paths.push({
        name: `${inputName}: ${route} ⇒ ${String(end.value)}`,
        input,
        ...(resumed ? { resumed } : {}),
        ...(rests ? { until } : {}),
        steps,
        end,
        finalState: activeStateNodes(machine, end).find((node) => node.type === "final" || (rests && node.key === until))!.id,
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
    // An invoked actor keeps the input the machine computed for it in its options, whatever its logic
    // (a promise's snapshot holds it too, a child machine's does not).
    const input = (child as Actor<AnyActorLogic>).options.input;
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
  if (value instanceof URLSearchParams) return `?${value.toString()}`;
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

/** Fakes for every effect of `machine`, made with `as`, that end each as `path` says, in the order it says. */
function scriptedEffects<M extends AnyStateMachine>(
  machine: M,
  path: EffectPath<M>,
  as: (run: (args: { input: unknown }) => Promise<unknown>) => AnyActorLogic,
) {
  const script = [...path.steps];
  const invoked: PlayedPath<M>["invoked"] = [];
  const actors = Object.fromEntries(
    effectNames(machine).map((effect) => [
      effect,
      as(async ({ input }) => {
        invoked.push({ effect, input });
        const next = script.shift();
        if (next?.effect !== effect) throw new Error(`The path did not expect "${effect}" to run here.`);
        const ending = next.outcome.end(input as never);
        if ("error" in ending) throw ending.error;
        return ending.output;
      }),
    ]),
  );
  return { actors, invoked, script };
}

/** Runs the real machine with fakes that end each effect as `path` says, in the order it says. */
export async function playBack<M extends AnyStateMachine>(machine: M, path: EffectPath<M>): Promise<PlayedPath<M>> {
  const { actors, invoked, script } = scriptedEffects(machine, path, fromPromise);
  const ending = await runActor(machine.provide({ actors }) as M, path.input, {
    ...(path.resumed ? { resume: path.resumed } : {}),
    ...(path.until ? { until: path.until } : {}),
  });
  return { ...ending, invoked, unplayed: script.length };
}

/**
 * Runs the path on the direct runner (src/flows/direct.ts), with the same scripted effects, or
 * returns the reason that runner refuses the machine (it then runs on the actor in production too).
 */
export async function playDirect<M extends AnyStateMachine>(
  machine: M,
  path: EffectPath<M>,
): Promise<{ refused: string } | { value: string; output: unknown; context: unknown; emitted: unknown[]; invoked: PlayedPath<M>["invoked"]; unplayed: number }> {
  const { actors, invoked, script } = scriptedEffects(machine, path, fromEffect);
  const provided = machine.provide({ actors } as never) as M;
  const refused = directRefusal(provided);
  if (refused) return { refused };
  const emitted: unknown[] = [];
  const ended = await runDirect(provided, path.input, { system: {} as AnyActorRef["system"], emitted: (event) => void emitted.push(event) });
  return { ...ended, emitted, invoked, unplayed: script.length };
}

/**
 * The real actor ends (or rests) where the path predicts, with the predicted output and context,
 * having run the predicted effects.
 */
export function expectPlayedAsPredicted<M extends AnyStateMachine>(path: EffectPath<M>, played: PlayedPath<M>): void {
  expect(played.value).toEqual(path.end.value);
  expect(played.status).toBe(path.end.status);
  expect(played.output).toEqual(path.end.output);
  expect(played.context).toEqual(path.end.context);
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

/**
 * The four checks every model test makes of its paths: an outcome is listed for every effect the
 * machine invokes, the paths reach every state and end in every final state (resting states aside),
 * and the real actor, playing them back, takes every transition.
 */
export function itCoversTheMachine<M extends AnyStateMachine>(
  machine: M,
  outcomes: OutcomeTable,
  paths: EffectPath<M>[],
  options: { resting?: string } = {},
): void {
  it("lists outcomes for every effect the machine invokes", () => {
    expect(Object.keys(outcomes).sort()).toEqual(effectNames(machine).sort());
  });

  it("reach every state of the machine", () => {
    const reached = new Set(paths.flatMap((path) => [...path.visited]));
    expect([...reached].sort()).toEqual(stateIds(machine).sort());
  });

  it("end in every final state", () => {
    const ends = new Set(paths.map((path) => path.finalState));
    if (options.resting) ends.delete(options.resting);
    expect([...ends].sort()).toEqual(finalStateIds(machine).sort());
  });

  // Where the direct runner accepts the machine (src/flows/direct.ts), it ends every path from the
  // start exactly as the actor does: the same final state, output, context, emitted events and effects.
  it("end the same on the direct runner as on the actor, or are refused by it", async () => {
    for (const path of paths) {
      if (path.resumed || path.until) continue;
      const direct = await playDirect(machine, path);
      if ("refused" in direct) {
        expect(direct.refused).toMatch(/\S/);
        continue;
      }
      const played = await playBack(machine, path);
      expect({ path: path.name, value: direct.value, output: direct.output, context: direct.context, emitted: direct.emitted }).toEqual({
        path: path.name,
        value: played.value,
        output: played.output,
        context: played.context,
        emitted: played.emitted,
      });
      expect(direct.invoked).toEqual(played.invoked);
      expect(direct.unplayed).toBe(0);
    }
    // Each path is played twice; the completion machine has thousands (23 s alone at load 10).
  }, WHOLE_MACHINE_BUDGET);

  it("take every transition when the real actor plays them", async () => {
    const taken = new Set<string>();
    for (const path of paths) for (const key of (await playBack(machine, path)).transitions) taken.add(key);
    expect([...taken].sort()).toEqual(transitionKeys(machine).sort());
  }, WHOLE_MACHINE_BUDGET);
}
