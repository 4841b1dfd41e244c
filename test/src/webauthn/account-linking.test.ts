/**
 * A passkey registration names an email; it never takes over someone else's account through it.
 * Signed out, registering for an address another user has is AccountNotLinked (at the options, before
 * any challenge; at the callback, should the address be taken in between); signed in as that user,
 * the new passkey joins their account.
 */
import { describe, expect, it } from "vitest";
import { CHALLENGE_COOKIE, PasskeyClient, SESSION_COOKIE, passkeyConfig, redirectOf, softAuthenticator } from "./fixtures.js";

describe("registering a passkey for an address that is already someone's", () => {
  it("is refused with AccountNotLinked at the callback when the address was taken after the options, storing nothing", async () => {
    const config = passkeyConfig();
    const mallory = new PasskeyClient(config);
    const authenticator = await softAuthenticator();
    const answer = await mallory.options({ email: "ada@example.com", action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    // Ada signs up some other way while Mallory's ceremony runs.
    await config.adapter.createUser({ id: "u-ada", email: "ada@example.com", name: "Ada", image: null, emailVerified: new Date() });

    const response = await mallory.answer("register", await authenticator.register(answer.options));

    expect(response.status).toBe(302);
    const { url, error } = redirectOf(response);
    expect(url.pathname).toBe("/auth/signin");
    expect(error).toBe("AccountNotLinked");
    expect(config.logger.codes("warn")).toContain("AccountNotLinked");
    expect(mallory.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(mallory.cookie(CHALLENGE_COOKIE)).toBeUndefined();
    expect(await mallory.session()).toBeNull();
    expect(await config.adapter.getAuthenticator(authenticator.storedId)).toBeNull();
    expect(await config.adapter.listAuthenticatorsByUserId("u-ada")).toEqual([]);
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: authenticator.storedId })).toBeNull();
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
    expect((await config.adapter.getAuthenticator(second.storedId))?.userId).toBe(user!.id);
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
    expect(await config.adapter.getAuthenticator(second.storedId)).toBeNull();
    expect(await ada.signedInAs()).toBeNull();
  });
});
