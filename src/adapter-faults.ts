/**
 * The core sees every adapter through `reportingStoreFaults`: whatever an adapter method throws
 * becomes one typed `StoreUnavailable` that names the method and keeps the adapter's error as its
 * cause, so no flow can mistake an outage (or a time limit run out) for the person's fault.
 */
import { AuthError, StoreUnavailable } from "./errors.js";

const reporting = new WeakMap<object, object>();

/**
 * The adapter as the core calls it: a method that throws (or rejects) fails with `StoreUnavailable`
 * naming it, its error kept as `cause`. The library's own errors pass through as they are. A proxy,
 * so the methods an adapter has (own or inherited) are exactly those the core sees.
 */
export function reportingStoreFaults<T extends object>(adapter: T): T {
  const known = reporting.get(adapter);
  if (known) return known as T;
  const methods = new Map<PropertyKey, unknown>();
  const wrapped = new Proxy(adapter, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || typeof name !== "string") return value;
      let method = methods.get(name);
      if (!method) {
        method = async (...args: unknown[]) => {
          try {
            return await (value as (...args: unknown[]) => unknown).apply(target, args);
          } catch (error) {
            if (error instanceof AuthError) throw error;
            const message = error instanceof Error ? error.message : String(error);
            throw new StoreUnavailable(`The adapter's ${name} failed: ${message}`, { cause: error });
          }
        };
        methods.set(name, method);
      }
      return method;
    },
  });
  reporting.set(adapter, wrapped);
  return wrapped;
}
