/** What the parts of the conformance suite share: the adapter under test and two assertions. */
import { expect } from "vitest";
import type { AdapterUser } from "../../types.js";
import type { ExtendedAdapter } from "../extensions.js";

export type Method = keyof Required<ExtendedAdapter>;
export type Bound<M extends Method> = NonNullable<ExtendedAdapter[M]>;

export interface SuiteContext {
  /** The adapter, once built (undefined while `setup` runs or after it failed). */
  adapter(): ExtendedAdapter | undefined;
  /** A contract method bound to the adapter; throws, naming it, when the adapter lacks it. */
  method<M extends Method>(name: M): Bound<M>;
  /** Creates a sample user through the adapter. */
  createdUser(overrides?: Partial<AdapterUser>): Promise<AdapterUser>;
}

/** Dates must come back as Dates, equal to what was stored to the second at least. */
export function expectSameInstant(actual: unknown, expected: Date): void {
  expect(actual).toBeInstanceOf(Date);
  expect(Math.abs((actual as Date).getTime() - expected.getTime())).toBeLessThan(1000);
}

/** Runs a call that may throw synchronously or return a plain value, as a promise. */
export function attempt<T>(call: () => T): Promise<Awaited<T>> {
  return Promise.resolve().then(call) as Promise<Awaited<T>>;
}
