/**
 * The actor logic the flows' effects run as. It behaves like xstate's `fromPromise` (the same
 * snapshots, the same resolve/reject events relayed the same way, so machines, the inspector and
 * the tests see no difference) but creates no AbortController per invocation: `fromPromise` makes
 * one for every effect it starts, and on a sign-in that is a measurable share of the request
 * (bench/ISSUE-18.md). An effect that must notice being stopped (a wait that polls) still uses
 * `fromPromise` and its `signal`.
 */
import type { AnyActorRef, PromiseActorLogic } from "xstate";

// xstate's own event types for a settled promise actor and for stopping one.
const RESOLVE = "xstate.promise.resolve";
const REJECT = "xstate.promise.reject";
const STOP = "xstate.stop";

/** How an event reaches an actor from the actor itself, as `fromPromise` relays it (not a public xstate type). */
interface Relay {
  _relay(source: AnyActorRef, target: AnyActorRef, event: { type: string; data: unknown }): void;
}

/** What an effect receives: its invocation's input, and the actor system of the run (see `requestOf`). */
export interface EffectArgs<Input> {
  input: Input;
  system: AnyActorRef["system"];
}

/** Where an effect's function is kept on its logic, for the runner that calls it directly (direct.ts). */
const RUN = Symbol("appauth.effect");

/** The function a `fromEffect` logic runs, or undefined for any other logic. */
export function effectRunOf(logic: unknown): ((args: EffectArgs<unknown>) => PromiseLike<unknown>) | undefined {
  return typeof logic === "object" && logic !== null ? (logic as { [RUN]?: (args: EffectArgs<unknown>) => PromiseLike<unknown> })[RUN] : undefined;
}

/** A promise actor for the effect `run`, which receives the invocation's input. */
export function fromEffect<Output, Input>(
  run: (args: EffectArgs<Input>) => PromiseLike<Output>,
): PromiseActorLogic<Output, Input> {
  const logic: PromiseActorLogic<Output, Input> = {
    config: run,
    transition(snapshot, event) {
      if (snapshot.status !== "active") return snapshot;
      switch (event.type) {
        case RESOLVE:
          return { ...snapshot, status: "done", output: event.data as Output, input: undefined };
        case REJECT:
          return { ...snapshot, status: "error", error: event.data, input: undefined };
        case STOP:
          return { ...snapshot, status: "stopped", input: undefined };
        default:
          return snapshot;
      }
    },
    start(snapshot, { self, system }) {
      if (snapshot.status !== "active") return;
      const relay = (type: string, data: unknown) => {
        // A stopped actor (its flow ended another way) takes no more events.
        if (self.getSnapshot().status !== "active") return;
        // `_relay` is how xstate delivers it (and tells the inspector who sent it); should a later
        // xstate lack it, the event is sent directly, which the machine handles the same way.
        const { _relay } = system as unknown as Partial<Relay>;
        if (typeof _relay === "function") _relay.call(system, self, self, { type, data });
        else self.send({ type, data } as never);
      };
      Promise.resolve(run({ input: snapshot.input as Input, system })).then(
        (output) => relay(RESOLVE, output),
        (error: unknown) => relay(REJECT, error),
      );
    },
    getInitialSnapshot: (_, input) => ({ status: "active", output: undefined, error: undefined, input }),
    getPersistedSnapshot: (snapshot) => snapshot,
    restoreSnapshot: (snapshot) => snapshot as never,
  };
  Object.defineProperty(logic, RUN, { value: run });
  return logic;
}
