/**
 * A passkey registration names an email; it never takes over someone else's account through it.
 * Signed out, registering for an address another user has is AccountNotLinked; signed in as that
 * user, the new passkey joins their account.
 */
import { describe, expect, it } from "vitest";
import { CHALLENGE_COOKIE, PasskeyClient, SESSION_COOKIE, passkeyConfig, redirectOf, softAuthenticator } from "./fixtures.js";

describe("registering a passkey for an address that is already someone's", () => {
  it("is refused with AccountNotLinked while signed out, storing no authenticator and no session", async () => {
    const config = passkeyConfig();
    await config.adapter.createUser({ id: "u-ada", email: "ada@example.com", name: "Ada", image: null, emailVerified: new Date() });
    const mallory = new PasskeyClient(config);
    const authenticator = await softAuthenticator();

    const response = await mallory.register(authenticator, "ada@example.com");

    expect(response.status).toBe(302);
    const { url, error } = redirectOf(response);
    expect(url.pathname).toBe("/auth/signin");
    expect(error).toBe("AccountNotLinked");
    expect(config.logger.codes("error")).toContain("AccountNotLinked");
    expect(mallory.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(mallory.cookie(CHALLENGE_COOKIE)).toBeUndefined();
    expect(await mallory.session()).toBeNull();
    expect(await config.adapter.getAuthenticator(authenticator.id)).toBeNull();
    expect(await config.adapter.listAuthenticatorsByUserId("u-ada")).toEqual([]);
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: authenticator.id })).toBeNull();
  });

  it("is refused also when that user already has a passkey of their own", async () => {
    const config = passkeyConfig();
    await new PasskeyClient(config).register(await softAuthenticator(), "ada@example.com");
    const mallory = new PasskeyClient(config);
    const response = await mallory.register(await softAuthenticator(), "ada@example.com");
    expect(redirectOf(response).error).toBe("AccountNotLinked");
    expect(await mallory.session()).toBeNull();
  });

  it("joins the signed-in user's account instead, whatever email the page sent", async () => {
    const config = passkeyConfig();
    const ada = new PasskeyClient(config);
    await ada.register(await softAuthenticator(), "ada@example.com");
    const second = await softAuthenticator();
    const answer = await ada.options({ email: "someone@example.com", action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    expect(redirectOf(await ada.answer("register", await second.register(answer.options))).error).toBeNull();
    const user = await config.adapter.getUserByEmail("ada@example.com");
    expect((await config.adapter.getAuthenticator(second.id))?.userId).toBe(user!.id);
    expect(await config.adapter.getUserByEmail("someone@example.com")).toBeNull();
  });

  it("is refused when the signed-in user changed between the options and the answer", async () => {
    const config = passkeyConfig();
    const ada = new PasskeyClient(config);
    await ada.register(await softAuthenticator(), "ada@example.com");
    const second = await softAuthenticator();
    const answer = await ada.options({ action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    await ada.signOut();
    expect(await ada.signedInAs()).toBeNull();
    const response = await ada.answer("register", await second.register(answer.options));
    expect(redirectOf(response).error).toBe("WebAuthnVerificationError");
    expect(await config.adapter.getAuthenticator(second.id)).toBeNull();
    expect(await ada.signedInAs()).toBeNull();
  });
});
