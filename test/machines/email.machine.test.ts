import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { emailMachine, type EmailInput, type LimitVerdict } from "../../machines/index.js";
import type { EmailContext } from "../../machines/email.machine.js";
import { AccessDenied, EmailSignInError } from "../../src/errors.js";
import { completionIn, detached, grace, hedy, lin, markedVerified, newUserFrom, sessionCookies, type World } from "./completion-world.js";
import { emailLink, facts } from "./fixtures.js";
import { runActor } from "./run-actor.js";

const token = "5f0c9a3e7d2b41c8a6e19f04b3d7c2a85e6f1b09d4c3a2e7f8b1c6d5a4e3f2b1";
const expires = "2029-03-02T10:30:00.000Z";
const address = "ada.l@example.com";

const form: EmailInput = { providerId: "email", email: "  Ada.L@Example.COM ", callbackUrl: "/dashboard", request: facts() };
// Followed on another of the app's hosts: the link's request, not the first one, reaches the completion.
const linkReq = facts("https://www.app.example");
/** The link as mailed, its address spelt as the person's mail client sent it back. */
const followed: EmailInput = { providerId: "email", email: "Ada.L@example.com", callbackUrl: "https://app.example/dashboard", request: linkReq };
const account = { provider: "email", providerAccountId: address, type: "email" as const };
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

interface Effects {
  checkSendLimit: (input: unknown) => Promise<LimitVerdict>;
  normalizeIdentifier: (input: { providerId: string; email: string }) => Promise<string>;
  checkVerificationRequest: (input: { providerId: string; identifier: string }) => Promise<boolean | string>;
  createToken: (input: { providerId: string; identifier: string }) => Promise<{ token: string; expires: string }>;
  sendLink: (input: { identifier: string; token: string }) => Promise<void>;
  withdrawToken: (input: { providerId: string; identifier: string; token: string }) => Promise<void>;
  consumeToken: (input: { providerId: string; identifier: string; token: string }) => Promise<boolean>;
  resolveRedirect: (input: { url: string; isNewUser: boolean }) => Promise<string>;
}

/**
 * Fakes that mail Ada a link and let her follow it, with the real sign-in completion answering as
 * `world` says; each test overrides the effect it is about.
 */
function fakes(world: World = nobodyKnown, overrides: Partial<Effects> = {}) {
  const effects = {
    checkSendLimit: vi.fn(overrides.checkSendLimit ?? (async (_: unknown): Promise<LimitVerdict> => ({ allowed: true, retryAfter: 0, counts: {} }))),
    normalizeIdentifier: vi.fn(overrides.normalizeIdentifier ?? (async ({ email }) => email.trim().toLowerCase())),
    checkVerificationRequest: vi.fn(overrides.checkVerificationRequest ?? (async () => true)),
    createToken: vi.fn(overrides.createToken ?? (async () => ({ token, expires }))),
    sendLink: vi.fn(overrides.sendLink ?? (async () => undefined)),
    withdrawToken: vi.fn(overrides.withdrawToken ?? (async () => undefined)),
    consumeToken: vi.fn(overrides.consumeToken ?? (async () => true)),
    // A new user is welcomed on a page of their own.
    resolveRedirect: vi.fn(
      overrides.resolveRedirect ?? (async ({ url, isNewUser }) => (isNewUser ? "https://app.example/welcome" : url)),
    ),
  };
  const completion = completionIn(world, (input) => effects.resolveRedirect(input));
  const machine = emailMachine.provide({
    actors: {
      checkSendLimit: fromPromise(({ input }) => effects.checkSendLimit(input)),
      normalizeIdentifier: fromPromise(({ input }) => effects.normalizeIdentifier(input)),
      checkVerificationRequest: fromPromise(({ input }) => effects.checkVerificationRequest(input)),
      createToken: fromPromise(({ input }) => effects.createToken(input)),
      sendLink: fromPromise(({ input }) => effects.sendLink(input)),
      withdrawToken: fromPromise(({ input }) => effects.withdrawToken(input)),
      consumeToken: fromPromise(({ input }) => effects.consumeToken(input)),
      completeSignIn: completion.machine,
    },
  });
  return { machine, effects, completion };
}

type Machine = ReturnType<typeof fakes>["machine"];

/** The first request: up to the mailed link. */
const request = (machine: Machine, input: EmailInput = form) => runActor(machine, input, { until: "awaitingLink" });
/** The second request: restored at awaitingLink and handed the followed link. */
const follow = (machine: Machine, link: EmailInput = followed, linkToken = token) =>
  runActor(machine, undefined, { resume: emailLink(link, linkToken) });

describe("email machine", () => {
  it("the first request judges, stores and mails only the normalised address, then rests in awaitingLink deciding nothing", async () => {
    const { machine, effects } = fakes();
    const { value, status, output, context, emitted } = await request(machine);
    expect(value).toBe("awaitingLink");
    expect(status).toBe("active");
    expect(output).toBeUndefined();
    expect(effects.normalizeIdentifier).toHaveBeenCalledWith({ providerId: "email", email: form.email });
    expect(effects.checkVerificationRequest).toHaveBeenCalledWith({ providerId: "email", identifier: address });
    expect(effects.createToken).toHaveBeenCalledWith({ providerId: "email", identifier: address });
    expect(effects.sendLink).toHaveBeenCalledWith({
      providerId: "email",
      identifier: address,
      token,
      expires,
      callbackUrl: "/dashboard",
      request: form.request,
    });
    expect((context as EmailContext).identifier).toBe(address);
    expect(effects.consumeToken).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("awaitingLink, where the flow waits for the link, invokes nothing, starts no timer and listens only for link.followed", () => {
    const resting = emailMachine.getStateNodeById("email.awaitingLink");
    expect(resting.invoke).toEqual([]);
    expect(resting.after).toEqual([]);
    expect(Object.keys(resting.on)).toEqual(["link.followed"]);
  });

  it("the raw token goes into the mail and is forgotten: the flow resting in awaitingLink does not hold it", async () => {
    const { machine, effects } = fakes();
    const { context } = await request(machine);
    expect(effects.sendLink.mock.calls[0]![0].token).toBe(token);
    expect((context as EmailContext).token).toBeUndefined();
    expect(JSON.stringify(context)).not.toContain(token);
  });

  it("an address that does not normalise is refused as EmailSignInError before the signIn callback is asked or anything is stored", async () => {
    const invalid = new EmailSignInError("normalizeIdentifier did not return one plain address.");
    const { machine, effects } = fakes(nobodyKnown, { normalizeIdentifier: () => Promise.reject(invalid) });
    const { value, output } = await request(machine, { ...form, email: "ada@example.com, eve@example.com" });
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: invalid, as: "EmailSignInError" } });
    expect(effects.checkVerificationRequest).not.toHaveBeenCalled();
    expect(effects.createToken).not.toHaveBeenCalled();
    expect(effects.sendLink).not.toHaveBeenCalled();
  });

  it("a signIn callback that returns false or an empty string, or throws, refuses the request as AccessDenied, storing nothing", async () => {
    const veto = new AccessDenied("Sign-ups are closed.");
    const verdicts: Array<[string, Effects["checkVerificationRequest"], unknown]> = [
      ["false", async () => false, undefined],
      ['""', async () => "", undefined],
      ["a throw", () => Promise.reject(veto), veto],
    ];
    for (const [said, checkVerificationRequest, error] of verdicts) {
      const { machine, effects } = fakes(nobodyKnown, { checkVerificationRequest });
      const { value, output } = await request(machine);
      expect(value, said).toBe("refused");
      expect(output, said).toEqual({ outcome: "refused", failure: { error, as: "AccessDenied" } });
      expect(effects.createToken, said).not.toHaveBeenCalled();
    }
  });

  it("a signIn callback that returns a URL diverts there, storing and mailing nothing", async () => {
    const { machine, effects } = fakes(nobodyKnown, { checkVerificationRequest: async () => "/closed" });
    const { value, output } = await request(machine);
    expect(value).toBe("diverted");
    expect(output).toEqual({ outcome: "diverted", redirectTo: "/closed" });
    expect(effects.createToken).not.toHaveBeenCalled();
  });

  it("a token that cannot be stored fails the request with its error, mailing nothing", async () => {
    const down = new Error("createVerificationToken: the database is unreachable");
    const { machine, effects } = fakes(nobodyKnown, { createToken: () => Promise.reject(down) });
    const { value, output } = await request(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: down } });
    expect(effects.sendLink).not.toHaveBeenCalled();
  });

  it("a link that cannot be sent withdraws the token it carried and fails as Configuration with the send error, even when withdrawing fails too", async () => {
    const refused = new Error("554 relay access denied");
    for (const withdrawToken of [async () => undefined, () => Promise.reject(new Error("the database is unreachable"))]) {
      const { machine, effects } = fakes(nobodyKnown, { sendLink: () => Promise.reject(refused), withdrawToken });
      const { value, output, context } = await request(machine);
      expect(value).toBe("failed");
      expect(output).toEqual({ outcome: "refused", failure: { error: refused, as: "Configuration" } });
      expect(effects.withdrawToken).toHaveBeenCalledTimes(1);
      expect(effects.withdrawToken).toHaveBeenCalledWith({ providerId: "email", identifier: address, token });
      expect(JSON.stringify(context)).not.toContain(token);
    }
  });

  it("following the link consumes the token with the normalised address and signs it in as a verified email account", async () => {
    const { machine, effects, completion } = fakes();
    const { value, output, emitted } = await follow(machine);
    const created = newUserFrom({ email: address }, true);
    expect(value).toBe("signedIn");
    expect(effects.normalizeIdentifier).toHaveBeenCalledWith({ providerId: "email", email: followed.email });
    expect(effects.consumeToken).toHaveBeenCalledWith({ providerId: "email", identifier: address, token });
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "createUserWithAccount", "issueSession", "resolveRedirect"]);
    expect(completion.inputOf("findUserByEmail")).toEqual({ email: address });
    expect(completion.inputOf("createUserWithAccount")).toEqual({ user: { email: address }, account, emailVerified: true });
    // Where to go afterwards comes with the link; a new user is welcomed first.
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: followed.callbackUrl, isNewUser: true, request: linkReq });
    expect(output).toEqual({ outcome: "signedIn", redirectTo: "https://app.example/welcome", cookies: sessionCookies });
    expect(emitted).toEqual([
      { type: "createUser", user: created },
      { type: "linkAccount", user: created, account, profile: { email: address } },
      { type: "signIn", user: created, account, isNewUser: true },
    ]);
  });

  it("a link to an address Lin has but never verified keeps her and her id: what was attached to her is detached, and she signs in verified", async () => {
    const { machine, completion } = fakes({ ...nobodyKnown, emailOwner: lin });
    const { output, emitted } = await follow(machine);
    // A returning user: no welcome page.
    expect(output).toEqual({ outcome: "signedIn", redirectTo: followed.callbackUrl, cookies: sessionCookies });
    expect(completion.ran()).toEqual([
      "findUserByAccount",
      "signInCallback",
      "findUserByEmail",
      "claimUnverifiedUser",
      "linkAccount",
      "issueSession",
      "resolveRedirect",
    ]);
    expect(completion.inputOf("claimUnverifiedUser")).toEqual({ userId: lin.id, providerType: "email" });
    const claimed = markedVerified(lin.id);
    expect(emitted).toEqual([
      { type: "credentialsDetached", user: claimed, account, ...detached },
      { type: "linkAccount", user: claimed, account, profile: { email: address } },
      { type: "signIn", user: claimed, account, isNewUser: false },
    ]);
  });

  it("a link whose account belongs to a user stored under another address signs them in but verifies nothing", async () => {
    // Hedy's account was linked under this address, then she changed her stored address: the link proves only this one.
    const { machine, completion } = fakes({ ...nobodyKnown, accountOwner: hedy });
    const { output } = await follow(machine);
    expect(output.outcome).toBe("signedIn");
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "issueSession", "resolveRedirect"]);
  });

  it("a returning user whose address is verified is signed in as they are stored, linking and marking nothing", async () => {
    const { machine, completion } = fakes({ ...nobodyKnown, accountOwner: grace });
    const { output, emitted } = await follow(machine);
    expect(output.outcome).toBe("signedIn");
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "issueSession", "resolveRedirect"]);
    expect(emitted).toEqual([{ type: "signIn", user: grace, account, isNewUser: false }]);
  });

  it("a link whose token does not consume (used, expired, or sent to another address) is refused as Verification and completes nothing", async () => {
    const { machine, effects, completion } = fakes(nobodyKnown, { consumeToken: async () => false });
    const { value, output, emitted } = await follow(machine);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "Verification" } });
    expect(completion.ran()).toEqual([]);
    expect(effects.resolveRedirect).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a link whose address does not normalise is refused as Verification, consuming nothing", async () => {
    const invalid = new EmailSignInError("normalizeIdentifier did not return one plain address.");
    const { machine, effects } = fakes(nobodyKnown, { normalizeIdentifier: () => Promise.reject(invalid) });
    const { value, output } = await follow(machine, { ...followed, email: "" });
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: invalid, as: "Verification" } });
    expect(effects.consumeToken).not.toHaveBeenCalled();
  });

  it("a token store that throws while consuming fails the sign-in with its error", async () => {
    const down = new Error("useVerificationToken: the database is unreachable");
    const { machine, completion } = fakes(nobodyKnown, { consumeToken: () => Promise.reject(down) });
    const { value, output } = await follow(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: down } });
    expect(completion.ran()).toEqual([]);
  });

  it("a signIn callback that refuses at the link ends the sign-in refused with AccessDenied, with no session and nothing announced", async () => {
    const { machine, effects } = fakes({ ...nobodyKnown, signIn: { returns: false } });
    const { output, emitted } = await follow(machine);
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "AccessDenied" } });
    expect(effects.resolveRedirect).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a signIn callback that returns a URL at the link diverts there, with no session", async () => {
    const { machine } = fakes({ ...nobodyKnown, signIn: { returns: "/onboarding" } });
    const { value, output, emitted } = await follow(machine);
    expect(value).toBe("diverted");
    expect(output).toEqual({ outcome: "diverted", redirectTo: "/onboarding" });
    expect(emitted).toEqual([]);
  });

  it("a redirect that cannot be resolved fails the sign-in with its error, sets no session and announces nothing", async () => {
    const broken = new Error("the redirect callback threw");
    const { machine } = fakes(nobodyKnown, { resolveRedirect: () => Promise.reject(broken) });
    const { value, output, emitted } = await follow(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken } });
    expect(emitted).toEqual([]);
  });

  it("a mailed link opens once, and only with the address it was sent to", async () => {
    // A token store shared by the two requests, keyed by address as the adapter's is.
    const stored = new Map<string, string>();
    const store: Partial<Effects> = {
      createToken: async ({ identifier }) => {
        stored.set(identifier, token);
        return { token, expires };
      },
      consumeToken: async ({ identifier, token: presented }) => stored.get(identifier) === presented && stored.delete(identifier),
    };
    let mailed: { identifier: string; token: string } | undefined;
    const { machine } = fakes(nobodyKnown, {
      ...store,
      sendLink: async (link) => {
        mailed = link;
      },
    });
    await request(machine);
    expect(mailed).toMatchObject({ identifier: address, token });

    const elsewhere = await follow(machine, { ...followed, email: "eve@example.com" }, mailed!.token);
    expect(elsewhere.output).toEqual({ outcome: "refused", failure: { error: undefined, as: "Verification" } });
    const first = await follow(machine, followed, mailed!.token);
    expect(first.output.outcome).toBe("signedIn");
    const again = await follow(machine, followed, mailed!.token);
    expect(again.output).toEqual({ outcome: "refused", failure: { error: undefined, as: "Verification" } });
  });

  it("an effect left unprovided refuses the request, naming the effect", async () => {
    const { value, output } = await runActor(emailMachine, form, { until: "awaitingLink" });
    expect(value).toBe("refused");
    if (output.outcome === "refused") expect(String(output.failure.error)).toMatch(/"normalizeIdentifier" was not provided/);
  });
});
