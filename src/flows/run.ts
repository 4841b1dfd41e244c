/**
 * Runs one flow: an actor from a machine bound to its effects, observed before it starts and
 * stopped when it ends. Emitted events go to `config.events` (a handler that throws is logged and
 * never breaks the flow), and inspection events reach `config.inspect` with secrets redacted.
 */
import { createActor, type AnyStateMachine, type InspectionEvent, type OutputFrom, type InputFrom } from "xstate";
import type { Runtime } from "../config/runtime.js";
import type { EventCallbacks } from "../types.js";

const SECRET_KEYS = /token|secret|password|credential|verifier|cookie|code|nonce|state|challenge|authorization/i;

/** Compact serialisations (JWT/JWE) and long unbroken runs of token characters (random hex, base64url). */
const SECRET_VALUE = /^ey[\w-]+\.[\w-]*\.|^[A-Za-z0-9_\-+/=|.]{32,}$/;

/**
 * A URL as text with the values of its secret-looking query parameters redacted: a one-time link
 * carries its token there (`/callback/email?token=`), an OAuth callback its `code` and `state`.
 */
function redactUrl(url: URL): string {
  const copy = new URL(url);
  for (const [key, v] of [...copy.searchParams]) {
    if (SECRET_KEYS.test(key) || SECRET_VALUE.test(v)) copy.searchParams.set(key, "[redacted]");
  }
  return copy.href;
}

/**
 * A deep copy of `value` for an observer: every property whose name suggests a secret, and every
 * string that looks like a token (whatever its key: effect outputs carry cookies), is "[redacted]";
 * so is every secret-looking query parameter of a URL.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value)) return "[redacted]";
    return /^https?:\/\/[^?#]*\?/i.test(value) && URL.canParse(value) ? redactUrl(new URL(value)) : value;
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (value instanceof Request) return { method: value.method, url: "[request]" };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof URL) return redactUrl(value);
  if (value instanceof Date) return String(value);
  if (value instanceof Map || value instanceof Set) return `[${value.constructor.name}]`;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Machine state names (e.g. "checkingSignIn") are not secrets: only redact data-bearing keys.
    out[key] = SECRET_KEYS.test(key) && key !== "type" && key !== "value" ? "[redacted]" : redact(v, depth + 1);
  }
  return out;
}

function inspector(rt: Runtime): ((event: InspectionEvent) => void) | undefined {
  const observer = rt.inspect;
  if (!observer) return undefined;
  return (event) => {
    try {
      const safe: Record<string, unknown> = { type: event.type, actorId: (event.actorRef as { id?: string }).id };
      if ("event" in event) safe.event = redact(event.event);
      if ("snapshot" in event) {
        const snapshot = event.snapshot as { value?: unknown; context?: unknown; status?: unknown };
        safe.snapshot = { value: snapshot.value, status: snapshot.status, context: redact(snapshot.context) };
      }
      observer(safe);
    } catch (error) {
      rt.logger.warn("InspectError", error);
    }
  };
}

type EmittedEvent = { type: string; [key: string]: unknown };

async function deliver(rt: Runtime, event: EmittedEvent): Promise<void> {
  const { type, ...message } = event;
  const handler = rt.events[type as keyof EventCallbacks] as ((message: unknown) => unknown) | undefined;
  if (!handler) return;
  try {
    await handler(message);
  } catch (error) {
    rt.logger.error("EventError", `The "${type}" event handler threw; the flow went on.`, error);
  }
}

export interface RunOptions {
  /** Stop when the machine rests in this state (a flow that spans two requests) instead of at its end. */
  until?: string;
  /** Resume a persisted flow: start in `value` with `context`, then send `event`. */
  resume?: { value: string; context: unknown; event: { type: string } };
}

export type RunResult<M extends AnyStateMachine> =
  | { done: true; output: OutputFrom<M> }
  | { done: false; value: string; context: unknown };

/** Runs `machine` with `input` to completion and returns its output. */
export async function runFlow<M extends AnyStateMachine>(rt: Runtime, machine: M, input: InputFrom<M>): Promise<OutputFrom<M>> {
  const result = await runMachine(rt, machine, input, {});
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
  options: RunOptions,
): Promise<RunResult<M>> {
  const deliveries: Promise<void>[] = [];
  const snapshot = options.resume
    ? machine.resolveState({ value: options.resume.value, context: options.resume.context as never })
    : undefined;
  const actorOptions = snapshot ? { snapshot, inspect: inspector(rt) } : { input, inspect: inspector(rt) };
  const actor = createActor(machine, actorOptions as Parameters<typeof createActor<M>>[1]);
  actor.on("*", (event: EmittedEvent) => {
    deliveries.push(deliver(rt, event));
  });
  const finished = new Promise<RunResult<M>>((resolve, reject) => {
    actor.subscribe({
      next: (state) => {
        const value = (state as { value?: unknown }).value;
        if (options.until && value === options.until) {
          resolve({ done: false, value, context: (state as { context?: unknown }).context });
        }
      },
      complete: () => resolve({ done: true, output: (actor.getSnapshot() as { output?: unknown }).output as OutputFrom<M> }),
      error: reject,
    });
  });
  actor.start();
  try {
    if (options.resume) actor.send(options.resume.event as never);
    const result = await finished;
    if (rt.debugEnabled) {
      rt.logger.debug("flow", `${machine.id} ${result.done ? "ended" : "rests"} in ${JSON.stringify((actor.getSnapshot() as { value?: unknown }).value)}`);
    }
    if (deliveries.length) await Promise.all(deliveries);
    return result;
  } finally {
    actor.stop();
  }
}
