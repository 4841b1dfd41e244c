/**
 * Pre-hijacked accounts (Sudhodanan & Paverd, USENIX Security 2022), end to end through `Auth()` with a
 * real SMTP server: signed out, Mallory registers a passkey under Victor's address (allowed: nobody
 * has it yet); Victor later proves the address with an email link. Victor gets a new user of his own,
 * Mallory's user goes with her passkey, account and sessions, and her passkey no longer signs in.
 * For both session strategies: with JWT sessions Mallory still holds a cookie naming her old user id,
 * which is why Victor's user must have a new id.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { MissingAdapterMethods } from "../../../src/errors.js";
import { getToken } from "../../../src/jwt/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/passkey.js";
import type { AuthConfig, EventCallbacks } from "../../../src/types.js";
import { SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { mailedLink } from "../email/fixtures.js";
import { PasskeyClient, passkeyConfig, redirectOf, softAuthenticator, type PasskeyConfig } from "./fixtures.js";

const VICTOR = "victor@example.test";

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** The user id the client's session names: the JWT's `sub`, or the stored session's user. */
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
    const unverifiedUserReplaced = vi.fn<NonNullable<EventCallbacks["unverifiedUserReplaced"]>>();
    const config = passkeyConfig({
      providers: [Passkey(), Nodemailer({ server: smtp.server, from: "appauth tests <no-reply@example.test>" })],
      session: { strategy },
      events: { unverifiedUserReplaced },
    });
    return { config, unverifiedUserReplaced };
  }

  it("leaves the owner with a new user of their own, and the squatter's passkey and session with nothing", async () => {
    const { config, unverifiedUserReplaced } = setup();

    // Mallory, signed out, registers a passkey under Victor's address: nobody has it, so it is allowed.
    const mallory = new PasskeyClient(config);
    const squatterKey = await softAuthenticator();
    expect(redirectOf(await mallory.register(squatterKey, VICTOR)).error).toBeNull();
    const squatted = (await config.adapter.getUserByEmail(VICTOR))!;
    expect(squatted.emailVerified).toBeNull();
    expect(await sessionUserId(config, mallory)).toBe(squatted.id);

    // Victor proves the address.
    const victor = new PasskeyClient(config);
    const { link } = await mailedLink(victor, smtp, VICTOR);
    const followed = await victor.get(link.href);
    expect(redirectOf(followed).error).toBeNull();

    // Victor is a new, verified user; Mallory's user is gone with her passkey and account.
    const owner = (await config.adapter.getUserByEmail(VICTOR))!;
    expect(owner.id).not.toBe(squatted.id);
    expect(owner.emailVerified).toBeInstanceOf(Date);
    expect(await victor.signedInAs()).toBe(VICTOR);
    expect(await sessionUserId(config, victor)).toBe(owner.id);
    expect(await config.adapter.getUser(squatted.id)).toBeNull();
    expect(await config.adapter.listAuthenticatorsByUserId(squatted.id)).toEqual([]);
    expect(await config.adapter.getAuthenticator(squatterKey.storedId)).toBeNull();
    expect(await config.adapter.getUserByAccount({ provider: "passkey", providerAccountId: squatterKey.storedId })).toBeNull();
    expect(await config.adapter.listAuthenticatorsByUserId(owner.id)).toEqual([]);

    // The application hears of it.
    expect(unverifiedUserReplaced).toHaveBeenCalledOnce();
    expect(unverifiedUserReplaced.mock.calls[0]![0]).toMatchObject({
      previousUser: { id: squatted.id, email: VICTOR, emailVerified: null },
      user: { id: owner.id, email: VICTOR },
      account: { type: "email", providerAccountId: VICTOR },
    });

    // Mallory's passkey no longer signs in, anywhere.
    const again = new PasskeyClient(config);
    expect(redirectOf(await again.authenticate(squatterKey)).error).toBe("WebAuthnVerificationError");
    expect(await again.session()).toBeNull();
    // Her session: a database session is gone; a JWT still opens but names a user that no longer
    // exists, never Victor's.
    if (strategy === "database") expect(await mallory.session()).toBeNull();
    const malloryNames = await sessionUserId(config, mallory);
    expect(malloryNames).not.toBe(owner.id);
    if (malloryNames !== null) expect(await config.adapter.getUser(malloryNames)).toBeNull();
    // Nor can she squat again: the address is someone's now.
    const retry = await new PasskeyClient(config).get(`/webauthn-options/passkey?action=register&email=${encodeURIComponent(VICTOR)}`);
    expect(retry.status).toBe(400);
  });

  it("does not lock the owner out: the next link signs in as the same user, who can then add a passkey", async () => {
    const { config, unverifiedUserReplaced } = setup();
    await new PasskeyClient(config).register(await softAuthenticator(), VICTOR);
    const first = new PasskeyClient(config);
    await first.get((await mailedLink(first, smtp, VICTOR)).link.href);
    const owner = (await config.adapter.getUserByEmail(VICTOR))!;

    const later = new PasskeyClient(config);
    await later.get((await mailedLink(later, smtp, VICTOR)).link.href);
    expect(await sessionUserId(config, later)).toBe(owner.id);
    expect(unverifiedUserReplaced).toHaveBeenCalledOnce();

    const ownKey = await softAuthenticator();
    const answer = await later.options({ action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    expect(redirectOf(await later.answer("register", await ownKey.register(answer.options))).error).toBeNull();
    const elsewhere = new PasskeyClient(config);
    expect(redirectOf(await elsewhere.authenticate(ownKey)).error).toBeNull();
    expect(await sessionUserId(config, elsewhere)).toBe(owner.id);
  });

  it("leaves a verified owner's passkeys alone when they sign in by email link", async () => {
    const { config, unverifiedUserReplaced } = setup();
    const victor = new PasskeyClient(config);
    await victor.get((await mailedLink(victor, smtp, VICTOR)).link.href);
    const ownKey = await softAuthenticator();
    const answer = await victor.options({ action: "register" });
    if (answer.action !== "register") throw new Error("expected register");
    await victor.answer("register", await ownKey.register(answer.options));

    const later = new PasskeyClient(config);
    await later.get((await mailedLink(later, smtp, VICTOR)).link.href);
    expect(unverifiedUserReplaced).not.toHaveBeenCalled();
    expect(redirectOf(await new PasskeyClient(config).authenticate(ownKey)).error).toBeNull();
  });
});

describe("a configuration whose sign-ins can prove addresses", () => {
  const { deleteUser: _deleteUser, ...withoutDeleteUser } = MemoryAdapter();
  const base = { secret: SECRET, trustHost: true, adapter: withoutDeleteUser };
  const oidc = (allowDangerousEmailAccountLinking: boolean) =>
    ({ id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.example.com", clientId: "id", clientSecret: "secret", allowDangerousEmailAccountLinking }) as AuthConfig["providers"][number];

  it("is refused at start-up when the adapter cannot delete users, with email links", () => {
    const config: AuthConfig = { ...base, providers: [Nodemailer({ server: smtp.server, from: "a@example.test" })] };
    expect(() => getRuntime(config, {})).toThrow(MissingAdapterMethods);
    expect(() => getRuntime(config, {})).toThrow(/deleteUser/);
  });

  it("is refused at start-up when the adapter cannot delete users, with a provider that may link by email", () => {
    expect(() => getRuntime({ ...base, providers: [oidc(true)] }, {})).toThrow(/deleteUser/);
  });

  it("needs no deleteUser when no sign-in can prove an address someone has", () => {
    expect(() => getRuntime({ ...base, providers: [oidc(false)] }, {})).not.toThrow();
  });
});
