/**
 * Runs a machine actor the way `src/flows/run.ts` does — subscribed before `start()`, stopped in
 * `finally` — and keeps what the tests assert on: the state it ended or rests in, the output, the
 * emitted events, and the microsteps the runtime reports taking. A flow that spans two requests is run
 * either up to the state it rests in, or resumed there from a persisted context and sent the event.
 */
import {
  createActor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type ContextFrom,
  type EmittedFrom,
  type EventFrom,
  type InputFrom,
  type OutputFrom,
  type StateValue,
} from "xstate";

export interface Ending<M extends AnyStateMachine> {
  /** The state the actor ended or rests in. */
  value: StateValue;
  /** "done" at a final state, "active" when it rests in the `until` state. */
  status: AnyMachineSnapshot["status"];
  /** Undefined while the actor rests. */
  output: OutputFrom<M>;
  context: ContextFrom<M>;
  emitted: EmittedFrom<M>[];
  /** The state value (as JSON) after each microstep. Entering the initial state is not a microstep. */
  trace: string[];
  /** Every transition taken, named by `transitionKey`. */
  transitions: string[];
}

/** A flow persisted at a resting state: restored there with `context`, then sent `event`. */
export interface Resumption<M extends AnyStateMachine> {
  value: string;
  context: ContextFrom<M>;
  event: EventFrom<M>;
}

export interface RunOptions<M extends AnyStateMachine> {
  /** Start here instead of at the initial state (the input is then not used). */
  resume?: Resumption<M>;
  /** Stop when the actor rests in this state, as the first request of a two-request flow does. */
  until?: string;
}

export async function runToEnd<M extends AnyStateMachine>(machine: M, input: InputFrom<M>): Promise<Ending<M>> {
  return runActor(machine, input, {});
}

export async function runActor<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M> | undefined,
  options: RunOptions<M>,
): Promise<Ending<M>> {
  const trace: string[] = [];
  const transitions: string[] = [];
  const { resume, until } = options;
  const start = resume
    ? { snapshot: machine.resolveState({ value: resume.value, context: resume.context }) }
    : { input };
  const actor = createActor(machine, {
    ...start,
    inspect: (event) => {
      // Only machine actors take microsteps: the effects they invoke are promise actors.
      if (event.type !== "@xstate.microstep") return;
      trace.push(JSON.stringify((event.snapshot as AnyMachineSnapshot).value));
      for (const transition of event._transitions) transitions.push(transitionKey(transition));
    },
  } as Parameters<typeof createActor<M>>[1]);
  const emitted: EmittedFrom<M>[] = [];
  actor.on("*", (event: EmittedFrom<M>) => {
    emitted.push(event);
  });
  const ended = new Promise<void>((resolve, reject) => {
    actor.subscribe({
      next: (snapshot) => {
        if (until !== undefined && (snapshot as AnyMachineSnapshot).matches(until)) resolve();
      },
      complete: resolve,
      error: reject,
    });
  });
  actor.start();
  try {
    if (resume) actor.send(resume.event);
    await ended;
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    // Copies: stopping an actor that rests is one more microstep (to "stopped"), not part of the run.
    return {
      value: snapshot.value,
      status: snapshot.status,
      output: snapshot.output as OutputFrom<M>,
      context: snapshot.context as ContextFrom<M>,
      emitted: [...emitted],
      trace: [...trace],
      transitions: [...transitions],
    };
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
