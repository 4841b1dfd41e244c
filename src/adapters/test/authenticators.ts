/**
 * WebAuthn authenticators: round trip of their types, listing, the signature counter, and the stored
 * form of credential ids (standard base64 with `+`, `/` and `=`, compared exactly).
 */
import { describe, expect } from "vitest";
import { attempt, contractTest, ruleTest, type Method, type SuiteContext } from "./context.js";
import { sampleAuthenticator, sampleCredentialId, unique } from "./fixtures.js";

export function describeAuthenticators(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;
  /** WebAuthn is optional in Auth.js: the four methods come together. */
  const WEBAUTHN: Method[] = ["createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"];

  describe("authenticators (WebAuthn)", () => {
    contractTest(ctx, "creates an authenticator and reads it back with its types intact", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id, { counter: 3 });
      expect(await method("createAuthenticator")(authenticator)).toEqual(authenticator);
      const read = await method("getAuthenticator")(authenticator.credentialID);
      expect(read).toEqual(authenticator);
      expect(typeof read?.counter).toBe("number");
      expect(typeof read?.credentialBackedUp).toBe("boolean");
    }, WEBAUTHN);

    contractTest(ctx, "keeps a credential without transports", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id, { transports: null, credentialBackedUp: false });
      await method("createAuthenticator")(authenticator);
      const read = await method("getAuthenticator")(authenticator.credentialID);
      expect(read).toMatchObject({ credentialBackedUp: false });
      expect(read?.transports ?? null).toBeNull();
    }, WEBAUTHN);

    ruleTest(ctx, "keeps a standard base64 credential id with +, / and = exactly, and finds it by lookup and counter update", async () => {
      const user = await createdUser();
      const credentialID = sampleCredentialId();
      expect(credentialID).toMatch(/^\+\/.*=$/);
      const authenticator = sampleAuthenticator(user.id, { credentialID, providerAccountId: credentialID });
      await method("createAuthenticator")(authenticator);

      expect(await method("getAuthenticator")(credentialID)).toEqual(authenticator);
      expect(await method("listAuthenticatorsByUserId")(user.id)).toEqual([authenticator]);
      expect(await method("updateAuthenticatorCounter")(credentialID, 7)).toEqual({ ...authenticator, counter: 7 });
      expect(await method("getAuthenticator")(credentialID)).toMatchObject({ credentialID, counter: 7 });
    });

    ruleTest(ctx, "tells apart ids that differ only in spelling: base64url, case, padding", async () => {
      const user = await createdUser();
      const credentialID = sampleCredentialId();
      await method("createAuthenticator")(sampleAuthenticator(user.id, { credentialID }));
      const base64url = credentialID.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
      const otherCase = credentialID.replace(/[a-z]/, (c) => c.toUpperCase());
      for (const spelling of [base64url, credentialID.replace(/=+$/, ""), otherCase]) {
        expect(await method("getAuthenticator")(spelling)).toBeNull();
      }
    });

    contractTest(ctx, "answers null for an unknown credential", async () => {
      expect(await method("getAuthenticator")(`cred-${unique()}`)).toBeNull();
    }, WEBAUTHN);

    ruleTest(ctx, "rejects a second authenticator with the same credential ID", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      await expect(attempt(() => method("createAuthenticator")(authenticator))).rejects.toThrow();
    });

    contractTest(ctx, "lists a user's authenticators, and an empty list for an unknown user", async () => {
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
    }, WEBAUTHN);

    contractTest(ctx, "updates the signature counter and returns the updated authenticator", async () => {
      const user = await createdUser();
      const authenticator = sampleAuthenticator(user.id);
      await method("createAuthenticator")(authenticator);
      const updated = await method("updateAuthenticatorCounter")(authenticator.credentialID, 42);
      expect(updated).toEqual({ ...authenticator, counter: 42 });
      expect(await method("getAuthenticator")(authenticator.credentialID)).toMatchObject({ counter: 42 });
    }, WEBAUTHN);

    ruleTest(ctx, "throws when updating the counter of an unknown credential", async () => {
      await expect(attempt(() => method("updateAuthenticatorCounter")(`cred-${unique()}`, 1))).rejects.toThrow();
    });
  });
}
