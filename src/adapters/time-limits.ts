/**
 * The time limits of the shipped adapters: every call is bounded (`boundCalls`), so a store that
 * accepts a connection and never answers costs a request that long, not forever. A call that runs
 * out of time fails with `StoreUnavailable`, the store fault the core reports (see adapter-faults.ts).
 */
import { StoreUnavailable } from "../errors.js";

/** The time limit of each store call when none is configured, in milliseconds. */
export const DEFAULT_STORE_TIMEOUT_MS = 5000;

/** The options every shipped adapter takes for its time limits. */
export interface StoreTimeoutOptions {
  /**
   * How long one adapter call (its queries, and a connection it has to make) may take, in
   * milliseconds, before it fails with `StoreUnavailable`. Default 5000. `0` turns the limit off.
   */
  timeout?: number;
}

/** The configured time limit, checked: a non-negative finite number of milliseconds. */
export function storeTimeoutOf(owner: string, options: StoreTimeoutOptions | undefined): number {
  const timeout = options?.timeout ?? DEFAULT_STORE_TIMEOUT_MS;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0) {
    throw new TypeError(`${owner}: options.timeout must be a number of milliseconds (0 for none)`);
  }
  return timeout;
}

type Methods = Record<string, unknown>;

/** A copy of `calls` whose methods each wrap the original with `wrap(name, original)`; other fields are kept. */
function wrapMethods<T extends object>(calls: T, wrap: (name: string, method: (...args: unknown[]) => unknown) => unknown): T {
  const wrapped: Methods = {};
  for (const [name, value] of Object.entries(calls as Methods)) {
    wrapped[name] = typeof value === "function" ? wrap(name, (value as (...args: unknown[]) => unknown).bind(calls)) : value;
  }
  return wrapped as T;
}

/**
 * `adapter` with every method held to `timeout` ms: a call that has not settled by then rejects with
 * `StoreUnavailable` (its work may still finish in the store; what it writes is whole, as each write
 * is one statement, script or transaction). `label` names the adapter in the message.
 */
export function boundCalls<T extends object>(adapter: T, timeout: number, label: string): T {
  if (timeout === 0) return adapter;
  return wrapMethods(adapter, (name, method) => (...args: unknown[]) =>
    withinTime(Promise.resolve().then(() => method(...args)), timeout, `${label}: ${name}`),
  );
}

/** `work`, or `StoreUnavailable` once `timeout` ms have passed without it settling (0: no limit). */
export function withinTime<T>(work: Promise<T>, timeout: number, what: string): Promise<T> {
  if (timeout === 0) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailable(`${what} did not answer within ${timeout} ms.`)), timeout);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
