/**
 * Model-based tests of an application's auth code: `walkFlow` walks every path of a flow from
 * `appauth/machines` (the paths come from `xstate/graph`'s `getSimplePaths`) and runs the
 * application's own effects (its `signIn`, `jwt`, `session` callbacks wrapped as the flow's effects)
 * for real wherever a path reaches them, once for each distinct input a path gives them. What the
 * world answers (a lookup, a remote call) is scripted: each outcome listed is one more branch.
 * A nested flow (the shared sign-in completion) is walked the same way, its paths nested in its parent's.
 *
 * The walk needs no server, no store and no clock; it never runs an effect it was not given.
 */
import type { AnyActorRef, AnyEventObject, AnyStateMachine, InputFrom, Snapshot } from "xstate";
import { getSimplePaths } from "xstate/graph";

/** One answer an effect may give: a value, or a failure. */
export type EffectOutcome = { output: unknown } | { error: unknown };

/** An application effect: called with the input the flow computed on the path, its result drives the path on. */
export type AppEffect = (input: never) => unknown;

export interface WalkFlowOptions<M extends AnyStateMachine> {
  /** The flow's input. */
  input: InputFrom<M>;
  /** The application's own effects by name (`signInCallback`, `issueSession`, ...), run for real. */
  app?: Record<string, AppEffect>;
  /** Effects the world answers, by name: every outcome listed is a branch of the walk. */
  world?: Record<string, EffectOutcome[]>;
}

/** One effect a path ran through, and how it answered on that path. */
export interface FlowStep {
  /** The machine (`credentialsSignIn`, `signInCompletion`, ...) and the state the effect ran in. */
  machine: string;
  /** The state of that machine the effect ran in. */
  state: string;
  /** The effect's name (`authorize`, `signInCallback`, `createUser`). */
  effect: string;
  /** What the flow gave the effect. */
  input: unknown;
  /** How it answered on this path: a value it returned, or an error it threw. */
  outcome: EffectOutcome;
  /** The application's effect (true) or a scripted answer of the world (false). */
  own: boolean;
}

export interface FlowPath {
  /** The effects and their answers in order, as one line: `authorize → {"id":"u1"} · signInCallback → true`. */
  name: string;
  /** The final state the path ends in. */
  finalState: string;
  /** The flow's output at that state. */
  output: unknown;
  /** The effects the path ran through, in order, with their answers. */
  steps: FlowStep[];
  /** The application's effects that threw on this path (a callback that breaks on some input). */
  failures: { effect: string; input: unknown; error: unknown }[];
}

export interface FlowWalk {
  /** Every path the walk took, one per combination of answers. */
  paths: FlowPath[];
  /** The final states of the machine that no path reached with these effects and answers. */
  unreached: string[];
}

interface Answer {
  outcome: EffectOutcome;
  own: boolean;
  /** For a nested flow: the steps of its path that gave this answer. */
  steps?: FlowStep[];
}

interface StepInfo {
  machine: string;
  state: string;
  effect: string;
  input: unknown;
  answer: Answer;
}

const MAX_ROUNDS = 64;

function stateName(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function summary(outcome: EffectOutcome): string {
  if ("error" in outcome) return `threw ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`;
  const text = JSON.stringify(outcome.output) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function finalStatesOf(machine: AnyStateMachine): string[] {
  const finals: string[] = [];
  const visit = (node: { type: string; key: string; states: Record<string, unknown> }, depth: number): void => {
    if (node.type === "final" && depth === 1) finals.push(node.key);
    for (const child of Object.values(node.states)) visit(child as typeof node, depth + 1);
  };
  visit(machine.root as unknown as { type: string; key: string; states: Record<string, unknown> }, 0);
  return finals;
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === "object" && logic !== null && "root" in logic && "config" in logic;
}

/**
 * Walks every path of `machine` with the application's effects and the world's scripted answers.
 * Throws a `TypeError` naming an effect that a path reaches and that is neither in `app` nor in `world`.
 */
export async function walkFlow<M extends AnyStateMachine>(machine: M, options: WalkFlowOptions<M>): Promise<FlowWalk> {
  const answers = new Map<string, Answer[]>();
  return walkMachine(machine, options.input, options, answers);
}

async function walkMachine(
  machine: AnyStateMachine,
  input: unknown,
  options: Omit<WalkFlowOptions<AnyStateMachine>, "input">,
  answers: Map<string, Answer[]>,
): Promise<FlowWalk> {
  const infos = new WeakMap<AnyEventObject, StepInfo>();
  const events = new Map<string, AnyEventObject[]>();

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const pending = new Map<string, { src: string; input: unknown; logic: unknown }>();
    const paths = getSimplePaths(machine, {
      input,
      events: (snapshot) => {
        const out: AnyEventObject[] = [];
        const state = stateName((snapshot as { value?: unknown }).value);
        for (const [id, child] of Object.entries((snapshot as { children?: Record<string, AnyActorRef> }).children ?? {})) {
          const src = String(child.src);
          const childInput = (child as unknown as { options: { input?: unknown } }).options.input;
          const key = `${src}:${id}:${JSON.stringify(childInput)}`;
          const world = options.world?.[src];
          const known = world ? world.map((outcome) => ({ outcome, own: false })) : answers.get(key);
          if (!known) {
            pending.set(key, { src, input: childInput, logic: (child as unknown as { logic: unknown }).logic });
            continue;
          }
          let made = events.get(`${state}|${key}`);
          if (!made) {
            made = known.map((answer) => {
              const event =
                "error" in answer.outcome
                  ? { type: `xstate.error.actor.${id}`, error: answer.outcome.error }
                  : { type: `xstate.done.actor.${id}`, output: answer.outcome.output, actorId: id };
              infos.set(event, { machine: machine.id, state, effect: src, input: childInput, answer });
              return event;
            });
            events.set(`${state}|${key}`, made);
          }
          out.push(...made);
        }
        return out;
      },
      toState: (snapshot) => (snapshot as Snapshot<unknown>).status === "done",
    });

    if (pending.size === 0) {
      const walked = paths.map((path) => toFlowPath(path.state, path.steps, infos));
      const reached = new Set(walked.map((p) => p.finalState));
      return { paths: walked, unreached: finalStatesOf(machine).filter((s) => !reached.has(s)) };
    }
    for (const [key, { src, input: effectInput, logic }] of pending) {
      answers.set(key, await answer(src, effectInput, logic, options, answers));
    }
  }
  throw new Error(`walkFlow: ${machine.id} did not settle after ${MAX_ROUNDS} rounds (does a path loop through an effect?)`);
}

async function answer(
  src: string,
  input: unknown,
  logic: unknown,
  options: Omit<WalkFlowOptions<AnyStateMachine>, "input">,
  answers: Map<string, Answer[]>,
): Promise<Answer[]> {
  const own = options.app?.[src];
  if (own) {
    try {
      return [{ outcome: { output: await own(input as never) }, own: true }];
    } catch (error) {
      return [{ outcome: { error }, own: true }];
    }
  }
  if (isMachine(logic)) {
    const nested = await walkMachine(logic, input, options, answers);
    return nested.paths.map((path) => ({ outcome: { output: path.output }, own: false, steps: path.steps }));
  }
  throw new TypeError(`walkFlow: the effect "${src}" is reached but is in neither options.app nor options.world`);
}

function toFlowPath(state: Snapshot<unknown>, steps: { event: AnyEventObject }[], infos: WeakMap<AnyEventObject, StepInfo>): FlowPath {
  const flat: FlowStep[] = [];
  for (const { event } of steps) {
    const info = infos.get(event);
    if (!info) continue;
    if (info.answer.steps) flat.push(...info.answer.steps);
    else flat.push({ machine: info.machine, state: info.state, effect: info.effect, input: info.input, outcome: info.answer.outcome, own: info.answer.own });
  }
  const failures = flat
    .filter((step) => step.own && "error" in step.outcome)
    .map((step) => ({ effect: step.effect, input: step.input, error: (step.outcome as { error: unknown }).error }));
  const s = state as Snapshot<unknown> & { value?: unknown; output?: unknown };
  return {
    name: flat.map((step) => `${step.effect} → ${summary(step.outcome)}`).join(" · "),
    finalState: stateName(s.value),
    output: s.output,
    steps: flat,
    failures,
  };
}
