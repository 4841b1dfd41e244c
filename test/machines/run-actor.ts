/**
 * Runs a machine actor to its end the way `src/flows/run.ts` does — subscribed before `start()`, stopped
 * in `finally` — and keeps what the tests assert on: the final state, the output, the emitted events,
 * and the microsteps the runtime reports taking.
 */
import {
  createActor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type EmittedFrom,
  type InputFrom,
  type OutputFrom,
  type StateValue,
} from "xstate";

export interface Ending<M extends AnyStateMachine> {
  /** The state the actor ended in. */
  value: StateValue;
  output: OutputFrom<M>;
  emitted: EmittedFrom<M>[];
  /** The state value (as JSON) after each microstep. Entering the initial state is not a microstep. */
  trace: string[];
  /** Every transition taken, named by `transitionKey`. */
  transitions: string[];
}

export async function runToEnd<M extends AnyStateMachine>(machine: M, input: InputFrom<M>): Promise<Ending<M>> {
  const trace: string[] = [];
  const transitions: string[] = [];
  const actor = createActor(machine, {
    input,
    inspect: (event) => {
      // Only machine actors take microsteps: the effects they invoke are promise actors.
      if (event.type !== "@xstate.microstep") return;
      trace.push(JSON.stringify((event.snapshot as AnyMachineSnapshot).value));
      for (const transition of event._transitions) transitions.push(transitionKey(transition));
    },
  });
  const emitted: EmittedFrom<M>[] = [];
  actor.on("*", (event: EmittedFrom<M>) => {
    emitted.push(event);
  });
  const ended = new Promise<void>((resolve, reject) => {
    actor.subscribe({ complete: resolve, error: reject });
  });
  actor.start();
  try {
    await ended;
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    return { value: snapshot.value, output: snapshot.output as OutputFrom<M>, emitted, trace, transitions };
  } finally {
    actor.stop();
  }
}

/**
 * Names a transition by the state it leaves, what triggers it, and its rank among the candidates for
 * that trigger (the guarded ones are tried in order), so the same name comes out of a machine and of
 * the copy `machine.provide()` makes.
 */
export function transitionKey(transition: AnyTransitionDefinition): string {
  const { source, eventType } = transition;
  const candidates = eventType === "" ? source.always : source.transitions.get(eventType);
  return `${source.id} ${eventType || "(always)"} #${candidates?.indexOf(transition) ?? -1}`;
}
