/**
 * Pre-hijacked accounts (Sudhodanan & Paverd, USENIX Security 2022), end to end through `Auth()` with a
 * real SMTP server: signed out, Mallory registers a passkey under Victor's address (allowed: nobody
 * has it yet); Victor later proves the address with an email link. Victor claims that user (same id:
 * an application's rows keyed by it are his), verified, with everything attached before the proof
 * detached: Mallory's passkey no longer signs in and her session, database or JWT, reads as none.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { getToken } from "../../../src/jwt/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/passkey.js";
import type { AuthConfig, EventCallbacks } from "../../../src/types.js";
import { SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { expectErrorRedirect, mailedLink } from "../email/fixtures.js";
import { PasskeyClient, passkeyConfig, redirectOf, softAuthenticator, type PasskeyConfig } from "./fixtures.js";

const VICTOR = "victor@example.test";

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** The user id the client's session cookie names: the JWT's `sub` (opened as a token, unchecked), or the stored session's user. */
async function sessionUserId(config: PasskeyConfig, client: PasskeyClient): Promise<string | null> {
  if (config.session?.strategy === "jwt") {
    const req = new Request("http://localhost:3000/", { headers: { cookie: client.cookieHeader() ?? "" } });
    return (await getToken({ req, secret: SECRET, salt: SESSION_COOKIE }))?.sub ?? null;
  }
  const token = client.cookie(SESSION_COOKIE);
  return token ? ((await config.adapter.getSessionAndUser(decodeURIComponent(token)))?.user.id ?? null) : null;
}

describe.each(["jwt", "database"] as const)("a passkey squatting an address, then its owner's email link (%s sessions)", (strategy) => {
  function setup() {
    const credentialsDetached = vi.fn<NonNullable<EventCallbacks["credentialsDetached"]>>();
    const config = passkeyConfig({
      providers: [Passkey(), Nodemailer({ server: smtp.server, from: "appauth tests <no-reply@example.test>" })],
      session: { strategy },
      events: { credentialsDetached },
    });
    return { config, credentialsDetached };
  }

  it("hands the owner the same user, verified, and leaves the squatter's passkey and session with nothing", async () => {
    const { config, credentialsDetached } = setup();

    // Mallory, signed out, registers a passkey under Victor's address: nobody has it, so it is allowed.
    const mallory = new PasskeyClient(config);
    const squatterKey = await softAuthenticator();
    expect(redirectOf(await mallory.register(squatterKey, VICTOR)).error).toBeNull();
    const squatted = (await config.adapter.getUserByEmail(VICTOR))!;
    expect(squatted.emailVerified).toBeNull();
    expect(await sessionUserId(config, mallory)).toBe(squatted.id);
    expect(await mallory.session()).toMatchObject({ user: { email: VICTOR } });

    // Victor proves the address.
    const victor = new PasskeyClient(config);
    const { link } = await mailedLink(victor, smtp, VICTOR);
    const followed = await victor.get(link.href);
    expect(redirectOf(followed).error).toBeNull();

    // Victor has the user, same id, verified; Mallory's passkey and passkey account are detached.
    const owner = (await config.adapter.getUserByEmail(VICTOR))!;
    expect(owner.id).toBe(squatted.id);
    expect(owner.emailVerified).toBeInstanceOf(Date);
    expect(await victor.signedInAs()).toBe(VICTOR);
    expect(await sessionUserId(config, victor)).toBe(owner.id);
    expect(await config.adapter.listAuthenticatorsByUserId(owner.id)).toEqual([]);
    expect(await config.adapter.getAuthenticator(squatterKey.storedId)).toBeNull();
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: squatterKey.storedId })).toBeNull();

    // The application hears what was detached, to tell Victor.
    expect(credentialsDetached).toHaveBeenCalledOnce();
    expect(credentialsDetached.mock.calls[0]![0]).toEqual({
      user: expect.objectContaining({ id: owner.id, email: VICTOR, emailVerified: expect.any(Date) }),
      account: expect.objectContaining({ type: "email", providerAccountId: VICTOR }),
      accounts: [{ provider: "passkey", providerAccountId: squatterKey.storedId }],
      authenticators: [squatterKey.storedId],
      // Mallory's one session: a database row, or the record a JWT session keeps for the person's device list.
      sessions: 1,
    });

    // Mallory's passkey no longer signs in, anywhere.
    const again = new PasskeyClient(config);
    expect(redirectOf(await again.authenticate(squatterKey)).error).toBe("WebAuthnVerificationError");
    expect(await again.session()).toBeNull();
    // Her session reads as none, database or JWT (whose cookie still names Victor's id), and is cleared.
    expect(await mallory.session()).toBeNull();
    expect(await mallory.session()).toBeNull();
    expect(mallory.cookie(SESSION_COOKIE)).toBeUndefined();
    // Victor's own session is unaffected.
    expect(await victor.session()).toMatchObject({ user: { email: VICTOR } });
    // Nor can she squat again: the address is someone's now.
    const retry = await new PasskeyClient(config).get(`/webauthn-options/passkey?action=register&email=${encodeURIComponent(VICTOR)}`);
    expect(retry.status).toBe(400);
  });

  it("does not lock the owner out: the next link signs in as the same user, who can then add a passkey", async () => {
    const { config, credentialsDetached } = setup();
    await new PasskeyClient(config).register(await softAuthenticator(), VICTOR);
    const first = new PasskeyClient(config);
    await first.get((await mailedLink(first, smtp, VICTOR)).link.href);
    const owner = (await config.adapter.getUserByEmail(VICTOR))!;

    const later = new PasskeyClient(config);
    await later.get((await mailedLink(later, smtp, VICTOR)).link.href);
    expect(await sessionUserId(config, later)).toBe(owner.id);
    expect(credentialsDetached).toHaveBeenCalledOnce();

    const ownKey = await softAuthenticator();
    const answer = await later.options({ action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    expect(redirectOf(await later.answer("register", await ownKey.register(answer.options))).error).toBeNull();
    const elsewhere = new PasskeyClient(config);
    expect(redirectOf(await elsewhere.authenticate(ownKey)).error).toBeNull();
    expect(await sessionUserId(config, elsewhere)).toBe(owner.id);
  });

  it("leaves a verified owner's passkeys alone when they sign in by email link", async () => {
    const { config, credentialsDetached } = setup();
    const victor = new PasskeyClient(config);
    await victor.get((await mailedLink(victor, smtp, VICTOR)).link.href);
    const ownKey = await softAuthenticator();
    const answer = await victor.options({ action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    await victor.answer("register", await ownKey.register(answer.options));

    const later = new PasskeyClient(config);
    await later.get((await mailedLink(later, smtp, VICTOR)).link.href);
    expect(credentialsDetached).not.toHaveBeenCalled();
    expect(redirectOf(await new PasskeyClient(config).authenticate(ownKey)).error).toBeNull();
  });
});

describe("an adapter without claimUnverifiedUser (the published Auth.js adapters)", () => {
  function withoutClaims() {
    const { claimUnverifiedUser: _claim, ...adapter } = MemoryAdapter();
    return adapter;
  }
  const oidc = (allowDangerousEmailAccountLinking: boolean) =>
    ({ id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.example.com", clientId: "id", clientSecret: "secret", allowDangerousEmailAccountLinking }) as AuthConfig["providers"][number];
  function logged() {
    const warn = vi.fn();
    const error = vi.fn();
    return { logger: { warn, error, debug: vi.fn() }, warn, error };
  }

  it("starts, warning once that proofs of unverified addresses will be refused, naming the method", () => {
    const { logger, warn } = logged();
    const config: AuthConfig = { secret: SECRET, trustHost: true, adapter: withoutClaims(), logger, providers: [Nodemailer({ server: smtp.server, from: "a@example.test" })] };
    expect(() => getRuntime(config, {})).not.toThrow();
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![1] ?? warn.mock.calls[0]![0])).toMatch(/claimUnverifiedUser/);
  });

  it("says nothing when no sign-in can prove an address someone has", () => {
    const { logger, warn } = logged();
    expect(() => getRuntime({ secret: SECRET, trustHost: true, adapter: withoutClaims(), logger, providers: [oidc(false)] }, {})).not.toThrow();
    expect(warn).not.toHaveBeenCalled();
  });

  it("refuses an email link to an unverified user's address with AccountNotLinked, deleting and changing nothing", async () => {
    const adapter = withoutClaims();
    const user = await adapter.createUser({ id: "user-unclaimed", email: VICTOR, emailVerified: null });
    await adapter.linkAccount({ userId: user.id, provider: "github", providerAccountId: "gh-1", type: "oauth" });
    const deleteUser = vi.spyOn(adapter, "deleteUser");
    const { logger, warn, error } = logged();
    const config = passkeyConfig({
      adapter: adapter as PasskeyConfig["adapter"],
      logger,
      providers: [Nodemailer({ server: smtp.server, from: "a@example.test" })],
    });
    const client = new TestClient(config);
    const response = await client.get((await mailedLink(client, smtp, VICTOR)).link.href);
    expectErrorRedirect(response, "AccountNotLinked", "signin");
    expect(await client.session()).toBeNull();
    expect(deleteUser).not.toHaveBeenCalled();
    expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id, emailVerified: null });
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-1" })).toMatchObject({ id: user.id });
    // The server's log says why, naming the method the adapter lacks.
    const refusal = [...warn.mock.calls, ...error.mock.calls].find(([type]) => type === "AccountNotLinked");
    expect(String(refusal?.slice(1))).toMatch(/no claimUnverifiedUser/);
  });
});
