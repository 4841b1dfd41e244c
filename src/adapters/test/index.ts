/**
 * The adapter conformance suite: one call registers vitest tests that check an adapter. Every test's
 * title says what it checks, so an adapter author sees what is required and what is optional:
 *
 * - `Auth.js contract: …` — what every Auth.js adapter does; the published `@auth/*` adapters pass it.
 *   `Auth.js contract (optional getAccount): …` needs a method that is optional in Auth.js (getAccount,
 *   unlinkAccount, deleteUser, the WebAuthn authenticator methods).
 * - `appauth rule: …` — appauth's stricter rules: the adapter keeps the ids it is given; a second user
 *   with the same email, a second link of a provider account, a second authenticator with the same
 *   credential id are refused; one of two concurrent uses of a verification token wins; extra fields
 *   are tolerated; returned records are copies; updating an unknown session answers null.
 * - `extension m: …` — appauth's extensions: atomic create-user-and-link, account updates and leases
 *   (token refresh across processes), sessions linked to their provider sign-in (back-channel logout),
 *   claiming a user nobody verified for the person who proved the address; second factors (TOTP
 *   factors and recovery codes, checked where the adapter has them).
 *
 * ```ts
 * import { runAdapterConformance } from "appauth/adapters/test";
 * // Everything appauth's own adapters pass:
 * runAdapterConformance("my adapter", { adapter: () => MyAdapter(db), teardown: () => db.close() });
 * // An Auth.js adapter: the contract, its optional methods and the extensions where implemented:
 * runAdapterConformance("my Auth.js adapter", { contract: "authjs", adapter: () => MyAuthjsAdapter(db) });
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
import { describeClaims } from "./claims.js";
import type { Bound, ConformanceLevel, ExtensionChecks, Method, SuiteContext } from "./context.js";
import { describeCreateUserAndLinkAccount } from "./create-and-link.js";
import { describeDeleteUser } from "./delete-user.js";
import { sampleUser } from "./fixtures.js";
import { describeLeases } from "./leases.js";
import { describeRateLimits } from "./rate-limits.js";
import { describeSessionLinks } from "./session-links.js";
import { describeSessionLists } from "./session-lists.js";
import { describeSessionRevocations } from "./session-revocations.js";
import { describeSessions } from "./sessions.js";
import { describeUsers } from "./users.js";
import { describeTwoFactor } from "./two-factor.js";
import { describeVerificationTokens } from "./verification-tokens.js";

export type { ConformanceLevel } from "./context.js";

export { sampleTotpFactor } from "./two-factor.js";

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
   * What is checked. `"appauth"` (default): the Auth.js contract with its optional methods required,
   * appauth's stricter rules, and the extensions. `"authjs"`: the Auth.js contract only; a test that
   * needs an optional Auth.js method is skipped when the adapter lacks it, appauth's rules are listed
   * as skipped, and the extensions are checked where the adapter implements them.
   */
  contract?: ConformanceLevel;
  /**
   * Check appauth's extensions that token refresh and back-channel logout use (updateAccount,
   * acquireLease/releaseLease, sessions linked to their sign-in with deleteSessionsByAccount), and
   * claimUnverifiedUser (a sign-in proving the address of a user nobody verified).
   * true: required, a missing one fails (the default at the `appauth` level). false: not checked (the
   * core then refreshes within one process only, and back-channel logout cannot be configured).
   * The rate limiter's counters (hitRateLimit/resetRateLimit) are checked where the adapter has them, at every level.
   */
  extensions?: boolean;
}

function extensionChecks(options: AdapterConformanceOptions): ExtensionChecks {
  if (options.extensions === false) return "off";
  if (options.extensions === true || options.contract !== "authjs") return "required";
  return "when-present";
}

/**
 * Registers the conformance tests for one adapter under `describe(name)`. Every contract method is
 * exercised; a missing required one fails its tests with a message naming it. The extensions
 * `updateAccount`, `acquireLease`, `releaseLease` and `deleteSessionsByAccount`, which the core needs for
 * token refresh and back-channel logout, and `claimUnverifiedUser`, which a proof of an address nobody
 * verified needs, are required at the `appauth` level unless `extensions: false`;
 * `createUserAndLinkAccount` is checked when the adapter has it. See the module's notes for the titles.
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
    level: options.contract ?? "appauth",
    extensions: extensionChecks(options),
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
    describeClaims(ctx);
    describeAccountUpdates(ctx);
    describeSessionLinks(ctx);
    describeSessionLists(ctx);
    describeLeases(ctx);
    describeRateLimits(ctx);
    describeSessionRevocations(ctx);
    describeTwoFactor(ctx);
  });
}
