import { describe, expect, it } from "vitest";
import { createActor, setup } from "xstate";
import { layoutMachine } from "../../../src/visualize/layout.js";
import type { Box, PlacedState } from "../../../src/visualize/layout.js";
import { descendants, machineGraph } from "../../../src/visualize/model.js";
import { toSvg } from "../../../src/visualize/svg.js";
import { hostileMachine, signInMachine } from "./fixtures.js";

/** Problems that would stop an XML parser: unbalanced or crossed tags, unescaped `<` or `&`. */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  const badAmpersand = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  for (const match of xml.matchAll(token)) {
    const [, closing, name, attributes, selfClosing, text, strayLt] = match;
    if (strayLt !== undefined) {
      problems.push(`unescaped "<" at ${match.index}`);
    } else if (text !== undefined) {
      if (badAmpersand.test(text)) problems.push(`unescaped "&" in text ${JSON.stringify(text.slice(0, 40))}`);
      if (stack.length === 0 && text.trim() !== "") problems.push("text outside the root element");
    } else if (name !== undefined) {
      for (const value of (attributes ?? "").matchAll(/="([^"]*)"/g)) {
        if (/[<]/.test(value[1] ?? "") || badAmpersand.test(value[1] ?? "")) problems.push(`unescaped attribute ${value[0]}`);
      }
      if (closing === "/") {
        const open = stack.pop();
        if (open !== name) problems.push(`</${name}> closes <${open ?? "nothing"}>`);
      } else if (selfClosing !== "/") {
        if (stack.length === 0) roots++;
        stack.push(name);
      } else if (stack.length === 0) {
        roots++;
      }
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(", ")}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

/** The text a reader sees: the contents of every <text>, entities decoded. */
function visibleText(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    (m[1] ?? "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&"),
  );
}

function contains(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe("toSvg", () => {
  it("shows every state, guard, invoked actor and event of the machine", async () => {
    const text = visibleText(await toSvg(signInMachine)).join("\n");
    for (const state of ["loading", "form", "idle", "submitting", "locked", "background", "sync", "waiting", "synced", "watch", "failed", "cancelled", "signedIn"]) {
      expect(text).toMatch(new RegExp(`^${state}$`, "m"));
    }
    for (const guard of ["[hasProviders]", "[isLocked && !isAdmin]", "[credentialsValid]", "[tooManyAttempts || isLocked]", "[isAdmin]"]) {
      expect(text).toContain(guard);
    }
    expect(text).toMatch(/^invoke: loadProviders$/m);
    expect(text).toMatch(/^invoke: authorize$/m);
    for (const event of ["form.submitted", "retry", "cancel", "done: authorize", "error: authorize", "after lockout", "after 5s"]) {
      expect(text).toMatch(new RegExp(`^${event}$`, "m"));
    }
    expect(text).toMatch(/^user\.typed \/ clearForm$/m);
    expect(text).toContain("/ storeUser, emit signedIn");
  });

  it("titles the picture with the machine id", async () => {
    const svg = await toSvg(signInMachine);
    expect(svg).toContain("<title>signIn state machine</title>");
    expect(visibleText(svg)[0]).toBe("signIn");
  });

  it("is well-formed XML with one <svg> root and ends with a newline", async () => {
    const svg = await toSvg(signInMachine);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ')).toBe(true);
    expect(svg.endsWith("</svg>\n")).toBe(true);
    expect(xmlProblems(svg)).toEqual([]);
  });

  it("escapes state, event and guard names that are markup", async () => {
    const svg = await toSvg(hostileMachine);
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg).toContain(">one&lt;two&gt;</text>");
    expect(svg).toContain(">three&amp;four</text>");
    expect(svg).toContain(">a&lt;b&gt;&amp;c</text>");
    expect(svg).toContain(">[x&lt;y]</text>");
    expect(svg).toContain("<title>hostile&lt;&amp;&gt; state machine</title>");
    expect(visibleText(svg)).toContain('say "hi"; #1: 50%');
  });

  it("names each state and arrow, so the transitions of a run can be found on the picture", async () => {
    const svg = await toSvg(signInMachine);
    const taken: { source: string; target: string; eventType: string }[] = [];
    const actor = createActor(signInMachine, {
      inspect: (event) => {
        if (event.type !== "@xstate.microstep") return;
        for (const t of event._transitions) {
          for (const target of t.target ?? []) taken.push({ source: t.source.id, target: target.id, eventType: t.eventType });
        }
      },
    });
    actor.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    actor.send({ type: "form.submitted" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    actor.stop();
    // loading → form (done: loadProviders), idle → submitting (form.submitted), submitting → signedIn (done: authorize).
    expect(taken.map((t) => t.target)).toEqual(["signIn.form", "signIn.form.submitting", "signIn.signedIn"]);
    for (const { source, target, eventType } of taken) {
      const group = `<g data-source="${source}" data-target="${target}" data-event-type="${eventType}">`;
      expect(svg.split(group).length - 1, group).toBe(2); // its arrow and its label
      expect(svg).toContain(`<g data-state="${target}">`);
    }
    expect(svg).toContain('<g data-initial="signIn.loading">');
    expect(xmlProblems(svg)).toEqual([]);
  });

  it("refers to nothing outside the file", async () => {
    const svg = await toSvg(signInMachine);
    expect(svg).not.toMatch(/href|url\(|@import|<script|<image|<foreignObject|<style/i);
    expect(svg.match(/https?:/g)).toEqual(["http:"]); // the SVG namespace only
  });

  it("draws one arrowhead per transition and per initial state", async () => {
    const graph = machineGraph(signInMachine);
    const initials = [graph.root, ...descendants(graph.root)].filter((s) => s.initial !== undefined).length;
    const svg = await toSvg(signInMachine);
    const arrowheads = svg.match(/<path d="M[^"]* Z"/g) ?? [];
    expect(arrowheads).toHaveLength(graph.transitions.length + initials);
    expect(svg.match(/<circle /g)).toHaveLength(initials);
  });

  it("gives final states a double border", async () => {
    // Background, one box per state, a second one for the final state, one per label.
    const svg = await toSvg(hostileMachine);
    expect(svg.match(/<rect /g)).toHaveLength(1 + 3 + 1 + 2);
  });

  it("returns byte-identical output for the same machine", async () => {
    const first = await toSvg(signInMachine);
    await toSvg(hostileMachine);
    expect(await toSvg(signInMachine)).toBe(first);
  });

  it("draws a machine without nested states or transitions", async () => {
    const machine = setup({}).createMachine({ id: "single" });
    const svg = await toSvg(machine);
    expect(xmlProblems(svg)).toEqual([]);
    expect(visibleText(svg)).toContain("single");
  });
});

describe("layoutMachine", () => {
  it("places nested states inside their parent, siblings apart, all on the canvas", async () => {
    const scene = await layoutMachine(machineGraph(signInMachine));
    const byId = new Map<string, PlacedState>(scene.states.map((s) => [s.state.id, s]));
    const canvas = { x: 0, y: 0, width: scene.width, height: scene.height };
    for (const placed of scene.states) {
      expect(contains(canvas, placed)).toBe(true);
      const children = placed.state.children.map((c) => byId.get(c.id));
      for (const child of children) {
        expect(child).toBeDefined();
        if (child !== undefined) expect(contains(placed, child), `${child.state.id} inside ${placed.state.id}`).toBe(true);
      }
      children.forEach((a, i) =>
        children.slice(i + 1).forEach((b) => {
          if (a !== undefined && b !== undefined) expect(overlaps(a, b), `${a.state.id} / ${b.state.id}`).toBe(false);
        }),
      );
    }
  });

  it("keeps edge labels clear of the states", async () => {
    const scene = await layoutMachine(machineGraph(signInMachine));
    const atomic = scene.states.filter((s) => s.state.children.length === 0);
    for (const edge of scene.edges) {
      if (edge.label === undefined) continue;
      for (const state of atomic) expect(overlaps(edge.label, state), `${edge.label.lines[0]?.text} / ${state.state.id}`).toBe(false);
    }
  });
});
