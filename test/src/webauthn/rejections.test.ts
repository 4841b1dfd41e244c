/**
 * What the passkey callback refuses: real credentials from a software authenticator, each bent in
 * one way. Every refusal is a WebAuthnVerificationError on the sign-in page and no session; the
 * logged error names the check that failed, so a test cannot pass for the wrong reason.
 */
import { describe, expect, it } from "vitest";
import { Passkey, WebAuthn } from "../../../src/providers/webauthn.js";
import type { TestConfig } from "../../helpers/config.js";
import {
  CHALLENGE_COOKIE,
  ORIGIN,
  PasskeyClient,
  SESSION_COOKIE,
  passkeyConfig,
  redirectOf,
  softAuthenticator,
} from "./fixtures.js";

/**
 * The message of the last logged WebAuthnVerificationError, with its cause's: a refused passkey is
 * the visitor's doing, so it is a one-line warning (no stack), never an error.
 */
function lastRefusal(config: TestConfig): string {
  expect(config.logger.codes("error")).not.toContain("WebAuthnVerificationError");
  const entry = config.logger.entries.filter((e) => e.level === "warn" && e.code === "WebAuthnVerificationError").at(-1);
  if (!entry) return "(nothing logged)";
  expect(entry.message).toEqual([expect.any(String)]);
  return String(entry.message[0]).split(" — caused by ").join(" ");
}

/** The response is a refusal on the sign-in page, and the client holds no session. */
async function expectRefused(client: PasskeyClient, response: Response): Promise<void> {
  expect(response.status).toBe(302);
  const { url, error } = redirectOf(response);
  expect(url.pathname).toBe("/auth/signin");
  expect(error).toBe("WebAuthnVerificationError");
  expect(client.lastSetCookies.filter((c) => c.name === SESSION_COOKIE && c.value !== "")).toEqual([]);
  expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  expect(await client.session()).toBeNull();
}

/** A store holding grace@example.com with one registered software passkey. */
async function registered(options: { counter?: "increment" | "zero" } = {}) {
  const config = passkeyConfig();
  const authenticator = await softAuthenticator(options);
  const response = await new PasskeyClient(config).register(authenticator, "grace@example.com");
  expect(redirectOf(response).error).toBeNull();
  return { config, authenticator };
}

describe("the passkey callback refuses", () => {
  it("client data changed after the authenticator signed it", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    // Same type, challenge and origin: only the signature can tell.
    const credential = await authenticator.authenticate(answer.options, { tamper: (data) => ({ ...data, crossOrigin: true }) });

    await expectRefused(client, await client.answer("authenticate", credential));
    // Every other check passed: verification ran to the end and the signature said no (no cause).
    expect(lastRefusal(config)).toBe("The passkey's answer did not verify.");
  });

  it("an authentication whose client data names another origin", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const credential = await authenticator.authenticate(answer.options, { origin: "https://evil.example" });

    await expectRefused(client, await client.answer("authenticate", credential));
    expect(lastRefusal(config)).toMatch(/origin.*evil\.example/i);
  });

  it("a registration whose client data names another origin, and stores nothing", async () => {
    const config = passkeyConfig();
    const client = new PasskeyClient(config);
    const authenticator = await softAuthenticator();
    const answer = await client.options({ email: "grace@example.com", action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    const credential = await authenticator.register(answer.options, { origin: "http://localhost:3001" });

    await expectRefused(client, await client.answer("register", credential));
    expect(lastRefusal(config)).toMatch(/origin.*localhost:3001/i);
    expect(await config.adapter.getUserByEmail("grace@example.com")).toBeNull();
    expect(await config.adapter.getAuthenticator(authenticator.storedId)).toBeNull();
  });

  it("client data answering another challenge than the cookie's", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const credential = await authenticator.authenticate(answer.options, { challenge: "b3RoZXItY2hhbGxlbmdl" });

    await expectRefused(client, await client.answer("authenticate", credential));
    expect(lastRefusal(config)).toMatch(/challenge/i);
  });

  it("a registration posted as an authentication (client data type webauthn.create to the get ceremony)", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const credential = await authenticator.authenticate(answer.options, { type: "webauthn.create" });

    await expectRefused(client, await client.answer("authenticate", credential));
    expect(lastRefusal(config)).toMatch(/type/i);
  });

  it("an answer without user verification (the UV flag unset)", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const credential = await authenticator.authenticate(answer.options, { flags: 0x01 });

    await expectRefused(client, await client.answer("authenticate", credential));
    expect(lastRefusal(config)).toMatch(/user.*verif/i);
  });

  it("a replayed authentication: the same challenge cookie and credential posted twice, well within the cookie's lifetime", async () => {
    // An authenticator without a counter (always 0), so only the challenge can stop the replay.
    const { config, authenticator } = await registered({ counter: "zero" });
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const captured = client.cookie(CHALLENGE_COOKIE)!;
    const credential = await authenticator.authenticate(answer.options);

    const first = await client.answer("authenticate", credential);
    expect(redirectOf(first).error).toBeNull();
    expect(await client.signedInAs()).toBe("grace@example.com");

    // The attacker's browser: no session, the captured cookie planted again, the same body.
    const attacker = new PasskeyClient(config);
    attacker.setCookie(CHALLENGE_COOKIE, encodeURIComponent(captured));
    await expectRefused(attacker, await attacker.answer("authenticate", credential));
    expect(lastRefusal(config)).toMatch(/already used/);
  });

  it("a replayed registration: the same challenge cookie and new credential posted twice", async () => {
    const config = passkeyConfig();
    const client = new PasskeyClient(config);
    const authenticator = await softAuthenticator();
    const answer = await client.options({ email: "grace@example.com", action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    const captured = client.cookie(CHALLENGE_COOKIE)!;
    const credential = await authenticator.register(answer.options);
    expect(redirectOf(await client.answer("register", credential)).error).toBeNull();

    const attacker = new PasskeyClient(config);
    attacker.setCookie(CHALLENGE_COOKIE, encodeURIComponent(captured));
    await expectRefused(attacker, await attacker.answer("register", credential));
    expect(lastRefusal(config)).toMatch(/already used/);
  });

  it("a counter that went backwards (a cloned authenticator), and leaves the stored counter as it was", async () => {
    const { config, authenticator } = await registered();
    // The stored counter is ahead of what the authenticator will say next (2).
    await config.adapter.updateAuthenticatorCounter(authenticator.storedId, 10);
    const client = new PasskeyClient(config);

    await expectRefused(client, await client.authenticate(authenticator));
    expect(lastRefusal(config)).toMatch(/counter/i);
    expect((await config.adapter.getAuthenticator(authenticator.storedId))?.counter).toBe(10);
  });

  it("an answer whose counter did not move when the authenticator keeps one", async () => {
    const { config, authenticator } = await registered();
    authenticator.counter = 0; // the next answer says 1, the store holds 1
    const client = new PasskeyClient(config);
    await expectRefused(client, await client.authenticate(authenticator));
    expect(lastRefusal(config)).toMatch(/counter/i);
  });

  it("a passkey the store does not know", async () => {
    const { config } = await registered();
    const stranger = await softAuthenticator();
    const client = new PasskeyClient(config);
    await expectRefused(client, await client.authenticate(stranger));
    expect(lastRefusal(config)).toMatch(/not known/);
  });

  it("an answer without a challenge cookie", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    client.deleteCookie(CHALLENGE_COOKIE);
    await expectRefused(client, await client.answer("authenticate", await authenticator.authenticate(answer.options)));
    expect(lastRefusal(config)).toMatch(/cookie is missing/);
  });

  it("an answer posted for another ceremony than the challenge was minted for", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    await expectRefused(client, await client.answer("register", await authenticator.authenticate(answer.options)));
  });

  it("data that is not JSON, or no data at all (a form posted without the script)", async () => {
    const { config } = await registered();
    for (const data of ["not json", ""]) {
      const client = new PasskeyClient(config);
      await client.options({ action: "authenticate" });
      await expectRefused(client, await client.answer("authenticate", data));
    }
  });

  it("a challenge minted for one provider and answered to another (passkey → webauthn)", async () => {
    const config = passkeyConfig({ providers: [Passkey(), WebAuthn()] });
    const authenticator = await softAuthenticator();
    expect(redirectOf(await new PasskeyClient(config).register(authenticator, "grace@example.com")).error).toBeNull();

    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" }, "passkey");
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const response = await client.answer("authenticate", await authenticator.authenticate(answer.options), { providerId: "webauthn" });

    await expectRefused(client, response);
    expect(lastRefusal(config)).toMatch(/another provider/);
  });

  it("a post without the CSRF token", async () => {
    const { config, authenticator } = await registered();
    const client = new PasskeyClient(config);
    const answer = await client.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error("expected authenticate");
    const response = await client.post("/callback/passkey", {
      action: "authenticate",
      data: JSON.stringify(await authenticator.authenticate(answer.options)),
      callbackUrl: `${ORIGIN}/dashboard`,
    });
    expect(redirectOf(response).error).toBe("MissingCSRF");
    expect(await client.session()).toBeNull();
  });
});
