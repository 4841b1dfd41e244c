/** Deleting a user takes their accounts, sessions and authenticators along. */
import { describe, expect } from "vitest";
import { checksOptional, contractTest, ruleTest, type SuiteContext } from "./context.js";
import { sampleAccount, sampleAuthenticator, sampleSession, sampleUser } from "./fixtures.js";

export function describeDeleteUser(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("deleting a user", () => {
    contractTest(ctx, "removes the user with their accounts and sessions", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      const session = sampleSession(user.id);
      await method("linkAccount")(account);
      await method("createSession")(session);

      await method("deleteUser")(user.id);
      expect(await method("getUser")(user.id)).toBeNull();
      expect(await method("getUserByEmail")(user.email!)).toBeNull();
      expect(await method("getUserByAccount")(account)).toBeNull();
      expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
      if (checksOptional(ctx, "getAccount")) {
        expect(await method("getAccount")(account.providerAccountId, account.provider)).toBeNull();
      }
    }, ["deleteUser"]);

    // A passkey left behind would still open the deleted user's sign-in (see the next rule, too).
    ruleTest(ctx, "removes the user's authenticators with the user", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      await method("deleteUser")(user.id);
      expect(await method("getAuthenticator")(authenticator.credentialID)).toBeNull();
      expect(await method("listAuthenticatorsByUserId")(user.id)).toEqual([]);
    });

    ruleTest(ctx, "leaves nothing behind for a new user with the same id", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      const session = sampleSession(user.id);
      const authenticator = sampleAuthenticator(user.id);
      await method("linkAccount")(account);
      await method("createSession")(session);
      await method("createAuthenticator")(authenticator);
      await method("deleteUser")(user.id);

      await method("createUser")(sampleUser({ id: user.id }));
      expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
      expect(await method("getUserByAccount")(account)).toBeNull();
      expect(await method("listAuthenticatorsByUserId")(user.id)).toEqual([]);
    });

    contractTest(ctx, "leaves other users alone", async () => {
      const [user, other] = [await createdUser(), await createdUser()];
      const session = sampleSession(other.id);
      await method("createSession")(session);
      await method("deleteUser")(user.id);
      expect(await method("getSessionAndUser")(session.sessionToken)).toMatchObject({ user: { id: other.id } });
    }, ["deleteUser"]);
  });
}
