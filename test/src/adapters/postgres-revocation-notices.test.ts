/**
 * postgresAdapter's revocation notices when the listening connection drops (src/adapters/sql/
 * postgres-listen.ts): the watcher is told (readers then re-read every second), the connection is
 * made again by itself, and notices flow again — so a database restart or a killed backend costs
 * a second of freshness, never revocations missed for good.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import type { RevocationNotice } from "../../../src/adapters/extensions.js";
import { postgresAvailability, scratchPostgres, type ScratchDatabase } from "./servers.js";

const skip = await postgresAvailability();
/** How long the test waits for something that must happen (a correctness bound, not a speed claim). */
const BOUND_MS = 10_000;

/** Resolves once `check` holds for the notices heard so far; rejects after BOUND_MS. */
function heard(notices: RevocationNotice[], check: (notices: RevocationNotice[]) => boolean): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check(notices)) return resolve();
      if (Date.now() - started > BOUND_MS) return reject(new Error(`not heard within ${BOUND_MS} ms: ${JSON.stringify(notices)}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

(skip === undefined ? describe : describe.skip)("postgresAdapter's revocation notices", () => {
  let scratch: ScratchDatabase;
  let adapter: OwnedSqlAdapter;

  beforeAll(async () => {
    scratch = await scratchPostgres();
    adapter = postgresAdapter(scratch.location);
    await adapter.migrate();
  });

  afterAll(async () => {
    await adapter?.destroy();
    await scratch?.drop();
  });

  it("tell the watcher when the listening connection drops, listen again by themselves, and flow again", async () => {
    const notices: RevocationNotice[] = [];
    const stop = await adapter.watchSessionRevocations((notice) => notices.push(notice));
    try {
      expect(notices).toEqual([{ connected: true }]);
      const { rows } = await sql<{ ended: boolean }>`
        select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and query ilike 'LISTEN%'`.execute(adapter.db);
      expect(rows).toEqual([{ ended: true }]);

      await heard(notices, (all) => all.filter((n) => "connected" in n && n.connected).length === 2);
      expect(notices).toEqual([{ connected: true }, { connected: false }, { connected: true }]);

      const userId = `user-${crypto.randomUUID()}`;
      await adapter.saveSessionRevocation({ userId, revokedAt: new Date(), expires: new Date(Date.now() + 60_000) });
      await heard(notices, (all) => all.some((n) => "userId" in n && n.userId === userId));
    } finally {
      await stop!();
    }
  });
});
