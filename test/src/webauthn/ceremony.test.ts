/**
 * Passkeys end to end without a browser: a software authenticator registers, signs in again, and a
 * signed-in user adds a second passkey, through the same routes and fields the sign-in page uses.
 */
import { describe, expect, it } from "vitest";
import { cbor, derSignature } from "./soft-authenticator.js";
import { CHALLENGE_COOKIE, ORIGIN, PasskeyClient, SESSION_COOKIE, passkeyConfig, redirectOf, softAuthenticator } from "./fixtures.js";

describe("the software authenticator's encodings", () => {
  it("writes CBOR heads, negative integers, strings and maps as RFC 8949 does", () => {
    expect([...cbor(0)]).toEqual([0x00]);
    expect([...cbor(23)]).toEqual([0x17]);
    expect([...cbor(24)]).toEqual([0x18, 0x18]);
    expect([...cbor(1000)]).toEqual([0x19, 0x03, 0xe8]);
    expect([...cbor(-7)]).toEqual([0x26]);
    expect([...cbor(-257)]).toEqual([0x39, 0x01, 0x00]);
    expect([...cbor("fmt")]).toEqual([0x63, 0x66, 0x6d, 0x74]);
    expect([...cbor(Uint8Array.of(1, 2))]).toEqual([0x42, 1, 2]);
    expect([...cbor(new Map([[1, 2]]))]).toEqual([0xa1, 0x01, 0x02]);
  });

  it("turns raw ECDSA signatures into DER, dropping leading zeros and padding a high bit", () => {
    const r = new Uint8Array(32).fill(0x80);
    const s = new Uint8Array(32);
    s[31] = 1;
    const der = derSignature(new Uint8Array([...r, ...s]));
    expect([...der.subarray(0, 4)]).toEqual([0x30, 2 + 33 + 2 + 1, 0x02, 33]);
    expect(der[4]).toBe(0x00);
    expect([...der.subarray(-3)]).toEqual([0x02, 0x01, 0x01]);
  });
});

describe("passkeys with a software authenticator", () => {
  it("registers a passkey for a new email: a new user, the authenticator stored with its key, a session", async () => {
    const config = passkeyConfig();
    const client = new PasskeyClient(config);
    const authenticator = await softAuthenticator();

    const response = await client.register(authenticator, "grace@example.com");

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await client.signedInAs()).toBe("grace@example.com");
    const user = await config.adapter.getUserByEmail("grace@example.com");
    expect(user).not.toBeNull();
    const stored = await config.adapter.listAuthenticatorsByUserId(user!.id);
    expect(stored).toEqual([
      expect.objectContaining({ credentialID: authenticator.storedId, providerAccountId: authenticator.storedId, counter: 1, transports: "internal" }),
    ]);
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: authenticator.storedId })).toMatchObject({
      id: user!.id,
    });
    // The challenge cookie is single use: the answer clears it.
    expect(client.cookie(CHALLENGE_COOKIE)).toBeUndefined();
  });

  it("signs in again with the passkey, as the same user, and stores the authenticator's new counter", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator();
    await new PasskeyClient(config).register(authenticator, "grace@example.com");

    const client = new PasskeyClient(config);
    const response = await client.authenticate(authenticator);

    expect(response.status).toBe(302);
    expect(redirectOf(response).error).toBeNull();
    expect(client.cookie(SESSION_COOKIE)).toBeDefined();
    expect(await client.signedInAs()).toBe("grace@example.com");
    expect((await config.adapter.getAuthenticator(authenticator.storedId))?.counter).toBe(2);
  });

  it("signs in with allowCredentials naming the user's passkeys when the email is given", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator();
    await new PasskeyClient(config).register(authenticator, "grace@example.com");

    const client = new PasskeyClient(config);
    const answer = await client.options({ email: "Grace@Example.com" });
    expect(answer.action).toBe("authenticate");
    if (answer.action !== "authenticate") return;
    expect(answer.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    const response = await client.answer("authenticate", await authenticator.authenticate(answer.options));
    expect(redirectOf(response).error).toBeNull();
    expect(await client.signedInAs()).toBe("grace@example.com");
  });

  it("adds a second passkey to the signed-in user, and excludes the first one from the options", async () => {
    const config = passkeyConfig();
    const first = await softAuthenticator();
    const client = new PasskeyClient(config);
    await client.register(first, "grace@example.com");

    const answer = await client.options();
    expect(answer.action).toBe("register");
    if (answer.action !== "register") return;
    expect(answer.options.excludeCredentials?.map((c) => c.id)).toEqual([first.id]);
    const second = await softAuthenticator();
    const response = await client.answer("register", await second.register(answer.options));

    expect(redirectOf(response).error).toBeNull();
    const user = await config.adapter.getUserByEmail("grace@example.com");
    const ids = (await config.adapter.listAuthenticatorsByUserId(user!.id)).map((a) => a.credentialID).sort();
    expect(ids).toEqual([first.storedId, second.storedId].sort());
    // Either passkey now signs in as the same person.
    const elsewhere = new PasskeyClient(config);
    await elsewhere.authenticate(second);
    expect(await elsewhere.signedInAs()).toBe("grace@example.com");
  });
});
