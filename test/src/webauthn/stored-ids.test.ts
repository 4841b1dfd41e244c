/**
 * How a passkey's credential id is stored: standard, padded base64, as the spec has it and as Auth.js
 * (@auth/core 0.41, lib/utils/webauthn-utils.js) writes it, for the authenticator's `credentialID` and
 * `providerAccountId` and the account's `providerAccountId`. A row Auth.js wrote signs in unchanged;
 * a row an earlier appauth wrote (base64url) still signs in too.
 */
import { describe, expect, it } from "vitest";
import type { AdapterAuthenticator } from "../../../src/types.js";
import { PasskeyClient, passkeyConfig, redirectOf, softAuthenticator, type PasskeyConfig } from "./fixtures.js";
import type { SoftAuthenticator } from "./soft-authenticator.js";

/** An id whose base64 has `+`, `/` and `=`, so the two spellings differ in every way they can. */
function awkwardId(): Uint8Array {
  const id = crypto.getRandomValues(new Uint8Array(32));
  id.set([0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff]); // "++++////"
  return id;
}

/**
 * Stores Grace with `authenticator` as the given writer would have: her user, a `webauthn` account of
 * the `passkey` provider, and the authenticator row, the credential id spelled `spell(authenticator)`.
 */
async function storedBy(config: PasskeyConfig, authenticator: SoftAuthenticator, spell: (a: SoftAuthenticator) => string): Promise<AdapterAuthenticator> {
  const id = spell(authenticator);
  const user = await config.adapter.createUser({ id: crypto.randomUUID(), email: "grace@example.com", name: null, image: null, emailVerified: null });
  await config.adapter.linkAccount({ userId: user.id, provider: "passkey", type: "webauthn", providerAccountId: id });
  const row: AdapterAuthenticator = {
    credentialID: id,
    providerAccountId: id,
    credentialPublicKey: Buffer.from(await authenticator.coseKey()).toString("base64"),
    counter: 0,
    credentialDeviceType: "singleDevice",
    credentialBackedUp: false,
    transports: "internal",
    userId: user.id,
  };
  return config.adapter.createAuthenticator(row);
}

describe("stored credential ids", () => {
  it("are standard padded base64 in the authenticator and the account of a new passkey", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator({ credentialId: awkwardId() });
    expect(authenticator.storedId).toMatch(/^\+\+\+\+\/\/\/\/.*=$/);

    expect(redirectOf(await new PasskeyClient(config).register(authenticator, "grace@example.com")).error).toBeNull();

    const row = await config.adapter.getAuthenticator(authenticator.storedId);
    expect(row).toMatchObject({ credentialID: authenticator.storedId, providerAccountId: authenticator.storedId });
    expect(await config.adapter.getAuthenticator(authenticator.id)).toBeNull();
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: authenticator.storedId })).toMatchObject({
      email: "grace@example.com",
    });
  });

  it("are named base64url to the browser, in the options that list a user's passkeys", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator({ credentialId: awkwardId() });
    await new PasskeyClient(config).register(authenticator, "grace@example.com");
    const answer = await new PasskeyClient(config).options({ email: "grace@example.com" });
    expect(answer.action).toBe("authenticate");
    if (answer.action === "authenticate") expect(answer.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
  });

  it("sign in with a passkey Auth.js registered, updating the counter on its row", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator({ credentialId: awkwardId() });
    const row = await storedBy(config, authenticator, (a) => a.storedId);
    const client = new PasskeyClient(config);

    const response = await client.authenticate(authenticator);

    expect(redirectOf(response).error).toBeNull();
    expect(await client.signedInAs()).toBe("grace@example.com");
    expect(await config.adapter.getAuthenticator(row.credentialID)).toEqual({ ...row, counter: 1 });
    // The options name the row's passkey as the browser knows it.
    const answer = await new PasskeyClient(config).options({ email: "grace@example.com" });
    if (answer.action === "authenticate") expect(answer.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
  });

  it("sign in with a passkey an earlier appauth stored as base64url, so nobody registered then is locked out", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator({ credentialId: awkwardId() });
    const row = await storedBy(config, authenticator, (a) => a.id);
    const client = new PasskeyClient(config);

    expect(redirectOf(await client.authenticate(authenticator)).error).toBeNull();

    expect(await client.signedInAs()).toBe("grace@example.com");
    expect(await config.adapter.getAuthenticator(row.credentialID)).toMatchObject({ counter: 1 });
    expect(await config.adapter.getAuthenticator(authenticator.storedId)).toBeNull();
  });

  it("refuse a posted id that is not base64url without asking the store", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator({ credentialId: awkwardId() });
    await storedBy(config, authenticator, (a) => a.storedId);
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const signed = await authenticator.authenticate(answer.options);
    // The stored spelling itself, posted as the id: not what a browser sends.
    const response = await client.answer("authenticate", { ...signed, id: authenticator.storedId, rawId: authenticator.storedId });
    expect(redirectOf(response).error).toBe("WebAuthnVerificationError");
    expect(await client.signedInAs()).toBeNull();
  });
});
