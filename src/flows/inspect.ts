/**
 * What the `inspect` option sees: XState's own inspection events (`@xstate.actor`, `@xstate.event`,
 * `@xstate.snapshot`, ...), so the Stately inspector (`createWebSocketInspector(...).inspect`, the
 * browser and Sky inspectors) takes them as they are. Each event's actor is a stand-in that shows the
 * real actor's ids, parent and machine definition, and whose snapshots, like every event, carry
 * redacted data only: an observer never reaches a live actor, a `Request`, a secret or anything a
 * person typed — data is shown by allowlist (inspect-allowlist.ts), the rest as its type and length. An observer that
 * throws, at once or later from a timer it set while handling an event, is logged and the flow goes on.
 */
import type { AnyActorRef, AnyEventObject, InspectionEvent, Snapshot } from "xstate";
import type { InspectionObserver, LoggerInstance } from "../types.js";
import { allowlistOf } from "./inspect-allowlist.js";

/** Where a value sits: its key, and the key of the object holding it (none at the top). */
interface Place {
  parent?: string;
  key?: string;
}

/** Whether the allowlist shows the value at `place` in clear (inspect-allowlist.ts). */
function shown(allowed: ReadonlySet<string>, { parent, key }: Place): boolean {
  if (key === undefined) return false;
  if (parent === undefined) return allowed.has(key);
  return allowed.has(`${parent}.${key}`) || allowed.has(`${parent}.*`);
}

/** A value an observer may not read, as its type and length: `"[string:23]"`, `"[number]"`. */
function shapeOf(value: unknown): string {
  if (typeof value === "string") return `[string:${value.length}]`;
  return `[${typeof value}]`;
}

/**
 * A deep copy of `value` for an observer: strings and numbers only where the machine's allowlist
 * shows them, booleans and nulls as they are, everything else as its shape. Errors keep their
 * name and type (the library's error classes), never their message.
 */
export function redact(value: unknown, allowed: ReadonlySet<string>, place: Place = {}, depth = 0): unknown {
  if (value === null || value === undefined || typeof value === "boolean") return value;
  if (typeof value !== "object") return (typeof value === "string" || typeof value === "number") && shown(allowed, place) ? value : shapeOf(value);
  if (depth > 8) return "[object]";
  if (value instanceof Request) return { method: value.method, url: "[request]" };
  if (value instanceof URL) return shapeOf(value.href).replace("string", "url");
  if (value instanceof Date) return shown(allowed, place) ? value.toISOString() : "[date]";
  if (value instanceof Map || value instanceof Set) return `[${value.constructor.name}:${value.size}]`;
  if (value instanceof Error) {
    const type = (value as { type?: unknown }).type;
    return { name: value.name, ...(typeof type === "string" ? { type } : {}), message: shapeOf(value.message) };
  }
  // The items of an array sit where the array does: `failures[0].as` is under `failures`.
  if (Array.isArray(value)) return value.map((v) => redact(v, allowed, place, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = redact(v, allowed, { parent: place.key, key }, depth + 1);
  return out;
}

/** An event for an observer: its type as it is (the library's own event names), its data redacted. */
function redactEvent(event: AnyEventObject, allowed: ReadonlySet<string>): AnyEventObject {
  const { type, ...data } = event;
  return { ...(redact(data, allowed) as Record<string, unknown>), type: typeof type === "string" ? type : shapeOf(type) };
}

type Actor = AnyActorRef & { _parent?: AnyActorRef; logic?: { config?: unknown } };

function isActor(value: unknown): value is Actor {
  return typeof value === "object" && value !== null && "sessionId" in value && typeof (value as Actor).getSnapshot === "function";
}

/** The machine an actor runs, or the nearest machine above it (an effect's actor): whose allowlist applies. */
function machineIdOf(actor: Actor | undefined): string | undefined {
  for (let at = actor; at; at = at._parent as Actor | undefined) {
    const id = (at.logic?.config as { id?: unknown } | undefined)?.id;
    if (typeof id === "string") return id;
  }
  return undefined;
}

/** The redacted view of a snapshot: where the actor is (state names) and its data, never the live child actors. */
function redactSnapshot(snapshot: Snapshot<unknown> | undefined, allowed: ReadonlySet<string>): Snapshot<unknown> {
  const s = (snapshot ?? {}) as Record<string, unknown>;
  const children = s.children && typeof s.children === "object" ? Object.keys(s.children) : [];
  return {
    status: s.status,
    value: s.value,
    context: redact(s.context, allowed),
    output: redact(s.output, allowed),
    error: redact(s.error, allowed),
    children: Object.fromEntries(children.map((id) => [id, { id }])),
  } as unknown as Snapshot<unknown>;
}

/** A step's transitions as their event, source and target state ids (the definitions hold the machine). */
function transitionsOf(event: InspectionEvent): unknown[] {
  if (event.type !== "@xstate.microstep") return [];
  return event._transitions.map((t) => ({
    eventType: t.eventType,
    source: t.source.id,
    target: t.target?.map((node) => node.id),
  }));
}

/** Runs `observer` on each event it is handed, shielding the process from what it throws. */
type Shield = (observer: (event: InspectionEvent) => void, event: InspectionEvent) => void;

interface NodeDomain {
  create(): { on(name: "error", listener: (error: unknown) => void): void; run(fn: () => void): void };
}

/**
 * A Node domain catches what a timer set inside it throws (the Stately inspector serialises each event
 * from a `setTimeout`); it is loaded only when an observer is configured, and where `node:domain` is
 * missing (edge runtimes) only what the observer throws at once is caught.
 */
function shield(logger: LoggerInstance): Shield {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const domains = proc?.getBuiltinModule?.("node:domain") as NodeDomain | undefined;
  const report = (error: unknown): void => logger.warn("InspectError", error);
  const zone = domains?.create();
  zone?.on("error", report);
  return (observer, event) => {
    try {
      if (zone) zone.run(() => observer(event));
      else observer(event);
    } catch (error) {
      report(error);
    }
  };
}

/**
 * The XState `inspect` function for a configured observer (a function or an observer object such as
 * a Stately inspector's `inspect`), or undefined when none is configured.
 */
export function inspectionFor(
  observer: InspectionObserver | undefined,
  logger: LoggerInstance,
): ((event: InspectionEvent) => void) | undefined {
  if (!observer) return undefined;
  const next = typeof observer === "function" ? observer : observer.next?.bind(observer);
  if (!next) return undefined;
  const guard = shield(logger);
  const standIns = new WeakMap<AnyActorRef, AnyActorRef>();
  // Unique across the runtimes and processes that may feed one inspector.
  const prefix = `appauth:${globalThis.crypto.randomUUID().slice(0, 8)}`;
  let count = 0;

  /** One stand-in per actor, so `_parent` chains and ids stay consistent across events. */
  function standIn(actor: Actor | undefined): AnyActorRef | undefined {
    if (!actor) return undefined;
    const known = standIns.get(actor);
    if (known) return known;
    // XState numbers the actors of each run from x:0: a stand-in's id is unique across the runs it sees.
    const sessionId = `${prefix}:${++count}`;
    const id = actor.id === actor.sessionId ? sessionId : actor.id;
    const ref = { id, sessionId, src: typeof actor.src === "string" ? actor.src : undefined };
    // Not enumerable: a serialised event does not carry the whole definition or the parent chain again.
    Object.defineProperties(ref, {
      _parent: { get: () => standIn(actor._parent as Actor | undefined) },
      logic: { value: { config: actor.logic?.config } },
      getSnapshot: { value: () => redactSnapshot(actor.getSnapshot() as Snapshot<unknown>, allowlistOf(machineIdOf(actor))) },
      // The observer watches: what it sends is dropped, never delivered to the flow.
      send: { value: () => {} },
    });
    standIns.set(actor, ref as unknown as AnyActorRef);
    return ref as unknown as AnyActorRef;
  }

  function rootOf(actor: Actor): AnyActorRef {
    let root = actor;
    while (root._parent) root = root._parent as Actor;
    return standIn(root)!;
  }

  /** Built-in actions (spawning, stopping a child) take actors as parameters: those become stand-ins. */
  function paramsOf(params: unknown, allowed: ReadonlySet<string>): unknown {
    if (isActor(params)) return standIn(params);
    if (!params || typeof params !== "object" || Array.isArray(params)) return redact(params, allowed);
    return Object.fromEntries(Object.entries(params).map(([key, v]) => [key, isActor(v) ? standIn(v) : redact(v, allowed, { key })]));
  }

  return (event) => {
    const actorRef = standIn(event.actorRef as Actor)!;
    const allowed = allowlistOf(machineIdOf(event.actorRef as Actor));
    const safe: Record<string, unknown> = { type: event.type, rootId: rootOf(event.actorRef as Actor).sessionId, actorRef };
    if ("event" in event) safe.event = redactEvent(event.event, allowed);
    if ("sourceRef" in event) safe.sourceRef = standIn(event.sourceRef as Actor | undefined);
    if ("snapshot" in event) safe.snapshot = redactSnapshot(event.snapshot, allowed);
    if (event.type === "@xstate.microstep") safe._transitions = transitionsOf(event);
    if (event.type === "@xstate.action") safe.action = { type: event.action.type, params: paramsOf(event.action.params, allowed) };
    guard(next, safe as unknown as InspectionEvent);
  };
}
