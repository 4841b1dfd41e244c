/**
 * GET /webauthn-options/:provider: which ceremony it offers (register when signed in or for an
 * address nobody has, authenticate for an address with passkeys or none at all), the options
 * themselves, and the challenge cookie that carries the flow to the callback.
 */
import { describe, expect, it } from "vitest";
import { CHALLENGE_COOKIE, PasskeyClient, passkeyConfig, redirectOf, softAuthenticator } from "./fixtures.js";

async function withGrace() {
  const config = passkeyConfig();
  const authenticator = await softAuthenticator();
  const signedIn = new PasskeyClient(config);
  expect(redirectOf(await signedIn.register(authenticator, "grace@example.com")).error).toBeNull();
  return { config, authenticator, signedIn };
}

describe("GET /webauthn-options/:provider", () => {
  it("offers to authenticate when no email is given and nobody is signed in, with discoverable credentials", async () => {
    const { config } = await withGrace();
    const answer = await new PasskeyClient(config).options();
    expect(answer.action).toBe("authenticate");
    expect(answer.options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    if (answer.action === "authenticate") expect(answer.options.allowCredentials ?? []).toEqual([]);
  });

  it("offers to authenticate for a known email with passkeys, naming them", async () => {
    const { config, authenticator } = await withGrace();
    const answer = await new PasskeyClient(config).options({ email: " GRACE@example.com " });
    expect(answer.action).toBe("authenticate");
    if (answer.action === "authenticate") expect(answer.options.allowCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
  });

  it("offers to register for an unknown email, as that address", async () => {
    const { config } = await withGrace();
    const answer = await new PasskeyClient(config).options({ email: "New.Person@Example.com" });
    expect(answer.action).toBe("register");
    if (answer.action !== "register") return;
    expect(answer.options.user).toMatchObject({ name: "new.person@example.com", displayName: "new.person@example.com" });
    expect(answer.options.rp).toEqual({ id: "localhost", name: "localhost:3000" });
    expect(answer.options.attestation).toBe("none");
    expect(answer.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(answer.options.excludeCredentials).toEqual([]);
  });

  it("refuses, signed out, to register for a known email whose user has no passkey yet", async () => {
    const config = passkeyConfig();
    await config.adapter.createUser({ id: "u-1", email: "ada@example.com", name: "Ada", image: null, emailVerified: new Date() });
    const response = await new PasskeyClient(config).get("/webauthn-options/passkey?email=ada%40example.com");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "AccountNotLinked" });
  });

  it("offers to register when signed in, whatever the email, for the signed-in user", async () => {
    const { signedIn, authenticator } = await withGrace();
    for (const query of [{}, { email: "someone.else@example.com" }]) {
      const answer = await signedIn.options(query);
      expect(answer.action).toBe("register");
      if (answer.action !== "register") continue;
      expect(answer.options.user.name).toBe("grace@example.com");
      expect(answer.options.excludeCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    }
  });

  it("follows the action the page asks for over its own choice", async () => {
    const { config, signedIn } = await withGrace();
    expect((await signedIn.options({ action: "authenticate" })).action).toBe("authenticate");
    expect((await new PasskeyClient(config).options({ email: "x@example.com", action: "authenticate" })).action).toBe("authenticate");
    expect((await new PasskeyClient(config).options({ email: "x@example.com", action: "register" })).action).toBe("register");
    // An action it does not know is ignored.
    expect((await new PasskeyClient(config).options({ action: "delete" })).action).toBe("authenticate");
  });

  it("answers 400 with a typed error when registering without an email or a session", async () => {
    const client = new PasskeyClient(passkeyConfig());
    const response = await client.get("/webauthn-options/passkey?action=register");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "WebAuthnVerificationError", message: expect.stringMatching(/email/) });
    expect(client.cookie(CHALLENGE_COOKIE)).toBeUndefined();
  });

  it("sets a fresh challenge cookie each time: httpOnly, SameSite=Lax, Path=/, living as long as the ceremony may take", async () => {
    const client = new PasskeyClient(passkeyConfig());
    const first = await client.options();
    const firstCookie = client.cookie(CHALLENGE_COOKIE);
    const cookie = client.lastSetCookies.find((c) => c.name === CHALLENGE_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 300 });
    const second = await client.options();
    expect(second.options.challenge).not.toBe(first.options.challenge);
    expect(client.cookie(CHALLENGE_COOKIE)).not.toBe(firstCookie);
    // The cookie is sealed: the challenge cannot be read from it.
    expect(firstCookie).not.toContain(first.options.challenge);
  });

  it("answers a provider that is not a passkey provider, or none, with a typed 4xx", async () => {
    const client = new PasskeyClient(passkeyConfig());
    const unknown = await client.get("/webauthn-options/nope");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("InvalidProvider");
  });
});
