/**
 * The session-revocation extension: what makes JWT sessions revocable (src/session/revocation.ts).
 * Records per user ("signed in before T, but one") and per session, read back by user until they
 * expire, and a notice to every watcher when one is saved (where the store can notify).
 */
import { describe, expect } from "vitest";
import type { RevocationNotice, SessionRevocation } from "../extensions.js";
import { extensionTest, type SuiteContext } from "./context.js";
import { unique } from "./fixtures.js";

const METHODS = ["saveSessionRevocation", "getSessionRevocations", "watchSessionRevocations"] as const;
/** How long a notice may take to arrive before the test gives up (a correctness bound, not a speed claim). */
const NOTICE_BOUND_MS = 5_000;

export function describeSessionRevocations(suite: SuiteContext): void {
  // Optional at every level: without it revocations hold in the one process.
  const ctx: SuiteContext = { ...suite, extensions: suite.extensions === "off" ? "off" : "when-present" };
  const { method } = ctx;
  const save = (revocation: SessionRevocation): Promise<void> => method("saveSessionRevocation")(revocation);
  const get = (userId: string) => method("getSessionRevocations")(userId);
  const inAnHour = () => new Date(Date.now() + 3_600_000);

  describe("session revocations (extension)", () => {
    extensionTest(ctx, METHODS, "reads back the sessions revoked one by one, for their user only", async () => {
      const [ada, grace] = [`user-${unique()}`, `user-${unique()}`];
      await save({ userId: ada, sessionId: "s-1", revokedAt: new Date(), expires: inAnHour() });
      await save({ userId: ada, sessionId: "s-2", revokedAt: new Date(), expires: inAnHour() });
      const stored = await get(ada);
      expect(stored.sessionIds.sort()).toEqual(["s-1", "s-2"]);
      expect(stored.revokedBefore).toBeNull();
      expect(await get(grace)).toEqual({ revokedBefore: null, keptSessionId: null, sessionIds: [] });
    });

    extensionTest(ctx, METHODS, "keeps one per-user record, the latest, with the session it spares", async () => {
      const userId = `user-${unique()}`;
      const first = new Date(Date.now() - 60_000);
      await save({ userId, exceptSessionId: "kept", revokedAt: first, expires: inAnHour() });
      expect(await get(userId)).toEqual({ revokedBefore: first, keptSessionId: "kept", sessionIds: [] });
      const second = new Date();
      await save({ userId, revokedAt: second, expires: inAnHour() });
      expect(await get(userId)).toEqual({ revokedBefore: second, keptSessionId: null, sessionIds: [] });
    });

    extensionTest(ctx, METHODS, "forgets a record once it has expired", async () => {
      const userId = `user-${unique()}`;
      const past = new Date(Date.now() - 1);
      await save({ userId, revokedAt: new Date(Date.now() - 60_000), expires: past });
      await save({ userId, sessionId: "gone", revokedAt: new Date(), expires: past });
      await save({ userId, sessionId: "standing", revokedAt: new Date(), expires: inAnHour() });
      expect(await get(userId)).toEqual({ revokedBefore: null, keptSessionId: null, sessionIds: ["standing"] });
    });

    extensionTest(ctx, METHODS, "tells a watcher which user's revocations changed, when the store can notify", async ({ skip }) => {
      const userId = `user-${unique()}`;
      const notices: RevocationNotice[] = [];
      let heard: () => void = () => {};
      const arrived = new Promise<void>((resolve) => (heard = resolve));
      const stop = await method("watchSessionRevocations")((notice) => {
        notices.push(notice);
        if ("userId" in notice && notice.userId === userId) heard();
      });
      if (stop === null) return skip("this store cannot notify (readers poll)");
      try {
        await save({ userId, sessionId: "s-1", revokedAt: new Date(), expires: inAnHour() });
        const bound = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), NOTICE_BOUND_MS).unref());
        expect(await Promise.race([arrived, bound])).not.toBe("late");
        expect(notices).toContainEqual({ connected: true });
      } finally {
        await stop();
      }
    });
  });
}
