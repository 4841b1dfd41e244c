import { describe, expect, it } from "vitest";
import { and, assign, cancel, emit, log, not, or, raise, sendTo, setup, stateIn } from "xstate";
import { describeAction, describeDelay, describeGuard } from "../../../src/visualize/describe.js";
import { machineGraph, transitionLabel } from "../../../src/visualize/model.js";
import { signInMachine } from "./fixtures.js";

describe("describeGuard", () => {
  it("names a guard as setup() does, and spells out combinators", () => {
    expect(describeGuard("isValid")).toBe("isValid");
    expect(describeGuard({ type: "isValid", params: { min: 1 } })).toBe("isValid");
    expect(describeGuard(and(["a", not("b")]))).toBe("a && !b");
    expect(describeGuard(or(["a", and(["b", "c"])]))).toBe("a || (b && c)");
    expect(describeGuard(not(or(["a", "b"])))).toBe("!(a || b)");
    expect(describeGuard(stateIn("#m.idle"))).toBe("in(#m.idle)");
  });

  it("calls an anonymous inline guard what it is", () => {
    expect(describeGuard(() => true)).toBe("inline guard");
    function isFresh(): boolean {
      return true;
    }
    expect(describeGuard(isFresh)).toBe("isFresh");
  });
});

describe("describeAction", () => {
  it("names actions, and built-in actions by what they do", () => {
    expect(describeAction("storeUser")).toBe("storeUser");
    expect(describeAction({ type: "track", params: {} })).toBe("track");
    expect(describeAction(assign({}))).toBe("assign");
    expect(describeAction(raise({ type: "retry" }))).toBe("raise retry");
    expect(describeAction(emit({ type: "signedIn" }))).toBe("emit signedIn");
    expect(describeAction(sendTo("child", { type: "ping" }))).toBe("send ping to child");
    expect(describeAction(log("x"))).toBe("log");
    expect(describeAction(() => {})).toBe("inline action");
  });

  it("hides the raise/cancel pair xstate adds for a delayed transition", () => {
    expect(describeAction(raise({ type: "xstate.after.5000.m.s" }, { id: "xstate.after.5000.m.s", delay: 5000 }))).toBeUndefined();
    expect(describeAction(cancel("xstate.after.5000.m.s"))).toBeUndefined();
  });
});

describe("describeDelay", () => {
  it("writes delays in the largest whole unit", () => {
    expect(describeDelay(500)).toBe("500ms");
    expect(describeDelay(15_000)).toBe("15s");
    expect(describeDelay(900_000)).toBe("15min");
    expect(describeDelay(1500)).toBe("1500ms");
    expect(describeDelay("lockout")).toBe("lockout");
  });
});

describe("machineGraph", () => {
  const graph = machineGraph(signInMachine);

  it("keeps transitions that stay in their state inside it, with entry and exit actions", () => {
    const form = graph.root.children.find((s) => s.name === "form");
    expect(form?.activities).toEqual(["user.typed / clearForm"]);
    const withEntry = machineGraph(
      setup({ actions: { greet: () => {}, wave: () => {} } }).createMachine({
        initial: "a",
        states: { a: { entry: "greet", exit: ["wave"], after: { 100: "b" } }, b: {} },
      }),
    );
    expect(withEntry.root.children[0]?.activities).toEqual(["entry / greet", "exit / wave"]);
  });

  it("draws the top-level states directly when the root does nothing itself", () => {
    expect(graph.rootIsState).toBe(false);
  });

  it("follows the definition's order", () => {
    expect(graph.transitions.map(transitionLabel).slice(0, 3)).toEqual([
      "done: loadProviders [hasProviders]",
      "done: loadProviders",
      "error: loadProviders",
    ]);
  });

  it("names an invoked actor by its setup() name, not the invoke id", () => {
    const submitting = graph.root.children.find((s) => s.name === "form")?.children.find((s) => s.name === "submitting");
    expect(submitting?.invokes).toEqual(["authorize"]);
  });
});
