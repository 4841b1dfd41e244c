import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import {
  webauthnMachine,
  type CeremonyChallenge,
  type CeremonyOptions,
  type PasskeyDescriptor,
  type VerifiedCredential,
  type WebAuthnInput,
  type LimitVerdict,
} from "../../machines/index.js";
import type { WebAuthnContext } from "../../machines/webauthn.machine.js";
import type { SetCookie } from "../../src/cookies.js";
import { EmailSignInError, WebAuthnVerificationError } from "../../src/errors.js";
import type { Account, AdapterAuthenticator, AdapterUser } from "../../src/types.js";
import { ada, completionIn, grace, newUserFrom, sessionCookies, type World } from "./completion-world.js";
import { runActor } from "./run-actor.js";
import { challengeCookies, clearCookies, gracesPasskey, providerId, request, webauthnCredential } from "./webauthn.fixtures.js";

const options: CeremonyOptions = { challenge: "challenge-1", rp: { id: "app.example", name: "app.example" } };
const credential = { id: "cred-1", rawId: "cred-1", type: "public-key", response: { clientDataJSON: "e30" } };
const callbackUrl = "https://app.example/dashboard";

const newAddress = "ada.l@example.com";
const authenticator = {
  credentialID: "cred-new",
  credentialPublicKey: "cHVibGljLWtleQ==",
  counter: 0,
  credentialDeviceType: "multiDevice",
  credentialBackedUp: true,
  transports: "internal",
};
const newPasskey: Account = { provider: providerId, type: "webauthn", providerAccountId: "cred-new", authenticator };
const knownPasskey: Account = { provider: providerId, type: "webauthn", providerAccountId: "cred-1" };
const gracesDescriptors: PasskeyDescriptor[] = [{ id: "cred-1", transports: ["internal"] }];

const registerChallenge: CeremonyChallenge = { value: "challenge-1", action: "register", email: newAddress };
const authenticateChallenge: CeremonyChallenge = { value: "challenge-1", action: "authenticate" };
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

interface Effects {
  checkRequestLimit: (input: unknown) => Promise<LimitVerdict>;
  normalizeEmail: (input: { email: string }) => Promise<string>;
  findSignedInUser: (input: unknown) => Promise<string | undefined>;
  findUserByEmail: (input: { email: string }) => Promise<AdapterUser | null>;
  findUser: (input: { userId: string }) => Promise<AdapterUser | null>;
  listPasskeys: (input: { userId: string }) => Promise<PasskeyDescriptor[]>;
  generateRegistrationOptions: (input: unknown) => Promise<CeremonyOptions>;
  generateAuthenticationOptions: (input: unknown) => Promise<CeremonyOptions>;
  recordChallenge: (input: unknown) => Promise<void>;
  sealChallenge: (input: unknown) => Promise<SetCookie[]>;
  openChallenge: (input: unknown) => Promise<CeremonyChallenge>;
  consumeChallenge: (input: unknown) => Promise<void>;
  findPasskey: (input: { credentialId: string }) => Promise<AdapterAuthenticator | null>;
  verifyAuthentication: (input: unknown) => Promise<number>;
  updatePasskeyCounter: (input: unknown) => Promise<void>;
  verifyRegistration: (input: { email?: string }) => Promise<VerifiedCredential>;
  resolveRedirect: (input: { url: string; isNewUser: boolean }) => Promise<string>;
}

/**
 * Fakes for nobody signed in and nobody stored, a new passkey registered for a new address, with the
 * real sign-in completion answering as `world` says; each test overrides the effects it is about.
 */
function fakes(world: World = nobodyKnown, overrides: Partial<Effects> = {}) {
  const defaults: Effects = {
    checkRequestLimit: async () => ({ allowed: true, retryAfter: 0, counts: {} }),
    normalizeEmail: async ({ email }) => email.trim().toLowerCase(),
    findSignedInUser: async () => undefined,
    findUserByEmail: async () => null,
    findUser: async ({ userId }) => [ada, grace].find((user) => user.id === userId) ?? null,
    listPasskeys: async () => [],
    generateRegistrationOptions: async () => options,
    generateAuthenticationOptions: async () => options,
    recordChallenge: async () => undefined,
    sealChallenge: async () => challengeCookies,
    openChallenge: async () => registerChallenge,
    consumeChallenge: async () => undefined,
    findPasskey: async () => gracesPasskey,
    verifyAuthentication: async () => 5,
    updatePasskeyCounter: async () => undefined,
    verifyRegistration: async ({ email }) => ({ user: { email: email ?? null, name: email ?? null }, account: newPasskey }),
    resolveRedirect: async ({ url }) => url,
  };
  const effects = Object.fromEntries(
    Object.entries(defaults).map(([name, fake]) => [name, vi.fn(overrides[name as keyof Effects] ?? fake)]),
  ) as unknown as { [K in keyof Effects]: ReturnType<typeof vi.fn<Effects[K]>> };
  const completion = completionIn(world, (input) => effects.resolveRedirect(input));
  const actors = Object.fromEntries(
    Object.keys(defaults)
      .filter((name) => name !== "resolveRedirect")
      .map((name) => [name, fromPromise(({ input }) => (effects[name as keyof Effects] as (input: unknown) => Promise<unknown>)(input))]),
  );
  const machine = webauthnMachine.provide({ actors: { ...actors, completeSignIn: completion.machine } });
  return { machine, effects, completion };
}

type Machine = ReturnType<typeof fakes>["machine"];

/** The first request: up to the browser's ceremony. */
const askOptions = (machine: Machine, input: Partial<WebAuthnInput> = {}) =>
  runActor(machine, { providerId, request, ...input }, { until: "awaitingCredential" });
/** The second request: restored at awaitingCredential and posted the browser's credential. */
const postCredential = (machine: Machine, action: string, response: unknown = credential) =>
  runActor(machine, undefined, { resume: webauthnCredential({ action, response, callbackUrl }) });

describe("WebAuthn machine: the options request", () => {
  it("registers a new address: generates the options, records and seals the challenge, and rests in awaitingCredential", async () => {
    const { machine, effects } = fakes();
    const { value, status, output, context, emitted } = await askOptions(machine, { email: " Ada.L@example.com" });
    expect(value).toBe("awaitingCredential");
    expect(status).toBe("active");
    expect(output).toBeUndefined();
    expect((context as WebAuthnContext).action).toBe("register");
    expect((context as WebAuthnContext).options).toBe(options);
    expect((context as WebAuthnContext).challengeCookies).toBe(challengeCookies);
    expect(effects.normalizeEmail).toHaveBeenCalledWith({ email: " Ada.L@example.com" });
    expect(effects.findUserByEmail).toHaveBeenCalledWith({ email: newAddress });
    expect(effects.listPasskeys).not.toHaveBeenCalled();
    expect(effects.generateRegistrationOptions).toHaveBeenCalledWith({
      providerId,
      origin: request.origin,
      userName: newAddress,
      userDisplayName: newAddress,
      excludeCredentials: [],
    });
    expect(effects.recordChallenge).toHaveBeenCalledWith({ providerId, challenge: "challenge-1" });
    expect(effects.sealChallenge).toHaveBeenCalledWith({ providerId, challenge: registerChallenge });
    expect(effects.consumeChallenge).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("keeps nothing but plain data in the context it rests with", async () => {
    const { machine } = fakes();
    const { context } = await askOptions(machine, { email: newAddress });
    expect(JSON.parse(JSON.stringify(context))).toEqual(context);
  });

  it("awaitingCredential, where the flow is persisted between the requests, invokes nothing and starts no timer", () => {
    const resting = webauthnMachine.getStateNodeById("webauthn.awaitingCredential");
    expect(resting.invoke).toEqual([]);
    expect(resting.after).toEqual([]);
    expect(Object.keys(resting.on)).toEqual(["credential.received"]);
  });

  it("a signed-in user adds a passkey under their stored address, their passkeys excluded, without looking the sent address up", async () => {
    const { machine, effects } = fakes(nobodyKnown, {
      findSignedInUser: async () => ada.id,
      listPasskeys: async () => gracesDescriptors,
    });
    const { value, context } = await askOptions(machine, { email: "someone@else.example" });
    expect(value).toBe("awaitingCredential");
    expect(effects.findUserByEmail).not.toHaveBeenCalled();
    expect(effects.findUser).toHaveBeenCalledWith({ userId: ada.id });
    expect(effects.listPasskeys).toHaveBeenCalledWith({ userId: ada.id });
    expect(effects.generateRegistrationOptions).toHaveBeenCalledWith({
      providerId,
      origin: request.origin,
      userName: ada.email,
      userDisplayName: ada.name,
      excludeCredentials: gracesDescriptors,
    });
    expect(effects.sealChallenge).toHaveBeenCalledWith({
      providerId,
      challenge: { value: "challenge-1", action: "register", email: ada.email, userId: ada.id },
    });
    expect((context as WebAuthnContext).action).toBe("register");
  });

  it("an address whose owner has passkeys authenticates with them, listed once", async () => {
    const { machine, effects } = fakes(nobodyKnown, { findUserByEmail: async () => grace, listPasskeys: async () => gracesDescriptors });
    const { value, context } = await askOptions(machine, { email: grace.email! });
    expect(value).toBe("awaitingCredential");
    expect((context as WebAuthnContext).action).toBe("authenticate");
    expect(effects.listPasskeys).toHaveBeenCalledTimes(1);
    expect(effects.generateAuthenticationOptions).toHaveBeenCalledWith({ providerId, origin: request.origin, allowCredentials: gracesDescriptors });
    expect(effects.generateRegistrationOptions).not.toHaveBeenCalled();
    expect(effects.sealChallenge).toHaveBeenCalledWith({ providerId, challenge: authenticateChallenge });
  });

  it("no address and nobody signed in: authenticates with whatever passkey the browser keeps, looking nobody up", async () => {
    const { machine, effects } = fakes();
    const { value, context } = await askOptions(machine);
    expect(value).toBe("awaitingCredential");
    expect((context as WebAuthnContext).action).toBe("authenticate");
    expect(effects.findUserByEmail).not.toHaveBeenCalled();
    expect(effects.findUser).not.toHaveBeenCalled();
    expect(effects.generateAuthenticationOptions).toHaveBeenCalledWith({ providerId, origin: request.origin, allowCredentials: [] });
  });

  it("a signed-out registration for an address someone has (asked for, or because they have no passkey) is refused as not linked before any options or challenge", async () => {
    for (const requestedAction of ["register", undefined] as const) {
      const { machine, effects } = fakes(nobodyKnown, { findUserByEmail: async () => grace });
      const { value, output } = await askOptions(machine, { email: grace.email!, ...(requestedAction ? { requestedAction } : {}) });
      expect(value, String(requestedAction)).toBe("failed");
      expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, cookies: [] });
      expect(effects.listPasskeys).toHaveBeenCalledTimes(requestedAction ? 0 : 1);
      expect(effects.generateRegistrationOptions).not.toHaveBeenCalled();
      expect(effects.recordChallenge).not.toHaveBeenCalled();
    }
  });

  it("the same address signed in goes on to register the passkey for the signed-in user", async () => {
    const { machine, effects } = fakes(nobodyKnown, { findSignedInUser: async () => grace.id, findUserByEmail: async () => grace });
    expect((await askOptions(machine, { email: grace.email!, requestedAction: "register" })).value).toBe("awaitingCredential");
    expect(effects.generateRegistrationOptions).toHaveBeenCalledTimes(1);
  });

  it("a registration with no address and nobody behind the session is refused before any options", async () => {
    const { machine, effects } = fakes(nobodyKnown, { findSignedInUser: async () => "user-deleted" });
    const { value, output } = await askOptions(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: "noAddressToRegister", as: "WebAuthnVerificationError" }, cookies: [] });
    expect(effects.generateRegistrationOptions).not.toHaveBeenCalled();
  });

  it("an address that does not normalise is refused as EmailSignInError before anything is looked up", async () => {
    const notOne = new EmailSignInError("That is not one plain email address.");
    const { machine, effects } = fakes(nobodyKnown, { normalizeEmail: () => Promise.reject(notOne) });
    const { value, output } = await askOptions(machine, { email: "a@x.test,b@y.test" });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: notOne, as: "EmailSignInError" }, cookies: [] });
    expect(effects.findSignedInUser).not.toHaveBeenCalled();
    expect(effects.findUserByEmail).not.toHaveBeenCalled();
  });

  it("options that cannot be generated refuse with the error as it is and no challenge cookie", async () => {
    const broken = new Error("generateRegistrationOptions: the library threw");
    const { machine, effects } = fakes(nobodyKnown, { generateRegistrationOptions: () => Promise.reject(broken) });
    const { value, output } = await askOptions(machine, { email: newAddress });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken }, cookies: [] });
    expect(effects.recordChallenge).not.toHaveBeenCalled();
  });

  it("a challenge the store cannot record is never sealed into a cookie", async () => {
    const down = new Error("recordChallenge: the store is down");
    const { machine, effects } = fakes(nobodyKnown, { recordChallenge: () => Promise.reject(down) });
    const { value, output } = await askOptions(machine, { email: newAddress });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: down }, cookies: [] });
    expect(effects.sealChallenge).not.toHaveBeenCalled();
  });
});

describe("WebAuthn machine: the callback", () => {
  it("a credential posted for another action than its challenge is refused without verifying anything", async () => {
    for (const [challenge, posted] of [
      [authenticateChallenge, "register"],
      [registerChallenge, "authenticate"],
      [registerChallenge, "bogus"],
      [authenticateChallenge, ""],
    ] as const) {
      const { machine, effects, completion } = fakes(nobodyKnown, { openChallenge: async () => challenge });
      const { value, output, emitted } = await postCredential(machine, posted);
      const said = `${challenge.action} challenge, posted "${posted}"`;
      expect(value, said).toBe("failed");
      expect(output, said).toEqual({ outcome: "refused", failure: { error: undefined, as: "WebAuthnVerificationError" }, cookies: clearCookies });
      expect(effects.verifyRegistration, said).not.toHaveBeenCalled();
      expect(effects.findPasskey, said).not.toHaveBeenCalled();
      expect(completion.ran(), said).toEqual([]);
      expect(emitted, said).toEqual([]);
    }
  });

  it("opens the challenge the browser sent back, and consumes it before anything else", async () => {
    const { machine, effects } = fakes();
    await postCredential(machine, "register");
    expect(effects.openChallenge).toHaveBeenCalledWith({ providerId, sealed: "sealed-challenge" });
    expect(effects.consumeChallenge).toHaveBeenCalledWith({ providerId, challenge: "challenge-1" });
    expect(effects.consumeChallenge.mock.invocationCallOrder[0]).toBeLessThan(effects.verifyRegistration.mock.invocationCallOrder[0]!);
  });

  it("a replayed challenge (consumeChallenge throws) is refused as WebAuthnVerificationError, keeping the error and still clearing the challenge cookie", async () => {
    const replayed = new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
    const { machine, effects } = fakes(nobodyKnown, { consumeChallenge: () => Promise.reject(replayed) });
    const { value, output } = await postCredential(machine, "register");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: replayed, as: "WebAuthnVerificationError" }, cookies: clearCookies });
    expect(effects.verifyRegistration).not.toHaveBeenCalled();
    expect(effects.findPasskey).not.toHaveBeenCalled();
  });

  it("a ceremony whose signed-in user changed since its options is refused before verifying", async () => {
    for (const [mintedFor, now] of [[ada.id, undefined], [undefined, ada.id], [ada.id, grace.id]] as const) {
      const challenge = { ...registerChallenge, ...(mintedFor ? { userId: mintedFor } : {}) };
      const { machine, effects } = fakes(nobodyKnown, { openChallenge: async () => challenge, findSignedInUser: async () => now });
      const { value, output } = await postCredential(machine, "register");
      expect(value).toBe("failed");
      expect(output).toEqual({ outcome: "refused", failure: { error: "signedInUserChanged", as: "WebAuthnVerificationError" }, cookies: clearCookies });
      expect(effects.verifyRegistration).not.toHaveBeenCalled();
    }
  });

  it("a verified registration hands the completion the new account with its authenticator and type webauthn", async () => {
    const { machine, effects, completion } = fakes();
    const { value, output, emitted } = await postCredential(machine, "register");
    expect(effects.verifyRegistration).toHaveBeenCalledWith({
      providerId,
      origin: request.origin,
      response: credential,
      challenge: "challenge-1",
      email: newAddress,
    });
    expect(effects.findPasskey).not.toHaveBeenCalled();
    const user = { email: newAddress, name: newAddress };
    expect(completion.inputOf("findUserByAccount")).toEqual({ account: newPasskey });
    expect(completion.inputOf("createUserWithAccount")).toEqual({ user, account: newPasskey, emailVerified: false });
    expect((completion.inputOf("createUserWithAccount") as { account: Account }).account).toMatchObject({ type: "webauthn", authenticator });
    const created = newUserFrom(user, false);
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: callbackUrl, cookies: [...clearCookies, ...sessionCookies] });
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: callbackUrl, isNewUser: true, request });
    expect(emitted).toEqual([
      { type: "createUser", user: created },
      { type: "linkAccount", user: created, account: newPasskey, profile: user },
      { type: "signIn", user: created, account: newPasskey, isNewUser: true },
    ]);
  });

  it("a passkey registered by the signed-in user is verified with the challenge's email and linked to them", async () => {
    const forAda: CeremonyChallenge = { value: "challenge-1", action: "register", email: ada.email!, userId: ada.id };
    const { machine, effects, completion } = fakes(nobodyKnown, { openChallenge: async () => forAda, findSignedInUser: async () => ada.id });
    const { output, emitted } = await postCredential(machine, "register");
    expect(effects.verifyRegistration).toHaveBeenCalledWith(expect.objectContaining({ email: ada.email }));
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(completion.inputOf("linkAccount")).toEqual({ userId: ada.id, account: newPasskey });
    expect(output.outcome).toBe("signedIn");
    expect(emitted.map((event) => event.type)).toEqual(["linkAccount", "signIn"]);
  });

  it("a passkey that authenticates is found, verified against its stored counter, its counter updated, and signs in its stored owner", async () => {
    const { machine, effects } = fakes({ ...nobodyKnown, accountOwner: grace }, { openChallenge: async () => authenticateChallenge });
    const { value, output, emitted } = await postCredential(machine, "authenticate");
    expect(effects.findPasskey).toHaveBeenCalledWith({ credentialId: "cred-1" });
    expect(effects.verifyAuthentication).toHaveBeenCalledWith({
      providerId,
      origin: request.origin,
      response: credential,
      challenge: "challenge-1",
      passkey: gracesPasskey,
    });
    expect(effects.updatePasskeyCounter).toHaveBeenCalledWith({ credentialId: gracesPasskey.credentialID, counter: 5 });
    expect(effects.findUser).toHaveBeenCalledWith({ userId: grace.id });
    expect(effects.verifyRegistration).not.toHaveBeenCalled();
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: callbackUrl, cookies: [...clearCookies, ...sessionCookies] });
    expect(emitted).toEqual([{ type: "signIn", user: grace, account: knownPasskey, isNewUser: false }]);
  });

  it("an authentication without a credential id, with an unknown passkey, or whose owner is gone is refused with its reason and no session", async () => {
    const cases = [
      { overrides: {}, response: { rawId: "cred-1" }, reason: "noCredentialPosted" },
      { overrides: { findPasskey: async () => null }, response: credential, reason: "unknownPasskey" },
      { overrides: { findUser: async () => null }, response: credential, reason: "passkeyOwnerGone" },
    ] satisfies Array<{ overrides: Partial<Effects>; response: unknown; reason: string }>;
    for (const { overrides, response, reason } of cases) {
      const { machine, completion } = fakes(nobodyKnown, { openChallenge: async () => authenticateChallenge, ...overrides });
      const { value, output, emitted } = await postCredential(machine, "authenticate", response);
      expect(value, reason).toBe("failed");
      expect(output, reason).toEqual({ outcome: "refused", failure: { error: reason, as: "WebAuthnVerificationError" }, cookies: clearCookies });
      expect(completion.ran(), reason).toEqual([]);
      expect(emitted, reason).toEqual([]);
    }
  });

  it("an answer that does not verify is refused as WebAuthnVerificationError keeping its cause, its counter untouched, with no session", async () => {
    const bad = new WebAuthnVerificationError("The passkey's answer did not verify.");
    const { machine, effects, completion } = fakes(nobodyKnown, {
      openChallenge: async () => authenticateChallenge,
      verifyAuthentication: () => Promise.reject(bad),
    });
    const { value, output, emitted } = await postCredential(machine, "authenticate");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: bad, as: "WebAuthnVerificationError" }, cookies: clearCookies });
    expect(effects.updatePasskeyCounter).not.toHaveBeenCalled();
    expect(completion.ran()).toEqual([]);
    expect(emitted).toEqual([]);
  });

  it("a new passkey for an address someone else owns is refused as OAuthAccountNotLinked, clearing the challenge cookie", async () => {
    const { machine } = fakes({ ...nobodyKnown, emailOwner: { ...grace, email: newAddress } });
    const { value, output, emitted } = await postCredential(machine, "register");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, cookies: clearCookies });
    expect(emitted).toEqual([]);
  });

  it("a redirect that cannot be resolved after the completion refuses with its error, sets no session and announces nothing", async () => {
    const broken = new Error("the redirect callback threw");
    const { machine } = fakes(nobodyKnown, { resolveRedirect: () => Promise.reject(broken) });
    const { value, output, emitted } = await postCredential(machine, "register");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken }, cookies: clearCookies });
    expect(emitted).toEqual([]);
  });
});
