/**
 * fromEffect against xstate's fromPromise, which it stands in for: the same snapshots an observer
 * sees and the same endings a parent machine reacts to, for an effect that resolves, rejects, throws
 * at once, or is stopped before it settles.
 */
import { describe, expect, it } from "vitest";
import { assign, createActor, fromPromise, setup, type AnyActorLogic } from "xstate";
import { fromEffect } from "../../../src/flows/effect.js";

type Run = (args: { input: number }) => Promise<string>;

/** Every snapshot an observer of the effect sees, until it ends. */
async function observed(logic: AnyActorLogic, input: number) {
  const actor = createActor(logic, { input });
  const seen: unknown[] = [];
  const ended = new Promise<void>((resolve) => {
    actor.subscribe({ next: (snapshot) => void seen.push(snapshot), error: () => resolve(), complete: () => resolve() });
  });
  actor.start();
  await ended;
  return { seen, last: actor.getSnapshot() as unknown };
}

/** How a parent machine that invokes the effect ends: what it recorded from onDone or onError. */
async function parentEnding(logic: AnyActorLogic, input: number) {
  const parent = setup({ actors: { work: logic } }).createMachine({
    context: { result: "" as unknown },
    initial: "working",
    states: {
      working: {
        invoke: {
          src: "work",
          input,
          onDone: { target: "done", actions: assign({ result: ({ event }) => ({ output: event.output }) }) },
          onError: { target: "done", actions: assign({ result: ({ event }) => ({ error: event.error }) }) },
        },
      },
      done: { type: "final" },
    },
  });
  const actor = createActor(parent).start();
  await new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
  return actor.getSnapshot().context.result;
}

const boom = new Error("the store went away");
const effects: Record<string, Run> = {
  resolves: async ({ input }) => `answer ${input}`,
  rejects: async () => Promise.reject(boom),
};

describe("fromEffect behaves as fromPromise", () => {
  for (const [name, run] of Object.entries(effects)) {
    it(`an effect that ${name}: the same snapshots, and the same ending for its parent`, async () => {
      expect(await observed(fromEffect(run), 7)).toEqual(await observed(fromPromise(run), 7));
      expect(await parentEnding(fromEffect(run), 7)).toEqual(await parentEnding(fromPromise(run), 7));
    });
  }

  it("an effect that throws before returning a promise errors like fromPromise", async () => {
    const run: Run = () => {
      throw boom;
    };
    expect(await parentEnding(fromEffect(run), 1)).toEqual({ error: boom });
    expect(await parentEnding(fromPromise(run), 1)).toEqual({ error: boom });
  });

  it("an effect stopped before it settles stays stopped and relays nothing when it settles", async () => {
    let settle!: (value: string) => void;
    const actor = createActor(fromEffect(() => new Promise<string>((resolve) => (settle = resolve))));
    const seen: string[] = [];
    actor.subscribe({ next: (snapshot) => void seen.push(snapshot.status), error: () => seen.push("error") });
    actor.start();
    actor.stop();
    settle("too late");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot()).toMatchObject({ status: "stopped", output: undefined });
    expect(seen).toEqual(["active"]);
  });
});
