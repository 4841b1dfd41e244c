import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { webauthnMachine, type VerifiedCredential, type WebAuthnContext, type WebAuthnInput, type LimitVerdict } from "../../machines/index.js";
import { expireCookie, type SetCookie } from "../../src/cookies.js";
import { EmailSignInError, WebAuthnVerificationError } from "../../src/errors.js";
import type { Account } from "../../src/types.js";
import { ada, completionIn, grace, newUserFrom, sessionCookies, type World } from "./completion-world.js";
import { requestContext, webauthnCredential } from "./fixtures.js";
import { runActor } from "./run-actor.js";

type Challenge = NonNullable<WebAuthnContext["challenge"]>;
type Restored = { challenge: Challenge; clearCookies: SetCookie[]; currentUserId?: string };

const providerId = "passkey";
const optionsReq = requestContext("webauthn-options", "GET");
const cookie = optionsReq.cookies.webauthnChallenge;
const options = { challenge: "challenge-1", rp: { id: "app.example", name: "app.example" } };
const challengeCookies: SetCookie[] = [{ name: cookie.name, value: "sealed-challenge", options: { ...cookie.options, maxAge: 300 } }];
const callbackReq = { ...requestContext("callback"), jar: new Map([[cookie.name, "sealed-challenge"]]) };
const clearCookies: SetCookie[] = [expireCookie(cookie.name, cookie.options)];
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

const registerChallenge: Restored = { challenge: { value: "challenge-1", action: "register", email: newAddress }, clearCookies };
const authenticateChallenge: Restored = { challenge: { value: "challenge-1", action: "authenticate" }, clearCookies };
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

interface Effects {
  checkRequestLimit: (input: unknown) => Promise<LimitVerdict>;
  normalizeEmail: (input: { email: string }) => Promise<string>;
  decideAction: (input: unknown) => Promise<{ action: "register" | "authenticate"; currentUserId?: string; emailTaken?: boolean }>;
  generateOptions: (input: unknown) => Promise<{ options: unknown; cookies: SetCookie[] }>;
  consumeChallenge: (input: unknown) => Promise<Restored>;
  verifyAuthentication: (input: unknown) => Promise<VerifiedCredential>;
  verifyRegistration: (input: { email?: string }) => Promise<VerifiedCredential>;
  resolveRedirect: (input: { url: string; isNewUser: boolean }) => Promise<string>;
}

/**
 * Fakes for a new passkey registered for a new address, with the real sign-in completion answering
 * as `world` says; each test overrides the effect it is about.
 */
function fakes(world: World = nobodyKnown, overrides: Partial<Effects> = {}) {
  const effects = {
    checkRequestLimit: vi.fn(overrides.checkRequestLimit ?? (async (_: unknown): Promise<LimitVerdict> => ({ allowed: true, retryAfter: 0, counts: {} }))),
    normalizeEmail: vi.fn(overrides.normalizeEmail ?? (async ({ email }: { email: string }) => email.trim().toLowerCase())),
    decideAction: vi.fn(overrides.decideAction ?? (async () => ({ action: "register" as const }))),
    generateOptions: vi.fn(overrides.generateOptions ?? (async () => ({ options, cookies: challengeCookies }))),
    consumeChallenge: vi.fn(overrides.consumeChallenge ?? (async () => registerChallenge)),
    verifyAuthentication: vi.fn(
      overrides.verifyAuthentication ?? (async () => ({ user: grace, account: knownPasskey, storedUser: grace })),
    ),
    verifyRegistration: vi.fn(
      overrides.verifyRegistration ??
        (async ({ email }) => ({ user: { email: email ?? null, name: email ?? null }, account: newPasskey })),
    ),
    resolveRedirect: vi.fn(overrides.resolveRedirect ?? (async ({ url }) => url)),
  };
  const completion = completionIn(world, (input) => effects.resolveRedirect(input));
  const machine = webauthnMachine.provide({
    actors: {
      checkRequestLimit: fromPromise(({ input }) => effects.checkRequestLimit(input)),
      normalizeEmail: fromPromise(({ input }) => effects.normalizeEmail(input)),
      decideAction: fromPromise(({ input }) => effects.decideAction(input)),
      generateOptions: fromPromise(({ input }) => effects.generateOptions(input)),
      consumeChallenge: fromPromise(({ input }) => effects.consumeChallenge(input)),
      verifyAuthentication: fromPromise(({ input }) => effects.verifyAuthentication(input)),
      verifyRegistration: fromPromise(({ input }) => effects.verifyRegistration(input)),
      completeSignIn: completion.machine,
    },
  });
  return { machine, effects, completion };
}

type Machine = ReturnType<typeof fakes>["machine"];

/** The first request: up to the browser's ceremony. */
const askOptions = (machine: Machine, input: Partial<WebAuthnInput> = {}) =>
  runActor(machine, { providerId, req: optionsReq, ...input }, { until: "awaitingCredential" });
/** The second request: restored at awaitingCredential and posted the browser's credential. */
const postCredential = (machine: Machine, action: string) =>
  runActor(machine, undefined, { resume: webauthnCredential({ providerId, req: callbackReq }, { action, response: credential, callbackUrl }) });

describe("WebAuthn machine", () => {
  it("the options request decides the ceremony, generates its options and rests in awaitingCredential with the challenge cookie, verifying nothing", async () => {
    const { machine, effects } = fakes(nobodyKnown, { decideAction: async () => ({ action: "register", currentUserId: ada.id }) });
    const { value, status, output, context, emitted } = await askOptions(machine, { email: " Ada.L@example.com" });
    expect(value).toBe("awaitingCredential");
    expect(status).toBe("active");
    expect(output).toBeUndefined();
    expect((context as WebAuthnContext).options).toBe(options);
    expect((context as WebAuthnContext).challengeCookies).toBe(challengeCookies);
    expect(effects.normalizeEmail).toHaveBeenCalledWith({ email: " Ada.L@example.com" });
    expect(effects.decideAction).toHaveBeenCalledWith({ providerId, email: newAddress, req: optionsReq });
    expect(effects.generateOptions).toHaveBeenCalledWith({ providerId, action: "register", email: newAddress, currentUserId: ada.id, req: optionsReq });
    expect(effects.consumeChallenge).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("awaitingCredential, where the flow is persisted between the requests, invokes nothing and starts no timer", () => {
    const resting = webauthnMachine.getStateNodeById("webauthn.awaitingCredential");
    expect(resting.invoke).toEqual([]);
    expect(resting.after).toEqual([]);
    expect(Object.keys(resting.on)).toEqual(["credential.received"]);
  });

  it("a signed-out registration for an address someone has is refused as not linked before any options or challenge", async () => {
    const { machine, effects } = fakes(nobodyKnown, { decideAction: async () => ({ action: "register", emailTaken: true }) });
    const { value, output } = await askOptions(machine, { email: grace.email!, requestedAction: "register" });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, cookies: [] });
    expect(effects.generateOptions).not.toHaveBeenCalled();
  });

  it("the same address signed in, or to authenticate, goes on to the options", async () => {
    for (const decided of [{ action: "register" as const, emailTaken: true, currentUserId: grace.id }, { action: "authenticate" as const, emailTaken: true }]) {
      const { machine, effects } = fakes(nobodyKnown, { decideAction: async () => decided });
      expect((await askOptions(machine, { email: grace.email! })).value).toBe("awaitingCredential");
      expect(effects.generateOptions).toHaveBeenCalledTimes(1);
    }
  });

  it("an address that does not normalise is refused as EmailSignInError before anything is decided", async () => {
    const notOne = new EmailSignInError("That is not one plain email address.");
    const { machine, effects } = fakes(nobodyKnown, { normalizeEmail: () => Promise.reject(notOne) });
    const { value, output } = await askOptions(machine, { email: "a@x.test,b@y.test" });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: notOne, as: "EmailSignInError" }, cookies: [] });
    expect(effects.decideAction).not.toHaveBeenCalled();
    expect(effects.generateOptions).not.toHaveBeenCalled();
  });

  it("options that cannot be generated refuse with the error as it is and no challenge cookie", async () => {
    const noEmail = new WebAuthnVerificationError("Registering a passkey needs an email address or a signed-in user.");
    const { machine } = fakes(nobodyKnown, { generateOptions: () => Promise.reject(noEmail) });
    const { value, output } = await askOptions(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: noEmail }, cookies: [] });
  });

  it("a credential posted for another action than its challenge is refused without verifying anything", async () => {
    for (const [challenge, posted] of [
      [authenticateChallenge, "register"],
      [registerChallenge, "authenticate"],
      [registerChallenge, "bogus"],
      [authenticateChallenge, ""],
    ] as const) {
      const { machine, effects, completion } = fakes(nobodyKnown, { consumeChallenge: async () => challenge });
      const { value, output, emitted } = await postCredential(machine, posted);
      const said = `${challenge.challenge.action} challenge, posted "${posted}"`;
      expect(value, said).toBe("failed");
      expect(output, said).toEqual({ outcome: "refused", failure: { error: undefined, as: "WebAuthnVerificationError" }, cookies: clearCookies });
      expect(effects.verifyRegistration, said).not.toHaveBeenCalled();
      expect(effects.verifyAuthentication, said).not.toHaveBeenCalled();
      expect(completion.ran(), said).toEqual([]);
      expect(emitted, said).toEqual([]);
    }
  });

  it("a replayed challenge (consumeChallenge throws) is refused as WebAuthnVerificationError, keeping the error and still clearing the challenge cookie", async () => {
    const replayed = new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
    const { machine, effects } = fakes(nobodyKnown, { consumeChallenge: () => Promise.reject(replayed) });
    const { value, output } = await postCredential(machine, "register");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: replayed, as: "WebAuthnVerificationError" }, cookies: clearCookies });
    expect(effects.consumeChallenge).toHaveBeenCalledWith({ providerId, req: callbackReq });
    expect(effects.verifyRegistration).not.toHaveBeenCalled();
    expect(effects.verifyAuthentication).not.toHaveBeenCalled();
  });

  it("a verified registration hands the completion the new account with its authenticator and type webauthn", async () => {
    const { machine, effects, completion } = fakes();
    const { value, output, emitted } = await postCredential(machine, "register");
    expect(effects.verifyRegistration).toHaveBeenCalledWith({
      providerId,
      response: credential,
      challenge: "challenge-1",
      email: newAddress,
      req: callbackReq,
    });
    expect(effects.verifyAuthentication).not.toHaveBeenCalled();
    const user = { email: newAddress, name: newAddress };
    expect(completion.inputOf("findUserByAccount")).toEqual({ account: newPasskey });
    expect(completion.inputOf("createUserWithAccount")).toEqual({ user, account: newPasskey, emailVerified: false });
    expect((completion.inputOf("createUserWithAccount") as { account: Account }).account).toMatchObject({
      type: "webauthn",
      authenticator,
    });
    const created = newUserFrom(user, false);
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: callbackUrl, cookies: [...clearCookies, ...sessionCookies] });
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: callbackUrl, isNewUser: true, req: callbackReq });
    expect(emitted).toEqual([
      { type: "createUser", user: created },
      { type: "linkAccount", user: created, account: newPasskey, profile: user },
      { type: "signIn", user: created, account: newPasskey, isNewUser: true },
    ]);
  });

  it("a passkey registered by the signed-in user is verified with the challenge's email and user id and linked to them", async () => {
    const forAda: Restored = {
      challenge: { value: "challenge-1", action: "register", email: ada.email!, userId: ada.id },
      clearCookies,
      currentUserId: ada.id,
    };
    const { machine, effects, completion } = fakes(nobodyKnown, { consumeChallenge: async () => forAda });
    const { output, emitted } = await postCredential(machine, "register");
    expect(effects.verifyRegistration).toHaveBeenCalledWith(expect.objectContaining({ email: ada.email, userId: ada.id }));
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(completion.inputOf("linkAccount")).toEqual({ userId: ada.id, account: newPasskey });
    expect(output.outcome).toBe("signedIn");
    expect(emitted.map((event) => event.type)).toEqual(["linkAccount", "signIn"]);
  });

  it("a passkey that authenticates signs in its stored owner, never running the registration", async () => {
    const { machine, effects } = fakes(
      { ...nobodyKnown, accountOwner: grace },
      { consumeChallenge: async () => authenticateChallenge },
    );
    const { value, output, emitted } = await postCredential(machine, "authenticate");
    expect(effects.verifyAuthentication).toHaveBeenCalledWith({ providerId, response: credential, challenge: "challenge-1", req: callbackReq });
    expect(effects.verifyRegistration).not.toHaveBeenCalled();
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: callbackUrl, cookies: [...clearCookies, ...sessionCookies] });
    expect(emitted).toEqual([{ type: "signIn", user: grace, account: knownPasskey, isNewUser: false }]);
  });

  it("an answer that does not verify is refused as WebAuthnVerificationError keeping its cause, clearing the challenge cookie, with no session", async () => {
    const bad = new WebAuthnVerificationError("The passkey's answer did not verify.");
    const { machine, completion } = fakes(nobodyKnown, {
      consumeChallenge: async () => authenticateChallenge,
      verifyAuthentication: () => Promise.reject(bad),
    });
    const { value, output, emitted } = await postCredential(machine, "authenticate");
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: bad, as: "WebAuthnVerificationError" }, cookies: clearCookies });
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
