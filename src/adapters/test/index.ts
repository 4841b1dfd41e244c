/**
 * The adapter conformance suite: one call registers vitest tests that check an adapter against the
 * spec's contract and appauth's stricter rules (single-use, identifier-bound verification tokens; Dates
 * as Dates; snake_case OAuth values as stored) and appauth's extensions (atomic create-user-and-link;
 * account updates; leases; sessions linked to their provider sign-in). Every adapter that ships
 * with appauth passes it, and a third-party adapter can run it in its own test suite:
 *
 * ```ts
 * import { runAdapterConformance } from "appauth/adapters/test";
 * runAdapterConformance("my adapter", { adapter: () => MyAdapter(db), teardown: () => db.close() });
 * ```
 *
 * Tests share one store and never clean up after themselves: every record they write is unique.
 * vitest is an optional peer dependency of this module only.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Adapter } from "../../types.js";
import type { ExtendedAdapter } from "../extensions.js";
import { describeAccountUpdates } from "./account-updates.js";
import { describeAccounts } from "./accounts.js";
import { describeAuthenticators } from "./authenticators.js";
import type { Bound, Method, SuiteContext } from "./context.js";
import { describeCreateUserAndLinkAccount } from "./create-and-link.js";
import { describeDeleteUser } from "./delete-user.js";
import { sampleUser } from "./fixtures.js";
import { describeLeases } from "./leases.js";
import { describeSessionLinks } from "./session-links.js";
import { describeSessions } from "./sessions.js";
import { describeUsers } from "./users.js";
import { describeVerificationTokens } from "./verification-tokens.js";

export {
  daysFromNow,
  sampleAccount,
  sampleAuthenticator,
  sampleSession,
  sampleToken,
  sampleUser,
  unique,
} from "./fixtures.js";

export interface AdapterConformanceOptions {
  /** The adapter, or a factory called once, after `setup`, before the first test. */
  adapter: Adapter | (() => Adapter | Promise<Adapter>);
  /** Runs before the adapter is built: create a database, start a server. */
  setup?(): Promise<void>;
  /** Runs after the last test: drop the database, close connections. */
  teardown?(): Promise<void>;
  /** When set, the suite is registered but skipped, and this reason shows in the report. */
  skip?: string;
  /**
   * Check appauth's extensions that token refresh and back-channel logout use (updateAccount,
   * acquireLease/releaseLease, sessions linked to their sign-in with deleteSessionsByAccount).
   * Default true; an adapter that does not offer them sets false (the core then refreshes within one
   * process only, and back-channel logout cannot be configured).
   */
  extensions?: boolean;
}

/**
 * Registers the conformance tests for one adapter under `describe(name)`. Every contract method is
 * exercised; a missing one fails its tests with a message naming it. So are the extensions
 * `updateAccount`, `acquireLease`, `releaseLease` and `deleteSessionsByAccount`, which the core needs for
 * token refresh and back-channel logout; `createUserAndLinkAccount` is checked when the adapter has it.
 */
export function runAdapterConformance(name: string, options: AdapterConformanceOptions): void {
  if (options.skip !== undefined) {
    describe.skip(`${name} (skipped: ${options.skip})`, () => {
      it("conforms to the adapter contract", () => undefined);
    });
    return;
  }

  let adapter: ExtendedAdapter | undefined;
  const ctx: SuiteContext = {
    adapter: () => adapter,
    method<M extends Method>(m: M): Bound<M> {
      if (!adapter) throw new Error(`${name}: the adapter was not built (did setup fail?)`);
      const fn = adapter[m];
      if (typeof fn !== "function") throw new Error(`${name} does not implement ${m}()`);
      return (fn as (...args: unknown[]) => unknown).bind(adapter) as Bound<M>;
    },
    async createdUser(overrides = {}) {
      return ctx.method("createUser")(sampleUser(overrides));
    },
  };

  describe(name, () => {
    beforeAll(async () => {
      await options.setup?.();
      adapter = typeof options.adapter === "function" ? await options.adapter() : options.adapter;
    });
    afterAll(async () => {
      await options.teardown?.();
    });

    describeUsers(ctx);
    describeAccounts(ctx);
    describeSessions(ctx);
    describeVerificationTokens(ctx);
    describeAuthenticators(ctx);
    describeDeleteUser(ctx);
    describeCreateUserAndLinkAccount(ctx);
    if (options.extensions !== false) {
      describeAccountUpdates(ctx);
      describeSessionLinks(ctx);
      describeLeases(ctx);
    }
  });
}
