/**
 * A real adapter watched: every method call goes through to it, and its name is recorded in order,
 * so a test can say which store operations a flow reached (a destructive one, say) without faking any.
 */
import type { Adapter } from "../../src/types.js";

export type AdapterCalls = string[];

/** The adapter's methods that take something away: a user, an account, sessions, passkeys. */
export const DESTRUCTIVE_METHODS = ["deleteUser", "unlinkAccount", "deleteSession", "deleteSessionsByAccount", "claimUnverifiedUser"] as const;

export function spiedAdapter<A extends Adapter>(adapter: A, calls: AdapterCalls): A {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || typeof name !== "string") return value;
      return (...args: unknown[]) => {
        calls.push(name);
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The destructive calls among `calls`, in order. */
export function destructive(calls: AdapterCalls): string[] {
  return calls.filter((name) => (DESTRUCTIVE_METHODS as readonly string[]).includes(name));
}
