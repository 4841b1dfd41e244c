/** Database sessions: the joined read, extending, deleting. */
import { describe, expect } from "vitest";
import { attempt, contractTest, expectSameInstant, ruleTest, type SuiteContext } from "./context.js";
import { daysFromNow, sampleSession, unique } from "./fixtures.js";

export function describeSessions(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("sessions", () => {
    contractTest(ctx, "creates a session and reads it back joined with its user", async () => {
      const user = await createdUser();
      const session = sampleSession(user.id);
      const created = await method("createSession")(session);
      expect(created).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
      expectSameInstant(created.expires, session.expires);

      const found = await method("getSessionAndUser")(session.sessionToken);
      expect(found?.session).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
      expectSameInstant(found?.session.expires, session.expires);
      expect(found?.user).toMatchObject({ id: user.id, email: user.email, name: user.name, image: user.image });
      expectSameInstant(found?.user.emailVerified, user.emailVerified as Date);
    });

    contractTest(ctx, "answers null for an unknown session token", async () => {
      expect(await method("getSessionAndUser")(`st-${unique()}`)).toBeNull();
    });

    contractTest(ctx, "extends a session's expiry", async () => {
      const user = await createdUser();
      const session = sampleSession(user.id, { expires: daysFromNow(1) });
      await method("createSession")(session);
      const later = daysFromNow(30);
      const updated = await method("updateSession")({ sessionToken: session.sessionToken, expires: later });
      if (updated) {
        expect(updated).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
        expectSameInstant(updated.expires, later);
      }
      const found = await method("getSessionAndUser")(session.sessionToken);
      expectSameInstant(found?.session.expires, later);
      expect(found?.user.id).toBe(user.id);
    });

    ruleTest(ctx, "answers null or undefined when updating an unknown session", async () => {
      const result = await method("updateSession")({ sessionToken: `st-${unique()}`, expires: daysFromNow(1) });
      expect(result ?? null).toBeNull();
    });

    contractTest(ctx, "deletes a session so it can no longer be read", async () => {
      const user = await createdUser();
      const session = sampleSession(user.id);
      await method("createSession")(session);
      await method("deleteSession")(session.sessionToken);
      expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
      expect(await method("getUser")(user.id)).toMatchObject({ id: user.id });
    });

    contractTest(ctx, "deletes an unknown session without failing", async () => {
      await expect(attempt(() => method("deleteSession")(`st-${unique()}`))).resolves.not.toThrow();
    });

    contractTest(ctx, "keeps the other sessions of a user when one is deleted", async () => {
      const user = await createdUser();
      const [first, second] = [sampleSession(user.id), sampleSession(user.id)];
      await method("createSession")(first);
      await method("createSession")(second);
      await method("deleteSession")(first.sessionToken);
      expect(await method("getSessionAndUser")(second.sessionToken)).toMatchObject({ user: { id: user.id } });
    });
  });
}
