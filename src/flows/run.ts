/**
 * Runs one flow: an actor from a machine bound to its effects, observed before it starts and
 * stopped when it ends. Emitted events go to `config.events` (a handler that throws is logged and
 * never breaks the flow), and inspection events reach `config.inspect` with secrets redacted (inspect.ts).
 * Work an action started (`finishBeforeAnswering`) is awaited before the flow's answer goes out.
 */
import { createActor, type AnyActorRef, type AnyStateMachine, type OutputFrom, type InputFrom, type ContextFrom } from "xstate";
import type { Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import type { EventCallbacks } from "../types.js";
import { directRefusal, runDirect } from "./direct.js";

type EmittedEvent = { type: string; [key: string]: unknown };

/** Hands an event to its `config.events` handler; a handler that throws is logged, never rethrown. */
export async function deliver(rt: Runtime, event: EmittedEvent): Promise<void> {
  const { type, ...message } = event;
  const handler = rt.events[type as keyof EventCallbacks] as ((message: unknown) => unknown) | undefined;
  if (!handler) return;
  try {
    await handler(message);
  } catch (error) {
    rt.logger.error("EventError", `The "${type}" event handler threw; the flow went on.`, error);
  }
}

/**
 * Work that actions of a running flow started, by the flow's actor system (one per run, shared by
 * the child machines it invokes). Keyed weakly: nothing outlives the run, nothing is shared between
 * runs or configurations.
 */
const unfinishedWork = new WeakMap<AnyActorRef["system"], Promise<void>[]>();

/**
 * Called by an action's implementation with the work it started and that needs no state of its own
 * in the machine (nothing the flow decides waits for it), but must be done when the answer goes out:
 * a later request must find it done, and a serverless platform may freeze the process after the
 * response. The flow goes on meanwhile; `runMachine` awaits the work before it returns. `work` must
 * not reject: it handles (and logs) its own failure; a rejection that escapes is logged here.
 */
export function finishBeforeAnswering(rt: Runtime, self: AnyActorRef, work: Promise<unknown>): void {
  const settled = work.then(
    () => undefined,
    (error: unknown) => rt.logger.error("FlowError", "Work a flow started before answering failed; the flow went on.", error),
  );
  const pending = unfinishedWork.get(self.system);
  if (pending) pending.push(settled);
  else unfinishedWork.set(self.system, [settled]);
}

/**
 * The live request a run serves, by the run's actor system: machines hold only plain data
 * (`RequestFacts`), and an effect that needs what cannot be data (the cookie jar, the `Request` a
 * provider's `authorize` receives) asks for it here with the `system` its actor runs in.
 */
const liveRequests = new WeakMap<object, RequestContext>();

/** The request the run of `system` serves; a run started without one has none to give. */
export function requestOf(system: object): RequestContext {
  const request = liveRequests.get(system);
  if (!request) throw new Error("This flow was run without a request: its effects cannot reach one.");
  return request;
}

export interface RunOptions<Context = unknown> {
  /** The live request this run serves, for the effects that need it (`requestOf`). */
  request?: RequestContext;
  /** Stop when the machine rests in this state (a flow that spans two requests) instead of at its end. */
  until?: string;
  /** Resume a persisted flow: start in `value` with `context`, then send `event`. */
  resume?: { value: string; context: Context; event: { type: string } };
}

export type RunResult<M extends AnyStateMachine> =
  | { done: true; output: OutputFrom<M> }
  | { done: false; value: string; context: ContextFrom<M> };

/** Runs `machine` with `input` to completion and returns its output. */
export async function runFlow<M extends AnyStateMachine>(
  rt: Runtime,
  machine: M,
  input: InputFrom<M>,
  request?: RequestContext,
): Promise<OutputFrom<M>> {
  const result = await runMachine(rt, machine, input, request ? { request } : {});
  if (!result.done) throw new Error(`${machine.id} stopped before its end`);
  return result.output;
}

/**
 * Runs `machine` until it ends or, with `until`, rests in that state; or resumes it from a
 * persisted resting state. Emitted events are delivered (and awaited) before it returns.
 */
export async function runMachine<M extends AnyStateMachine>(
  rt: Runtime,
  machine: M,
  input: InputFrom<M> | undefined,
  options: RunOptions<ContextFrom<M>>,
): Promise<RunResult<M>> {
  const deliveries: Promise<void>[] = [];
  const emitted = (event: EmittedEvent) => void deliveries.push(deliver(rt, event));
  // Nobody watches and the flow runs to its end in this request: the machine's transitions are taken
  // directly (direct.ts), without an actor system. Otherwise, and for machines outside what that
  // runner accepts, an xstate actor runs it.
  const direct = !rt.inspect && !options.until && !options.resume && directRefusal(machine) === null;
  const run = direct ? directRun(machine, input, emitted) : actorRun(rt, machine, input, options, emitted);
  if (options.request) liveRequests.set(run.system, options.request);
  try {
    const result = await run.finished();
    if (rt.debugEnabled) {
      const where = `${result.done ? "ended" : "rests"} in ${JSON.stringify(run.value())}`;
      rt.logger.debug("flow", `${machine.id} ${where} (${direct ? "direct" : "actor"})`);
    }
    if (deliveries.length) await Promise.all(deliveries);
    return result;
  } finally {
    // Also when the flow failed: its answer still goes out only once the started work is done.
    const started = unfinishedWork.get(run.system);
    if (started) await Promise.all(started);
    run.stop();
  }
}

/** One run of a flow, on either runner: what `runMachine` starts, awaits, reports and stops. */
interface Run<M extends AnyStateMachine> {
  /** The key of the run's live request and of the work its actions started. */
  system: AnyActorRef["system"];
  /** Starts the run; settles when it ends or rests. */
  finished(): Promise<RunResult<M>>;
  /** The state it ended or rests in. */
  value(): unknown;
  stop(): void;
}

function directRun<M extends AnyStateMachine>(machine: M, input: unknown, emitted: (event: EmittedEvent) => void): Run<M> {
  const system = {} as AnyActorRef["system"];
  let value: unknown;
  return {
    system,
    finished: async () => {
      const ended = await runDirect(machine, input, { system, emitted });
      value = ended.value;
      return { done: true, output: ended.output as OutputFrom<M> };
    },
    value: () => value,
    stop: () => {},
  };
}

function actorRun<M extends AnyStateMachine>(
  rt: Runtime,
  machine: M,
  input: InputFrom<M> | undefined,
  options: RunOptions<ContextFrom<M>>,
  emitted: (event: EmittedEvent) => void,
): Run<M> {
  const snapshot = options.resume
    ? machine.resolveState({ value: options.resume.value, context: options.resume.context as never })
    : undefined;
  const actorOptions = snapshot ? { snapshot, inspect: rt.inspect } : { input, inspect: rt.inspect };
  const actor = createActor(machine, actorOptions as Parameters<typeof createActor<M>>[1]);
  actor.on("*", emitted);
  return {
    system: actor.system,
    finished: () => {
      const finished = new Promise<RunResult<M>>((resolve, reject) => {
        actor.subscribe({
          next: (state) => {
            const value = (state as { value?: unknown }).value;
            if (options.until && value === options.until) {
              resolve({ done: false, value, context: (state as { context: ContextFrom<M> }).context });
            }
          },
          complete: () => resolve({ done: true, output: (actor.getSnapshot() as { output?: unknown }).output as OutputFrom<M> }),
          error: reject,
        });
      });
      actor.start();
      if (options.resume) actor.send(options.resume.event as never);
      return finished;
    },
    value: () => (actor.getSnapshot() as { value?: unknown }).value,
    stop: () => actor.stop(),
  };
}
