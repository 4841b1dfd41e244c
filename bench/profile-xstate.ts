/**
 * What an XState v5 flow costs per request, apart from the work it does: an actor, each invoked
 * promise actor, each eventless transition, and the ways `src/flows/run.ts` observes the actor.
 * All effects here return at once, so every microsecond measured is machinery.
 *
 *   npx tsx bench/profile-xstate.ts [--iterations 1000] [--passes 15]
 */
import { assign, createActor, fromPromise, setup, type AnyStateMachine, type PromiseActorLogic, type PromiseSnapshot } from "xstate";
import { measurePieces, microOptions, type Piece } from "./micro.js";

/** Runs a machine to its final state the way run.ts does: subscribe, start, await, stop. */
function runToCompletion(machine: AnyStateMachine, input: unknown, observe: { emitted: boolean }): Promise<unknown> {
  const actor = createActor(machine, { input });
  if (observe.emitted) actor.on("*", () => undefined);
  const done = new Promise((resolve, reject) => {
    actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
  });
  actor.start();
  return done.finally(() => actor.stop());
}

const instant = fromPromise(async ({ input }: { input: number }) => input + 1);

/**
 * A prototype, for pricing only: promise actor logic like `fromPromise` but without the
 * AbortController whose signal Node 20 builds for every invoke (about 4 µs) and none of our effects read.
 */
function leanPromise<Output, Input>(run: (args: { input: Input }) => PromiseLike<Output>): PromiseActorLogic<Output, Input> {
  type Snapshot = PromiseSnapshot<Output, Input>;
  const logic = {
    config: run,
    transition: (snapshot: Snapshot, event: { type: string; data?: unknown }): Snapshot => {
      if (snapshot.status !== "active") return snapshot;
      if (event.type === "lean.resolve") return { ...snapshot, status: "done", output: event.data as Output, input: undefined } as Snapshot;
      if (event.type === "lean.reject") return { ...snapshot, status: "error", error: event.data, input: undefined } as Snapshot;
      if (event.type === "xstate.stop") return { ...snapshot, status: "stopped", input: undefined } as Snapshot;
      return snapshot;
    },
    start: (snapshot: Snapshot, { self }: { self: { getSnapshot(): Snapshot; send(event: unknown): void } }) => {
      if (snapshot.status !== "active") return;
      Promise.resolve(run({ input: snapshot.input as Input })).then(
        (data) => self.getSnapshot().status === "active" && self.send({ type: "lean.resolve", data }),
        (data: unknown) => self.getSnapshot().status === "active" && self.send({ type: "lean.reject", data }),
      );
    },
    getInitialSnapshot: (_: unknown, input: Input) => ({ status: "active", output: undefined, error: undefined, input }),
    getPersistedSnapshot: (snapshot: Snapshot) => snapshot,
    restoreSnapshot: (snapshot: Snapshot) => snapshot,
  };
  return logic as unknown as PromiseActorLogic<Output, Input>;
}

const lean = leanPromise(async ({ input }: { input: number }) => input + 1);

/** A final state reached through `n` invoked promise actors in a row. */
function chainOfInvokes(n: number, logic: PromiseActorLogic<number, number> = instant): AnyStateMachine {
  const states: Record<string, object> = {};
  for (let i = 0; i < n; i++) {
    states[`step${i}`] = {
      invoke: {
        src: "instant",
        input: ({ context }: { context: { n: number } }) => context.n,
        onDone: { target: i + 1 < n ? `step${i + 1}` : "done", actions: assign({ n: ({ event }: { event: unknown }) => (event as { output: number }).output }) },
      },
    };
  }
  states.done = { type: "final" };
  const machine = setup({ types: { context: {} as { n: number } }, actors: { instant: logic } }).createMachine({
    context: { n: 0 },
    initial: n > 0 ? "step0" : "done",
    states,
    output: ({ context }: { context: { n: number } }) => context.n,
  } as never);
  return machine as unknown as AnyStateMachine;
}

/**
 * The same chain with each effect started by a named entry action that sends its result back as
 * an event (`effect.done`): one actor in all, no child actor per effect.
 */
function chainOfEffectEvents(n: number): AnyStateMachine {
  const states: Record<string, object> = {};
  for (let i = 0; i < n; i++) {
    states[`step${i}`] = {
      entry: "startEffect",
      on: {
        "effect.done": { target: i + 1 < n ? `step${i + 1}` : "done", actions: assign({ n: ({ event }: { event: unknown }) => (event as { output: number }).output }) },
      },
    };
  }
  states.done = { type: "final" };
  const machine = setup({
    types: { context: {} as { n: number }, events: {} as { type: "effect.done"; output: number } },
    actions: {
      startEffect: ({ context, self }) => {
        void Promise.resolve(context.n + 1).then((output) => self.send({ type: "effect.done", output }));
      },
    },
  }).createMachine({
    context: { n: 0 },
    initial: "step0",
    states,
    output: ({ context }: { context: { n: number } }) => context.n,
  } as never);
  return machine as unknown as AnyStateMachine;
}

/** A final state reached through `n` eventless (`always`) transitions, each with a guard. */
function chainOfAlways(n: number): AnyStateMachine {
  const states: Record<string, object> = {};
  for (let i = 0; i < n; i++) {
    states[`step${i}`] = { always: [{ guard: "yes", target: i + 1 < n ? `step${i + 1}` : "done" }] };
  }
  states.done = { type: "final" };
  const machine = setup({ guards: { yes: () => true } }).createMachine({ initial: "step0", states } as never);
  return machine as unknown as AnyStateMachine;
}

async function main(): Promise<void> {
  const options = microOptions();
  const trivial = setup({}).createMachine({ initial: "done", states: { done: { type: "final" } } });
  const invokes1 = chainOfInvokes(1);
  const invokes3 = chainOfInvokes(3);
  const always5 = chainOfAlways(5);
  const events3 = chainOfEffectEvents(3);
  const leanInvokes3 = chainOfInvokes(3, lean);
  const quiet = { emitted: false };

  const pieces: Piece[] = [
    {
      label: "createActor + start + stop, one final state",
      run: () => {
        const actor = createActor(trivial);
        actor.start();
        actor.stop();
      },
    },
    { label: "run to completion (subscribe, promise), one final state", run: () => runToCompletion(trivial, undefined, quiet) },
    { label: "  ... with actor.on('*') as run.ts does", run: () => runToCompletion(trivial, undefined, { emitted: true }) },
    { label: "5 guarded eventless transitions", run: () => runToCompletion(always5, undefined, quiet) },
    { label: "1 invoked promise actor", run: () => runToCompletion(invokes1, undefined, quiet) },
    { label: "3 invoked promise actors in a row", run: () => runToCompletion(invokes3, undefined, quiet) },
    { label: "3 invoked lean promise actors (no AbortSignal)", run: () => runToCompletion(leanInvokes3, undefined, quiet) },
    { label: "3 effects as entry actions sending events back", run: () => runToCompletion(events3, undefined, quiet) },
    { label: "for scale: 3 awaited async calls, no machine", run: async () => instantChain(3) },
    // Node creates the signal lazily, on first access; fromPromise hands one to every invoked promise.
    { label: "for scale: new AbortController().signal (one per promise actor)", run: () => ({ signal: new AbortController().signal }) },
  ];

  await measurePieces("xstate machinery", pieces, options);
}

async function instantChain(n: number): Promise<number> {
  let value = 0;
  for (let i = 0; i < n; i++) value = await (async (x: number) => x + 1)(value);
  return value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
