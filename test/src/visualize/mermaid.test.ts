import { describe, expect, it } from "vitest";
import { setup } from "xstate";
import { toMermaid } from "../../../src/visualize/mermaid.js";
import { hostileMachine, signInMachine } from "./fixtures.js";

/** The text Mermaid shows for a source fragment: entity codes decoded, as Mermaid does before rendering. */
function shown(source: string): string {
  return source.replace(/#(\w+);/g, (_, code: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
    return /^\d+$/.test(code) ? String.fromCharCode(Number(code)) : (named[code] ?? `#${code};`);
  });
}

/**
 * A line-level check against Mermaid's state diagram grammar: every statement we emit must be one of
 * these forms, and no label may contain a raw `:` or `;` (Mermaid ends a label at either).
 */
const STATEMENT_FORMS = [
  /^---$/,
  /^title: ".*"$/,
  /^stateDiagram-v2$/,
  /^%%.*$/,
  /^state \w+( \{)?$/,
  /^state "[^"]*" as \w+( \{)?$/,
  /^\}$/,
  /^--$/,
  /^\[\*\] --> \w+$/,
  /^\w+ --> (\w+|\[\*\])( : [^:;"<>&\n]+)?$/,
  /^\w+ : [^:;"<>&\n]+$/,
  /^\w+$/,
  /^note right of \w+$/,
  /^end note$/,
];

function checkGrammar(source: string): string[] {
  const problems: string[] = [];
  let depth = 0;
  let inNote = false;
  for (const raw of source.split("\n").slice(0, -1)) {
    // Mermaid swaps entity codes for placeholders before it parses, as this does.
    const line = raw.trim().replace(/#\w+;/g, "\u00a7");
    if (inNote) {
      if (line === "end note") inNote = false;
      else if (/[:;"<>&]/.test(line)) problems.push(`note line with syntax characters: ${line}`);
      continue;
    }
    if (!STATEMENT_FORMS.some((form) => form.test(line))) problems.push(`not a statement: ${line}`);
    if (line.startsWith("note right of")) inNote = true;
    if (line.endsWith("{")) depth++;
    if (line === "}") depth--;
    if (depth < 0) problems.push("unbalanced braces");
  }
  if (depth !== 0) problems.push("unbalanced braces");
  return problems;
}

describe("toMermaid", () => {
  const source = toMermaid(signInMachine);

  it("writes a stateDiagram-v2 titled with the machine id, ending in one newline", () => {
    expect(source.startsWith('---\ntitle: "signIn"\n---\nstateDiagram-v2\n')).toBe(true);
    expect(source.endsWith("\n")).toBe(true);
    expect(source.endsWith("\n\n")).toBe(false);
  });

  it("names every state, guard, invoked actor and event of the machine", () => {
    const text = shown(source);
    for (const state of ["loading", "form", "idle", "submitting", "locked", "background", "sync", "waiting", "synced", "watch", "failed", "cancelled", "signedIn"]) {
      expect(text).toMatch(new RegExp(`\\b${state}\\b`));
    }
    for (const guard of ["hasProviders", "isLocked", "isAdmin", "credentialsValid", "tooManyAttempts"]) {
      expect(text).toContain(guard);
    }
    expect(text).toContain("invoke loadProviders");
    expect(text).toContain("invoke authorize");
    for (const event of ["form.submitted", "retry", "cancel", "user.typed"]) expect(text).toContain(event);
  });

  it("labels transitions as `event [guard] / actions`", () => {
    expect(shown(source)).toContain("idle --> submitting : form.submitted / recordAttempt, trackSubmit");
    expect(shown(source)).toContain("submitting --> idle : done: authorize [tooManyAttempts || isLocked] / assign");
  });

  it("labels the outcomes of an invoked actor `done:` and `error:`, one edge per guarded target", () => {
    const text = shown(source);
    expect(text).toContain("loading --> form : done: loadProviders [hasProviders]");
    expect(text).toContain("loading --> failed : done: loadProviders\n");
    expect(text).toContain("loading --> failed : error: loadProviders");
    expect(text).toContain("submitting --> signedIn : done: authorize [credentialsValid] / storeUser, emit signedIn");
    expect(text).toContain("submitting --> idle : error: authorize / raise retry");
  });

  it("labels an eventless transition by its guard, combinators spelled out", () => {
    expect(shown(source)).toContain("idle --> locked : [isLocked && !isAdmin]");
  });

  it("labels delayed transitions with their delay", () => {
    const text = shown(source);
    expect(text).toContain("locked --> idle : after lockout");
    expect(text).toContain("locked --> idle : after 5s [isAdmin]");
  });

  it("nests child states in composite states and divides parallel regions with --", () => {
    const form = source.slice(source.indexOf("state form {"), source.indexOf("}", source.indexOf("state form {")));
    expect(form).toContain("[*] --> idle");
    expect(form).toContain("idle --> submitting");
    const background = source.slice(source.indexOf("state background {"));
    expect(background).toMatch(/^state background \{\n\s+state sync \{\n[^}]*\}\n\s+--\n\s+watch\n\s+\}/);
  });

  it("marks the initial states and sends final states to [*]", () => {
    expect(source).toMatch(/^ {2}\[\*\] --> loading$/m);
    expect(source).toMatch(/^ {2}signedIn --> \[\*\]$/m);
    expect(source).toMatch(/^ {2}cancelled --> \[\*\]$/m);
    expect(source).toMatch(/^ {6}synced --> \[\*\]$/m);
  });

  it("lists what a composite state does without leaving it in a note", () => {
    expect(source).toMatch(/note right of form\n\s+user\.typed \/ clearForm\n\s+end note/);
  });

  it("writes only statements Mermaid's grammar accepts", () => {
    expect(checkGrammar(source)).toEqual([]);
    expect(checkGrammar(toMermaid(hostileMachine))).toEqual([]);
  });

  it("writes names that are Mermaid syntax as entity codes, so they show verbatim", () => {
    const hostile = toMermaid(hostileMachine);
    expect(hostile).toContain('state "one#lt;two#gt;" as one_two');
    expect(hostile).toContain("one_two --> three_four : a#lt;b#gt;#amp;c [x#lt;y]");
    expect(shown(hostile)).toContain('three_four --> s_default : say "hi"; #1: 50%');
    // `default` is a keyword of the grammar: the state keeps its name but not as an identifier.
    expect(hostile).toContain('state "default" as s_default');
  });

  it("gives states that share a name distinct identifiers", () => {
    const machine = setup({}).createMachine({
      id: "twins",
      initial: "a",
      states: {
        a: { initial: "idle", states: { idle: { on: { next: "#twins.b" } } } },
        b: { initial: "idle", states: { idle: { type: "final" } } },
      },
    });
    const twins = toMermaid(machine);
    expect(twins).toContain('state "idle" as a_idle');
    expect(twins).toContain('state "idle" as b_idle');
    expect(twins).toContain("a_idle --> b : next");
  });

  it("draws the root as a state when it has transitions of its own", () => {
    const machine = setup({}).createMachine({
      id: "app",
      initial: "home",
      on: { reset: ".home" },
      states: { home: { on: { go: "away" } }, away: {} },
    });
    const app = toMermaid(machine);
    expect(app).toContain("[*] --> app\n");
    expect(app).toContain("app --> home : reset");
    expect(checkGrammar(app)).toEqual([]);
  });

  it("returns the same text for the same machine", () => {
    expect(toMermaid(signInMachine)).toBe(source);
  });
});
