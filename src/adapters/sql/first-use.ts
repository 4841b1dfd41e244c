/**
 * The schema on first use, for the per-driver entries (`appauth/adapters/sqlite`, `.../postgres`,
 * `.../mysql`): in development an application works from its first request, with no migration step
 * to learn first; in production the schema changes only when someone runs `await adapter.migrate()`
 * (a deploy step), never as a side effect of a visitor's request.
 */
import { processEnv } from "../../config/env.js";
import type { OwnedSqlAdapter } from "./owned.js";
import { storeTimeoutOf, withinTime, type StoreTimeoutOptions } from "../time-limits.js";

export interface FirstUseOptions extends StoreTimeoutOptions {
  /**
   * Creates or updates the tables before the adapter's first call (once per adapter; a failed
   * attempt is tried again by the next call). Default: `true` unless `NODE_ENV` is `"production"`.
   */
  migrate?: boolean;
}

/** `adapter` as `options` ask: unchanged, or with every method waiting for `migrate()` to have succeeded once. */
export function withFirstUseMigration(adapter: OwnedSqlAdapter, options: FirstUseOptions): OwnedSqlAdapter {
  if (options.migrate !== undefined && typeof options.migrate !== "boolean") {
    throw new TypeError("options.migrate must be a boolean");
  }
  if (!(options.migrate ?? processEnv().NODE_ENV !== "production")) return adapter;
  // The first call waits for the schema no longer than any call may take.
  const timeout = storeTimeoutOf("options", options);
  let migrated: Promise<void> | undefined;
  const migrateOnce = (): Promise<void> =>
    (migrated ??= adapter.migrate().catch((error: unknown) => {
      // The database may come back (a restart, a lock held by a peer): the next call tries again.
      migrated = undefined;
      throw error;
    }));
  const wrapped: Record<string, unknown> = { ...adapter, migrate: migrateOnce };
  for (const [name, member] of Object.entries(adapter)) {
    if (typeof member !== "function" || name === "migrate" || name === "destroy") continue;
    const method = member as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = async (...args: unknown[]) => {
      await withinTime(migrateOnce(), timeout, "migrate (on first use)");
      return method(...args);
    };
  }
  return wrapped as unknown as OwnedSqlAdapter;
}
