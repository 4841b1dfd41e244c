/**
 * Names for the parts of a transition as a reader of the diagram knows them: guards and actions by the
 * name the machine gives them in `setup()`, xstate's built-in event types (`xstate.done.actor.…`,
 * `xstate.after.…`) as `done: actor`, `after 5s`.
 */

/** A guard as the machine refers to it: `isValid`, `isValid && !isLocked`, `in(#auth.idle)`. */
export function describeGuard(guard: unknown): string {
  if (typeof guard === "string") return guard;
  if (typeof guard === "function") {
    const fn = guard as { name: string; guards?: unknown[]; stateValue?: unknown };
    if (Array.isArray(fn.guards)) {
      const parts = fn.guards.map((inner) => wrapComposite(inner));
      if (fn.name === "not") return `!${parts[0] ?? ""}`;
      return parts.join(fn.name === "or" ? " || " : " && ");
    }
    if ("stateValue" in fn) {
      const value = fn.stateValue;
      return `in(${typeof value === "string" ? value : JSON.stringify(value)})`;
    }
    return meaningfulName(fn.name, "guard") ?? "inline guard";
  }
  if (isTyped(guard)) return guard.type;
  return "guard";
}

function wrapComposite(guard: unknown): string {
  const text = describeGuard(guard);
  const composite = typeof guard === "function" && Array.isArray((guard as { guards?: unknown[] }).guards);
  const negation = composite && (guard as { name: string }).name === "not";
  return composite && !negation ? `(${text})` : text;
}

/**
 * An action as the machine refers to it, or `undefined` for the bookkeeping xstate adds itself (the
 * raise/cancel pair behind every `after` delay).
 */
export function describeAction(action: unknown): string | undefined {
  if (typeof action === "string") return action;
  if (typeof action === "function") {
    const fn = action as {
      name: string;
      type?: unknown;
      id?: unknown;
      sendId?: unknown;
      event?: unknown;
      to?: unknown;
      src?: unknown;
    };
    if (typeof fn.type !== "string") return meaningfulName(fn.name, "action") ?? "inline action";
    const builtIn = fn.type.startsWith("xstate.") ? fn.type.slice("xstate.".length) : fn.type;
    switch (fn.type) {
      case "xstate.raise":
        if (typeof fn.id === "string" && fn.id.startsWith("xstate.after.")) return undefined;
        return withDetail("raise", eventType(fn.event));
      case "xstate.cancel":
        if (typeof fn.sendId === "string" && fn.sendId.startsWith("xstate.after.")) return undefined;
        return withDetail("cancel", typeof fn.sendId === "string" ? fn.sendId : undefined);
      case "xstate.emit":
        return withDetail("emit", eventType(fn.event));
      case "xstate.sendTo": {
        const target = typeof fn.to === "string" ? ` to ${fn.to}` : "";
        return `${withDetail("send", eventType(fn.event))}${target}`;
      }
      case "xstate.spawnChild":
        return withDetail("spawn", typeof fn.src === "string" ? fn.src : undefined);
      default:
        return builtIn;
    }
  }
  if (isTyped(action)) return action.type;
  return "action";
}

/** The actions of a transition or an entry/exit list, in order, without xstate's own bookkeeping. */
export function describeActions(actions: readonly unknown[] | undefined): string[] {
  const names: string[] = [];
  for (const action of actions ?? []) {
    const name = describeAction(action);
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** `500` → `500ms`, `15000` → `15s`, `900000` → `15min`; a named delay keeps its name. */
export function describeDelay(delay: unknown): string {
  if (typeof delay === "number") {
    if (delay >= 60_000 && delay % 60_000 === 0) return `${delay / 60_000}min`;
    if (delay >= 1000 && delay % 1000 === 0) return `${delay / 1000}s`;
    return `${delay}ms`;
  }
  if (typeof delay === "string") return delay;
  return "delay";
}

function eventType(event: unknown): string | undefined {
  return isTyped(event) ? event.type : undefined;
}

function withDetail(verb: string, detail: string | undefined): string {
  return detail === undefined ? verb : `${verb} ${detail}`;
}

function isTyped(value: unknown): value is { type: string } {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** Inline functions take their name from the property they were written in, which says nothing. */
function meaningfulName(name: string, propertyName: string): string | undefined {
  if (name === "" || name === propertyName || name === `${propertyName}s` || name === "anonymous") return undefined;
  return name;
}
