/**
 * The database strategy's `session` callback gets what Auth.js passes (the stored user whole, and
 * the record's `userId` and `sessionToken`), so Auth.js callbacks that read them keep working; what
 * it returns reaches the browser without the session token.
 */
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { Session } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

async function signedInWithDatabaseSessions(session: NonNullable<NonNullable<Parameters<typeof testConfig>[0]>["callbacks"]>["session"]) {
  const adapter = MemoryAdapter();
  await adapter.createUser({ ...ADA, emailVerified: null });
  const client = new TestClient(testConfig({ adapter, callbacks: { session } }));
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  return client;
}

describe("the database strategy's session callback", () => {
  it("receives session.user.id, session.userId and session.sessionToken, as in Auth.js", async () => {
    const seen: Array<{ userId?: unknown; sessionToken?: unknown; userIdOfUser?: unknown; email?: unknown }> = [];
    const client = await signedInWithDatabaseSessions(({ session, user }) => {
      seen.push({ userId: session.userId, sessionToken: session.sessionToken, userIdOfUser: session.user.id, email: user.email });
      return session;
    });
    await client.session();
    expect(seen).toEqual([{ userId: ADA.id, sessionToken: client.cookie(SESSION_COOKIE), userIdOfUser: ADA.id, email: ADA.email }]);
  });

  it("never hands the session token to the browser, even when the callback returns the session it got", async () => {
    const client = await signedInWithDatabaseSessions(({ session }) => session);
    const shown = (await client.session()) as Session & Record<string, unknown>;
    expect(shown).toMatchObject({ user: { id: ADA.id, email: ADA.email }, userId: ADA.id });
    expect(JSON.stringify(shown)).not.toContain(client.cookie(SESSION_COOKIE)!);
  });

  it("keeps the Auth.js idiom working: session.user.id = user.id", async () => {
    const client = await signedInWithDatabaseSessions(({ session, user }) => {
      session.user.id = user.id;
      return { user: session.user, expires: session.expires };
    });
    expect(await client.session()).toMatchObject({ user: { id: ADA.id } });
  });
});
