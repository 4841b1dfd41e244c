/**
 * The claimUnverifiedUser extension: the person who proved an address gets its unverified user, same id,
 * with nothing attached before the proof, in one step.
 */
import { describe, expect } from "vitest";
import { expectSameInstant, extensionTest, type SuiteContext } from "./context.js";
import { sampleAccount, sampleAuthenticator, sampleSession } from "./fixtures.js";

export function describeClaims(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("claiming a user nobody verified (extension)", () => {
    extensionTest(ctx, ["claimUnverifiedUser"], "keeps the user and their id, marks the address verified and detaches accounts, passkeys and sessions", async () => {
      const user = await createdUser({ emailVerified: null });
      const accounts = [sampleAccount(user.id), sampleAccount(user.id, { provider: "github" })];
      for (const account of accounts) await method("linkAccount")(account);
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      const sessions = [sampleSession(user.id), sampleSession(user.id)];
      for (const session of sessions) await method("createSession")(session);
      const verifiedAt = new Date();

      const claimed = await method("claimUnverifiedUser")(user.id, verifiedAt);

      expect(claimed).toMatchObject({ user: { id: user.id, email: user.email }, sessions: 2 });
      expectSameInstant(claimed!.user.emailVerified, verifiedAt);
      expect(claimed!.accounts).toHaveLength(2);
      expect(claimed!.accounts).toEqual(
        expect.arrayContaining(accounts.map(({ provider, providerAccountId }) => ({ provider, providerAccountId }))),
      );
      expect(claimed!.authenticators).toEqual([authenticator.credentialID]);
      const stored = await method("getUser")(user.id);
      expect(stored).toMatchObject({ id: user.id, email: user.email });
      expectSameInstant(stored!.emailVerified, verifiedAt);
      for (const account of accounts) expect(await method("getUserByAccount")(account)).toBeNull();
      expect(await method("getAuthenticator")(authenticator.credentialID)).toBeNull();
      for (const session of sessions) expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
    });

    extensionTest(ctx, ["claimUnverifiedUser"], "changes nothing and answers null for a user whose address is verified", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      const session = sampleSession(user.id);
      await method("createSession")(session);

      expect(await method("claimUnverifiedUser")(user.id, new Date())).toBeNull();
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: user.id });
      expect(await method("getSessionAndUser")(session.sessionToken)).toMatchObject({ user: { id: user.id } });
      expectSameInstant((await method("getUser")(user.id))!.emailVerified, user.emailVerified!);
    });

    extensionTest(ctx, ["claimUnverifiedUser"], "answers null for a user that does not exist", async () => {
      expect(await method("claimUnverifiedUser")(globalThis.crypto.randomUUID(), new Date())).toBeNull();
    });

    extensionTest(ctx, ["claimUnverifiedUser"], "lets only one of two concurrent claims detach and verify", async () => {
      const user = await createdUser({ emailVerified: null });
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      const claims = await Promise.all([method("claimUnverifiedUser")(user.id, new Date()), method("claimUnverifiedUser")(user.id, new Date())]);
      expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
      expect(claims.find((claim) => claim !== null)!.accounts).toHaveLength(1);
    });

    extensionTest(ctx, ["claimUnverifiedUser"], "leaves other users' accounts, passkeys and sessions alone", async () => {
      const [user, other] = [await createdUser({ emailVerified: null }), await createdUser({ emailVerified: null })];
      const account = sampleAccount(other.id);
      await method("linkAccount")(account);
      const authenticator = sampleAuthenticator(other.id);
      await method("createAuthenticator")(authenticator);
      const session = sampleSession(other.id);
      await method("createSession")(session);

      expect(await method("claimUnverifiedUser")(user.id, new Date())).toMatchObject({ accounts: [], authenticators: [], sessions: 0 });
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: other.id });
      expect(await method("getAuthenticator")(authenticator.credentialID)).not.toBeNull();
      expect(await method("getSessionAndUser")(session.sessionToken)).toMatchObject({ user: { id: other.id, emailVerified: null } });
    });
  });
}
