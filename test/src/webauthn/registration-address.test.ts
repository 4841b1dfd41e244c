/**
 * The address a passkey is registered under, signed out: refused before any challenge is issued when
 * it already belongs to a user (a typed 400, no cookie, nothing written), and held to the same
 * normalisation and strictness as an email sign-in's address. An address nobody has still registers.
 */
import { describe, expect, it } from "vitest";
import { PasskeyClient, passkeyConfig, recordWrites, redirectOf, softAuthenticator } from "./fixtures.js";

async function withAda() {
  const config = passkeyConfig();
  await config.adapter.createUser({ id: "u-ada", email: "ada@example.com", name: "Ada", image: null, emailVerified: null });
  return { config, writes: recordWrites(config) };
}

async function askToRegister(client: PasskeyClient, email: string): Promise<{ status: number; body: { error?: string; message?: string } }> {
  const response = await client.get(`/webauthn-options/passkey?${new URLSearchParams({ action: "register", email })}`);
  return { status: response.status, body: (await response.json()) as { error?: string; message?: string } };
}

describe("a signed-out passkey registration for an address that is already a user's", () => {
  it.each(["ada@example.com", "  ADA@Example.COM ", "ａｄａ＠example.com"])(
    "is refused as AccountNotLinked for %j, with no Set-Cookie and nothing written",
    async (email) => {
      const { config, writes } = await withAda();
      const mallory = new PasskeyClient(config);

      const { status, body } = await askToRegister(mallory, email);

      expect(status).toBe(400);
      expect(body).toEqual({ error: "AccountNotLinked", message: expect.stringMatching(/already has an account/) });
      expect(mallory.lastSetCookies).toEqual([]);
      // No challenge recorded (a verification token), no user, no authenticator.
      expect(writes).toEqual([]);
      expect(await config.adapter.listAuthenticatorsByUserId("u-ada")).toEqual([]);
    },
  );

  it("is refused also when the page leaves the choice to the server and the user has no passkey yet", async () => {
    const { config, writes } = await withAda();
    const client = new PasskeyClient(config);
    const response = await client.get("/webauthn-options/passkey?email=ada%40example.com");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("AccountNotLinked");
    expect(client.lastSetCookies).toEqual([]);
    expect(writes).toEqual([]);
  });

  it("still lets a signed-out person sign in with the owner's passkeys for that address", async () => {
    const config = passkeyConfig();
    const authenticator = await softAuthenticator();
    await new PasskeyClient(config).register(authenticator, "grace@example.com");
    const answer = await new PasskeyClient(config).options({ email: "grace@example.com" });
    expect(answer.action).toBe("authenticate");
  });

  it("still registers an address nobody has, as a new user", async () => {
    const { config, writes } = await withAda();
    const client = new PasskeyClient(config);
    expect(redirectOf(await client.register(await softAuthenticator(), "Grace@Example.com")).error).toBeNull();
    expect(await client.signedInAs()).toBe("grace@example.com");
    // What the refusals above did not write.
    expect(writes).toEqual(expect.arrayContaining(["createVerificationToken", "useVerificationToken", "createAuthenticator"]));
  });
});

describe("a registration address that is not one plain address", () => {
  it.each([
    ["no @ at all", "not-an-address"],
    ["two addresses", "a@x.test,b@y.test"],
    ["a zero-width lookalike of a user's address", "ada\u200b@example.com"],
    ["a display name", "Ada <ada@example.com>"],
    ["a quoted local part", '"ada"@example.com'],
    ["a domain of one label", "ada@localhost"],
  ])("is refused as EmailSignInError: %s, with no Set-Cookie and nothing written", async (_, email) => {
    const { config, writes } = await withAda();
    const client = new PasskeyClient(config);

    const { status, body } = await askToRegister(client, email);

    expect(status).toBe(400);
    expect(body.error).toBe("EmailSignInError");
    expect(client.lastSetCookies).toEqual([]);
    expect(writes).toEqual([]);
  });

  it("never becomes a user, even when the page asks to authenticate with it first", async () => {
    const { config, writes } = await withAda();
    const client = new PasskeyClient(config);
    const response = await client.get(`/webauthn-options/passkey?${new URLSearchParams({ email: "a@x.test,b@y.test" })}`);
    expect(response.status).toBe(400);
    expect(writes).toEqual([]);
    expect(await config.adapter.getUserByEmail("a@x.test,b@y.test")).toBeNull();
  });
});
