/** WebAuthn authenticators: round trip of their types, listing, the signature counter. */
import { describe, expect, it } from "vitest";
import { attempt, type SuiteContext } from "./context.js";
import { sampleAuthenticator, unique } from "./fixtures.js";

export function describeAuthenticators(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("authenticators", () => {
    it("creates an authenticator and reads it back with its types intact", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id, { counter: 3 });
      expect(await method("createAuthenticator")(authenticator)).toEqual(authenticator);
      const read = await method("getAuthenticator")(authenticator.credentialID);
      expect(read).toEqual(authenticator);
      expect(typeof read?.counter).toBe("number");
      expect(typeof read?.credentialBackedUp).toBe("boolean");
    });

    it("keeps a credential without transports", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id, { transports: null, credentialBackedUp: false });
      await method("createAuthenticator")(authenticator);
      const read = await method("getAuthenticator")(authenticator.credentialID);
      expect(read).toMatchObject({ credentialBackedUp: false });
      expect(read?.transports ?? null).toBeNull();
    });

    it("answers null for an unknown credential", async () => {
      expect(await method("getAuthenticator")(`cred-${unique()}`)).toBeNull();
    });

    it("rejects a second authenticator with the same credential ID", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      await expect(attempt(() => method("createAuthenticator")(authenticator))).rejects.toThrow();
    });

    it("lists a user's authenticators, and an empty list for an unknown user", async () => {
      const [user, other] = [await createdUser(), await createdUser()];
      const first = sampleAuthenticator(user.id);
      const second = sampleAuthenticator(user.id, { transports: "usb" });
      await method("createAuthenticator")(first);
      await method("createAuthenticator")(second);
      await method("createAuthenticator")(sampleAuthenticator(other.id));

      const listed = await method("listAuthenticatorsByUserId")(user.id);
      const byId = (a: { credentialID: string }, b: { credentialID: string }): number =>
        a.credentialID.localeCompare(b.credentialID);
      expect([...listed].sort(byId)).toEqual([first, second].sort(byId));
      expect(await method("listAuthenticatorsByUserId")(globalThis.crypto.randomUUID())).toEqual([]);
    });

    it("updates the signature counter and returns the updated authenticator", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      const updated = await method("updateAuthenticatorCounter")(authenticator.credentialID, 42);
      expect(updated).toEqual({ ...authenticator, counter: 42 });
      expect(await method("getAuthenticator")(authenticator.credentialID)).toMatchObject({ counter: 42 });
    });

    it("throws when updating the counter of an unknown credential", async () => {
      await expect(attempt(() => method("updateAuthenticatorCounter")(`cred-${unique()}`, 1))).rejects.toThrow();
    });
  });
}
