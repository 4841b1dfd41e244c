/**
 * What the parts of the conformance suite share: the adapter under test, two assertions, and the three
 * kinds of test, each titled by what it checks so an adapter author sees what is required:
 *
 * - `Auth.js contract: …` — what every Auth.js adapter does (the published `@auth/*` adapters pass).
 *   `Auth.js contract (optional m): …` needs an optional Auth.js method (getAccount, unlinkAccount,
 *   deleteUser, the WebAuthn authenticator methods).
 * - `appauth rule: …` — appauth's stricter rules (the adapter keeps the ids it is given, unique emails and
 *   provider accounts are refused twice, one concurrent use of a verification token wins, …).
 * - `extension m: …` — appauth's optional extension methods, used for token refresh across processes,
 *   back-channel logout and atomic sign-up.
 */
import { expect, it } from "vitest";
import type { AdapterUser } from "../../types.js";
import type { ExtendedAdapter } from "../extensions.js";

export type Method = keyof Required<ExtendedAdapter>;
export type Bound<M extends Method> = NonNullable<ExtendedAdapter[M]>;

/**
 * Which checks run. `authjs`: the Auth.js contract; its optional methods when the adapter has them;
 * appauth's rules listed as skipped. `appauth`: everything, the optional Auth.js methods required.
 */
export type ConformanceLevel = "authjs" | "appauth";

/** The extensions' tests: required (a missing method fails), run when the adapter has them, or off. */
export type ExtensionChecks = "required" | "when-present" | "off";

export interface SuiteContext {
  level: ConformanceLevel;
  extensions: ExtensionChecks;
  /** The adapter, once built (undefined while `setup` runs or after it failed). */
  adapter(): ExtendedAdapter | undefined;
  /** A contract method bound to the adapter; throws, naming it, when the adapter lacks it. */
  method<M extends Method>(name: M): Bound<M>;
  /** Creates a sample user through the adapter (which may give it an id of its own). */
  createdUser(overrides?: Partial<AdapterUser>): Promise<AdapterUser>;
}

type Body = () => Promise<void>;

function missing(ctx: SuiteContext, methods: readonly Method[]): Method[] {
  const adapter = ctx.adapter() as Record<string, unknown> | undefined;
  return methods.filter((m) => typeof adapter?.[m] !== "function");
}

/** Whether a test checks the optional Auth.js method `m` too: always at the appauth level, else where the adapter has it. */
export function checksOptional(ctx: SuiteContext, m: Method): boolean {
  return ctx.level === "appauth" || missing(ctx, [m]).length === 0;
}

/**
 * An Auth.js contract test. `optional` names the optional Auth.js methods it needs: at the `authjs`
 * level the test is skipped when the adapter lacks one; at the `appauth` level they are required.
 */
export function contractTest(ctx: SuiteContext, title: string, body: Body, optional: readonly Method[] = []): void {
  const label = optional.length ? `Auth.js contract (optional ${optional.join(", ")}): ${title}` : `Auth.js contract: ${title}`;
  it(label, async ({ skip }) => {
    const absent = ctx.level === "authjs" ? missing(ctx, optional) : [];
    if (absent.length) return skip(`optional in Auth.js, not implemented: ${absent.join(", ")}`);
    await body();
  });
}

/** One of appauth's stricter rules: run at the `appauth` level, listed as skipped at the `authjs` level. */
export function ruleTest(ctx: SuiteContext, title: string, body: Body): void {
  const label = `appauth rule: ${title}`;
  if (ctx.level === "authjs") it.skip(label, () => undefined);
  else it(label, body);
}

/**
 * A test of appauth's extension `methods[0]` (the others are what the test also needs). Skipped when
 * the extensions are off, or when they are checked only where present and the adapter lacks one.
 */
export function extensionTest(
  ctx: SuiteContext,
  methods: readonly [Method, ...Method[]],
  title: string,
  body: (test: { skip(note: string): void }) => Promise<void>,
): void {
  const label = `extension ${methods[0]}: ${title}`;
  if (ctx.extensions === "off") {
    it.skip(label, () => undefined);
    return;
  }
  it(label, async ({ skip }) => {
    const absent = ctx.extensions === "when-present" ? missing(ctx, methods) : [];
    if (absent.length) return skip(`extension not implemented: ${absent.join(", ")}`);
    await body({ skip });
  });
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
