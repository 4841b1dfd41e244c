/**
 * What the direct runner (src/flows/direct.ts) and `fromEffect` (src/flows/effect.ts) read of xstate
 * beyond its public API: the shape of state nodes, transitions and invocations, the built-in actions'
 * type names and parts, the names of its internal events, and the system's `_relay`. xstate is pinned
 * to one exact version in package.json; an upgrade that changes any of these fails here, by name,
 * before a flow behaves differently on the two runners.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { assign, createActor, emit, enqueueActions, fromPromise, setup, toPromise } from "xstate";
import { describe, expect, it } from "vitest";
import { directRefusal, runDirect } from "../../../src/flows/direct.js";
import { fromEffect } from "../../../src/flows/effect.js";

const root = new URL("../../../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { dependencies: Record<string, string> };
const installed = (createRequire(import.meta.url)("xstate/package.json") as { version: string }).version;

const machine = setup({
  types: { context: {} as { n: number; seen: string[] }, input: {} as { start: number }, output: {} as { n: number; ended: string } },
  actors: { effect: fromEffect(async ({ input }: { input: number }) => input + 1) },
  guards: { small: ({ context }) => context.n < 10 },
  actions: { note: ({ context }, params: { what: string }) => void context.seen.push(params.what) },
}).createMachine({
  id: "probe",
  context: ({ input }) => ({ n: input.start, seen: [] }),
  initial: "working",
  states: {
    working: {
      entry: [{ type: "note", params: { what: "entry" } }, emit({ type: "started" })],
      invoke: { id: "step", src: "effect", input: ({ context }) => context.n, onDone: { target: "checking", actions: assign({ n: ({ event }) => event.output }) }, onError: "failed" },
    },
    checking: {
      always: [{ guard: "small", target: "done", actions: enqueueActions(({ enqueue }) => enqueue.assign({ n: ({ context }) => context.n * 2 })) }, { target: "failed" }],
    },
    done: { type: "final", output: ({ context }) => context.n },
    failed: { type: "final" },
  },
  output: ({ context, event }) => ({ n: context.n, ended: event.type }),
});

interface Node {
  key: string;
  type: string;
  states: Record<string, Node>;
  entry: { type: unknown; params?: unknown }[];
  exit: unknown[];
  always?: { target?: Node[]; actions: { type: unknown }[]; guard?: unknown; reenter?: boolean }[];
  invoke: { id: string; src: unknown; input?: unknown }[];
  after: unknown[];
  transitions: Map<string, { target?: Node[]; actions: unknown[] }[]>;
  output?: unknown;
  initial?: { target: Node[] };
}

describe("the xstate the direct runner is built against", () => {
  it("is pinned to one exact version, the one installed", () => {
    expect(pkg.dependencies.xstate).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pkg.dependencies.xstate);
  });

  it("keeps the state nodes, transitions and invocations the runner reads", () => {
    const m = machine as unknown as { id: string; root: Node; implementations: Record<string, Record<string, unknown>>; config: Record<string, unknown> };
    expect(Object.keys(m.implementations).sort()).toEqual(expect.arrayContaining(["actions", "actors", "guards"]));
    expect(typeof m.config.context).toBe("function");
    expect(typeof m.config.output).toBe("function");
    const { root: node } = m;
    expect(node.type).toBe("compound");
    expect(node.initial?.target[0]?.key).toBe("working");
    const { working, checking, done } = node.states as Record<string, Node>;
    expect(working!.type).toBe("atomic");
    expect(done!.type).toBe("final");
    expect(typeof done!.output).toBe("function");
    expect([working!.exit, working!.after].every(Array.isArray)).toBe(true);
    expect(working!.entry.map((action) => action.type)).toEqual(["note", "xstate.emit"]);
    expect(working!.entry[0]!.params).toEqual({ what: "entry" });
    expect(working!.invoke).toEqual([expect.objectContaining({ id: "step", src: "effect", input: expect.any(Function) })]);
    expect(working!.transitions).toBeInstanceOf(Map);
    expect([...working!.transitions.keys()].sort()).toEqual(["xstate.done.actor.step", "xstate.error.actor.step"]);
    expect(working!.transitions.get("xstate.done.actor.step")![0]!.target![0]!.key).toBe("checking");
    expect(checking!.always?.map((t) => [t.guard, t.target?.[0]?.key])).toEqual([["small", "done"], [undefined, "failed"]]);
  });

  it("keeps the built-in actions' type names and the parts the runner takes from them", () => {
    const assigned = assign({ n: 1 }) as unknown as { type: string; assignment: unknown };
    const emitted = emit({ type: "x" }) as unknown as { type: string; event: unknown };
    const enqueued = enqueueActions(() => {}) as unknown as { type: string; collect: unknown };
    expect([assigned.type, emitted.type, enqueued.type]).toEqual(["xstate.assign", "xstate.emit", "xstate.enqueueActions"]);
    expect(assigned.assignment).toEqual({ n: 1 });
    expect(emitted.event).toEqual({ type: "x" });
    expect(typeof enqueued.collect).toBe("function");
  });

  it("names its events as the runner does, relays a promise's settling through the system, and ends the same on both runners", async () => {
    const actor = createActor(machine, { input: { start: 2 } });
    const system = actor.system as unknown as { _relay?: unknown };
    expect(typeof system._relay).toBe("function");
    const events: string[] = [];
    actor.on("*", (event) => events.push(event.type));
    const onActor = await toPromise(actor.start());
    expect(onActor).toEqual({ n: 6, ended: "xstate.done.state.probe.done" });
    expect(directRefusal(machine)).toBeNull();
    const emitted: string[] = [];
    const direct = await runDirect(machine, { start: 2 }, { system: actor.system, emitted: (event) => emitted.push(event.type) });
    expect(direct).toEqual({ output: onActor, value: "done", context: { n: 6, seen: ["entry"] } });
    expect(emitted).toEqual(events);
    // A promise actor's own events, which `fromEffect` answers like `fromPromise`.
    const promise = fromPromise(async () => 1) as unknown as { transition: (s: unknown, e: unknown, scope: unknown) => { status: string } };
    const scope = { self: {} };
    expect(promise.transition({ status: "active" }, { type: "xstate.promise.resolve", data: 1 }, scope).status).toBe("done");
    expect(promise.transition({ status: "active" }, { type: "xstate.promise.reject", data: 1 }, scope).status).toBe("error");
    expect(promise.transition({ status: "active" }, { type: "xstate.stop" }, scope).status).toBe("stopped");
  });
});
