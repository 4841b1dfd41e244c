/**
 * What the `inspect` option sees: XState's own inspection events (`@xstate.actor`, `@xstate.event`,
 * `@xstate.snapshot`, ...), so the Stately inspector (`createWebSocketInspector(...).inspect`, the
 * browser and Sky inspectors) takes them as they are. Each event's actor is a stand-in that shows the
 * real actor's ids, parent and machine definition, and whose snapshots, like every event, carry
 * redacted data only: an observer never reaches a live actor, a `Request` or a secret. An observer that
 * throws, at once or later from a timer it set while handling an event, is logged and the flow goes on.
 */
import type { AnyActorRef, AnyEventObject, InspectionEvent, Snapshot } from "xstate";
import type { InspectionObserver, LoggerInstance } from "../types.js";

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
  if (value instanceof Error) return { name: value.name, message: redact(value.message, depth + 1) };
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Machine state names (e.g. "checkingSignIn") are not secrets: only redact data-bearing keys.
    // An event's or a record's `type` names a kind ("xstate.done.actor.…", "oidc"), however long.
    if (key === "type" && typeof v === "string") out[key] = v;
    else out[key] = SECRET_KEYS.test(key) && key !== "value" ? "[redacted]" : redact(v, depth + 1);
  }
  return out;
}

type Actor = AnyActorRef & { _parent?: AnyActorRef; logic?: { config?: unknown } };

function isActor(value: unknown): value is Actor {
  return typeof value === "object" && value !== null && "sessionId" in value && typeof (value as Actor).getSnapshot === "function";
}

/** The redacted view of a snapshot: where the actor is and its data, never the live child actors. */
function redactSnapshot(snapshot: Snapshot<unknown> | undefined): Snapshot<unknown> {
  const s = (snapshot ?? {}) as Record<string, unknown>;
  const children = s.children && typeof s.children === "object" ? Object.keys(s.children) : [];
  return {
    status: s.status,
    value: s.value,
    context: redact(s.context),
    output: redact(s.output),
    error: redact(s.error),
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
      getSnapshot: { value: () => redactSnapshot(actor.getSnapshot() as Snapshot<unknown>) },
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
  function paramsOf(params: unknown): unknown {
    if (isActor(params)) return standIn(params);
    if (!params || typeof params !== "object" || Array.isArray(params)) return redact(params);
    return Object.fromEntries(Object.entries(params).map(([key, v]) => [key, isActor(v) ? standIn(v) : redact(v)]));
  }

  return (event) => {
    const actorRef = standIn(event.actorRef as Actor)!;
    const safe: Record<string, unknown> = { type: event.type, rootId: rootOf(event.actorRef as Actor).sessionId, actorRef };
    if ("event" in event) safe.event = redact(event.event) as AnyEventObject;
    if ("sourceRef" in event) safe.sourceRef = standIn(event.sourceRef as Actor | undefined);
    if ("snapshot" in event) safe.snapshot = redactSnapshot(event.snapshot);
    if (event.type === "@xstate.microstep") safe._transitions = transitionsOf(event);
    if (event.type === "@xstate.action") safe.action = { type: event.action.type, params: paramsOf(event.action.params) };
    guard(next, safe as unknown as InspectionEvent);
  };
}
