/**
 * The list of a person's sessions ("Your devices"): listSessions with what each session recorded at
 * sign-in, and deleteSessions, which ends all of one user's sessions but the one kept.
 */
import { describe, expect } from "vitest";
import type { AdapterSession } from "../../types.js";
import { expectSameInstant, extensionTest, type SuiteContext } from "./context.js";
import { sampleSession, unique } from "./fixtures.js";

export function describeSessionLists(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  /** What the core records about a session at sign-in. */
  function info(overrides: Partial<AdapterSession> = {}): Partial<AdapterSession> {
    const at = new Date(Date.now() - 60_000);
    return { createdAt: at, lastSeenAt: at, signInMethod: "github", device: "Firefox on Windows", clientAddress: "203.0.113.7", ...overrides };
  }

  async function alive(session: AdapterSession): Promise<boolean> {
    return (await method("getSessionAndUser")(session.sessionToken)) !== null;
  }

  const tokensOf = (sessions: AdapterSession[]): string[] => sessions.map((s) => s.sessionToken).sort();

  describe("session lists and deleteSessions (extension)", () => {
    extensionTest(ctx, ["listSessions"], "lists every session of a user with what was recorded at sign-in, and none of another user's", async () => {
      const [ada, bob] = [await createdUser(), await createdUser()];
      const recorded = info({ clientAddress: "2001:db8:1:2::/64" });
      const mine = [
        await method("createSession")(sampleSession(ada.id, recorded)),
        await method("createSession")(sampleSession(ada.id, info({ signInMethod: "email", device: "Safari on iOS" }))),
      ];
      await method("createSession")(sampleSession(bob.id, info()));

      const listed = await method("listSessions")(ada.id);
      expect(tokensOf(listed)).toEqual(tokensOf(mine));
      const first = listed.find((s) => s.sessionToken === mine[0]!.sessionToken)!;
      expect(first).toMatchObject({ userId: ada.id, signInMethod: "github", device: "Firefox on Windows", clientAddress: "2001:db8:1:2::/64" });
      expectSameInstant(first.createdAt, recorded.createdAt!);
      expectSameInstant(first.lastSeenAt, recorded.lastSeenAt!);
      expectSameInstant(first.expires, mine[0]!.expires);
    });

    extensionTest(ctx, ["listSessions"], "lists nothing for a user without sessions, or for an id no user has", async () => {
      expect(await method("listSessions")((await createdUser()).id)).toEqual([]);
      expect(await method("listSessions")(`nobody-${unique()}`)).toEqual([]);
    });

    extensionTest(ctx, ["listSessions"], "lists a session created without recorded details, with none", async () => {
      const user = await createdUser();
      await method("createSession")(sampleSession(user.id));
      const [listed] = await method("listSessions")(user.id);
      expect(listed?.userId).toBe(user.id);
      expect(listed?.createdAt ?? null).toBeNull();
      expect(listed?.device ?? null).toBeNull();
    });

    extensionTest(ctx, ["listSessions"], "shows when a session was last seen after it was extended", async () => {
      const user = await createdUser();
      const session = await method("createSession")(sampleSession(user.id, info()));
      const seen = new Date();
      await method("updateSession")({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 90 * 86_400_000), lastSeenAt: seen });
      const [listed] = await method("listSessions")(user.id);
      expectSameInstant(listed?.lastSeenAt, seen);
      expect(listed?.signInMethod).toBe("github");
    });

    extensionTest(ctx, ["listSessions"], "no longer lists a session that was deleted", async () => {
      const user = await createdUser();
      const [ended, kept] = [await method("createSession")(sampleSession(user.id)), await method("createSession")(sampleSession(user.id))];
      await method("deleteSession")(ended.sessionToken);
      expect(tokensOf(await method("listSessions")(user.id))).toEqual([kept.sessionToken]);
    });

    extensionTest(ctx, ["deleteSessions", "listSessions"], "deletes every session of a user but the one kept, and no one else's", async () => {
      const [ada, bob] = [await createdUser(), await createdUser()];
      const kept = await method("createSession")(sampleSession(ada.id, info()));
      const ended = [await method("createSession")(sampleSession(ada.id)), await method("createSession")(sampleSession(ada.id, info()))];
      const bobs = await method("createSession")(sampleSession(bob.id));

      expect(await method("deleteSessions")(ada.id, { except: kept.sessionToken })).toBe(2);
      for (const session of ended) expect(await alive(session)).toBe(false);
      expect(await alive(kept)).toBe(true);
      expect(await alive(bobs)).toBe(true);
      expect(tokensOf(await method("listSessions")(ada.id))).toEqual([kept.sessionToken]);
    });

    extensionTest(ctx, ["deleteSessions"], "deletes every session of a user when none is kept, and counts none the second time", async () => {
      const user = await createdUser();
      const sessions = [await method("createSession")(sampleSession(user.id)), await method("createSession")(sampleSession(user.id))];
      expect(await method("deleteSessions")(user.id)).toBe(2);
      for (const session of sessions) expect(await alive(session)).toBe(false);
      expect(await method("deleteSessions")(user.id)).toBe(0);
    });

    extensionTest(ctx, ["deleteSessions"], "keeps nothing of another user's when the token to keep is theirs", async () => {
      const [ada, bob] = [await createdUser(), await createdUser()];
      const adas = await method("createSession")(sampleSession(ada.id));
      const bobs = await method("createSession")(sampleSession(bob.id));
      expect(await method("deleteSessions")(ada.id, { except: bobs.sessionToken })).toBe(1);
      expect(await alive(adas)).toBe(false);
      expect(await alive(bobs)).toBe(true);
    });
  });
}
