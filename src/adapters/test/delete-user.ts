/** Deleting a user takes their accounts, sessions and authenticators along. */
import { describe, expect, it } from "vitest";
import type { SuiteContext } from "./context.js";
import { sampleAccount, sampleAuthenticator, sampleSession, sampleUser } from "./fixtures.js";

export function describeDeleteUser(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("deleting a user", () => {
    it("removes the user with their accounts, sessions and authenticators", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      const session = sampleSession(user.id);
      const authenticator = sampleAuthenticator(user.id);
      await method("linkAccount")(account);
      await method("createSession")(session);
      await method("createAuthenticator")(authenticator);

      await method("deleteUser")(user.id);
      expect(await method("getUser")(user.id)).toBeNull();
      expect(await method("getUserByEmail")(user.email)).toBeNull();
      expect(await method("getAccount")(account.providerAccountId, account.provider)).toBeNull();
      expect(await method("getUserByAccount")(account)).toBeNull();
      expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
      expect(await method("getAuthenticator")(authenticator.credentialID)).toBeNull();
      expect(await method("listAuthenticatorsByUserId")(user.id)).toEqual([]);
    });

    it("leaves nothing behind for a new user with the same id", async () => {
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

    it("leaves other users alone", async () => {
      const [user, other] = [await createdUser(), await createdUser()];
      const session = sampleSession(other.id);
      await method("createSession")(session);
      await method("deleteUser")(user.id);
      expect(await method("getSessionAndUser")(session.sessionToken)).toMatchObject({ user: { id: other.id } });
    });
  });
}
