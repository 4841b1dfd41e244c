import { describe, expect, it } from "vitest";
import {
  webauthnMachine as machine,
  type CeremonyChallenge,
  type CeremonyOptions,
  type FlowFailure,
  type LimitVerdict,
  type PasskeyDescriptor,
  type SignInCompletionInput,
  type SignInCompletionOutput,
  type VerifiedCredential,
  type WebAuthnInput,
} from "../../machines/index.js";
import type { WebAuthnContext } from "../../machines/webauthn.machine.js";
import { EmailSignInError, WebAuthnVerificationError } from "../../src/errors.js";
import type { Account, AdapterAuthenticator, AdapterUser } from "../../src/types.js";
import { ada, challengeUrl, grace, pendingCookies, sessionCookies } from "./completion-world.js";
import { challengesForSecondFactor } from "./second-factor.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { requestLimitOutcomes, tooManyRequests } from "./fixtures.js";
import { challengeCookies, clearCookies, gracesPasskey, providerId, request, webauthnCredential } from "./webauthn.fixtures.js";

type Path = EffectPath<typeof machine>;

const options: CeremonyOptions = { challenge: "challenge-1", rp: { id: "app.example", name: "app.example" }, userVerification: "required" };
const credentialResponse = { id: "cred-1", rawId: "cred-1", type: "public-key", response: { clientDataJSON: "e30" } };
const callbackUrl = "https://app.example/dashboard";

const newAddress = "ada.l@example.com";
const authenticator = {
  credentialID: "cred-new",
  credentialPublicKey: "cHVibGljLWtleQ==",
  counter: 0,
  credentialDeviceType: "multiDevice",
  credentialBackedUp: true,
  transports: "internal,hybrid",
};
const onePasskey: PasskeyDescriptor[] = [{ id: "cred-1", transports: ["internal"] }];
const created: AdapterUser = { id: "user-new", name: newAddress, email: newAddress, emailVerified: null };
const people = [ada, grace];

const notAnAddress = new EmailSignInError("That is not one plain email address.");
const sessionDown = new Error("findSignedInUser: the session store is down");
const storeDown = new Error("the adapter failed");
const libraryThrew = new Error("generate*Options: the library threw");
const notRecorded = new Error("recordChallenge: the store is down");
const notSealed = new Error("sealChallenge: no secret");
const tampered = new WebAuthnVerificationError("The WebAuthn challenge cookie is missing, tampered or expired.");
const replayed = new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
const badSignature = new WebAuthnVerificationError("The passkey's answer did not verify.");
const badAttestation = new WebAuthnVerificationError("The new passkey did not verify.");
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };
const notLinked: FlowFailure = { error: undefined, as: "OAuthAccountNotLinked" };

/** Effects both requests run (who is signed in; a stored user by id), with the first request's. */
const shared = {
  findSignedInUser: [returns("finds nobody", () => undefined), returns("finds Ada", () => ada.id), throws("throws", sessionDown)],
  findUser: [
    returns("returns the stored user", ({ userId }: { userId: string }) => people.find((p) => p.id === userId) ?? null),
    returns("returns nobody", () => null),
    throws("throws", storeDown),
  ],
};

/** The first request: from the page asking for options to the browser's ceremony. */
const optionsOutcomes = {
  checkRequestLimit: requestLimitOutcomes,
  normalizeEmail: [returns("normalises it", () => newAddress), throws("throws (not one plain address)", notAnAddress)],
  findUserByEmail: [returns("finds nobody", () => null), returns("finds Grace", () => grace), throws("throws", storeDown)],
  listPasskeys: [returns("lists one", () => onePasskey), returns("lists none", () => []), throws("throws", storeDown)],
  generateRegistrationOptions: [returns("makes options", () => options), throws("throws", libraryThrew)],
  generateAuthenticationOptions: [returns("makes options", () => options), throws("throws", libraryThrew)],
  recordChallenge: [returns("records it", () => undefined), throws("throws", notRecorded)],
  sealChallenge: [returns("seals it", () => challengeCookies), throws("throws", notSealed)],
};

const registerChallenge: CeremonyChallenge = { value: "challenge-1", action: "register", email: newAddress };
const registerForAda: CeremonyChallenge = { value: "challenge-1", action: "register", email: ada.email!, userId: ada.id };
const authenticateChallenge: CeremonyChallenge = { value: "challenge-1", action: "authenticate" };

/** The second request: from the posted credential to a session. The completion is a child machine. */
const callbackOutcomes = {
  openChallenge: [
    returns("opens a register challenge for a new address", () => registerChallenge),
    returns("opens a register challenge for Ada", () => registerForAda),
    returns("opens an authenticate challenge", () => authenticateChallenge),
    throws("throws (tampered)", tampered),
  ],
  consumeChallenge: [returns("consumes it", () => undefined), throws("throws (replayed)", replayed)],
  findPasskey: [returns("finds Grace's", () => gracesPasskey), returns("finds none", () => null), throws("throws", storeDown)],
  verifyAuthentication: [returns("returns the new counter", () => 5), throws("throws", badSignature)],
  updatePasskeyCounter: [returns("updates it", () => undefined), throws("throws", storeDown)],
  verifyRegistration: [
    returns("returns the new passkey", ({ email }: { email?: string }): VerifiedCredential => ({
      user: { email: email ?? null, name: email ?? null },
      account: { provider: providerId, type: "webauthn", providerAccountId: authenticator.credentialID, authenticator },
    })),
    throws("throws", badAttestation),
  ],
  completeSignIn: [
    returns("signs in a new user", (input: SignInCompletionInput): SignInCompletionOutput => ({
      outcome: "signedIn",
      user: created,
      isNewUser: true,
      redirectTo: "https://app.example/welcome",
      cookies: sessionCookies,
      events: [
        { type: "createUser", user: created },
        { type: "linkAccount", user: created, account: input.account, profile: input.user },
        { type: "signIn", user: created, account: input.account, isNewUser: true },
      ],
    })),
    returns("signs in a returning user", (input: SignInCompletionInput): SignInCompletionOutput => ({
      outcome: "signedIn",
      user: input.user,
      isNewUser: false,
      redirectTo: input.callbackUrl,
      cookies: sessionCookies,
      events: [{ type: "signIn", user: input.user, account: input.account, isNewUser: false }],
    })),
    returns("diverts", (): SignInCompletionOutput => ({ outcome: "diverted", redirectTo: "/onboarding", events: [] })),
    challengesForSecondFactor,
    returns("refuses (not linked)", (): SignInCompletionOutput => ({ outcome: "refused", failure: notLinked, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

// The page sends the address as typed; the flow normalises it first.
const typedAddress = " Ada.L@Example.com ";
const optionsInputs: Record<string, WebAuthnInput> = {
  "no action, no email": { providerId, request },
  "register requested, with an email": { providerId, requestedAction: "register", email: typedAddress, request },
  "authenticate requested, with an email": { providerId, requestedAction: "authenticate", email: typedAddress, request },
  "an email only": { providerId, email: typedAddress, request },
};
const posted = {
  register: credentialResponse,
  authenticate: credentialResponse,
  "authenticate without a credential id": { rawId: "cred-1" },
  bogus: credentialResponse,
} as const;

const optionsPaths = effectPaths(machine, optionsInputs, { ...optionsOutcomes, ...shared }, { until: "awaitingCredential" });
const callbackPaths = Object.entries(posted).flatMap(([label, response]) =>
  effectPaths(machine, { [`posted ${label}`]: { providerId, request } }, { ...callbackOutcomes, ...shared }, {
    resume: () => webauthnCredential({ action: label.split(" ")[0]!, response, callbackUrl }),
  }),
);
const allPaths = [...optionsPaths, ...callbackPaths];

const postedOf = (path: Path) => (path.resumed!.event as { action: string; response: unknown });

/** Why the oracle stopped: an effect threw (its step), or a refusal of the flow's own. */
class Stopped {
  constructor(readonly failure: FlowFailure) {}
}

/**
 * What the flow must do, written as the rules say it in plain code (the decision of today's single
 * effects): the effects it runs in order, reading each outcome from the path, and how it ends.
 */
function oracle(
  path: Path,
  rules: (
    run: (effect: string, failedAs?: FlowFailure["as"]) => unknown,
    nextInput: () => unknown,
  ) => FlowFailure | "rests" | SignInCompletionOutput,
) {
  const ran: string[] = [];
  const run = (effect: string, failedAs?: FlowFailure["as"]): unknown => {
    const step = path.steps[ran.length];
    ran.push(effect);
    if (step?.effect !== effect) throw new Error(`The oracle expected ${effect}, the path ran ${step?.effect}.`);
    if ("error" in step.ending) throw new Stopped({ error: step.ending.error, ...(failedAs ? { as: failedAs } : {}) });
    return step.ending.output;
  };
  try {
    return { ran, end: rules(run, () => path.steps[ran.length]?.input) };
  } catch (stop) {
    if (stop instanceof Stopped) return { ran, end: stop.failure };
    throw stop;
  }
}

function optionsRules(path: Path) {
  const { requestedAction } = path.input;
  return oracle(path, (run, nextInput) => {
    const limit = run("checkRequestLimit") as LimitVerdict;
    if (!limit.allowed) return { error: tooManyRequests, as: "RateLimited" };
    const email = path.input.email === undefined ? undefined : (run("normalizeEmail", "EmailSignInError") as string);
    const signedIn = run("findSignedInUser") as string | undefined;
    // Who has the address, and their passkeys: as the old decideAction, and for the allowed passkeys.
    let owner: AdapterUser | null = null;
    let ownersPasskeys: PasskeyDescriptor[] = [];
    if (email && (!signedIn || requestedAction === "authenticate")) {
      owner = run("findUserByEmail") as AdapterUser | null;
      if (owner && requestedAction !== "register") ownersPasskeys = run("listPasskeys") as PasskeyDescriptor[];
    }
    const action = signedIn
      ? (requestedAction ?? "register")
      : !email
        ? (requestedAction ?? "authenticate")
        : !owner
          ? (requestedAction ?? "register")
          : (requestedAction ?? (ownersPasskeys.length ? "authenticate" : "register"));
    let generated: object;
    let sealedEmail: string | undefined;
    if (action === "register") {
      if (!signedIn && owner) return notLinked;
      const user = signedIn ? (run("findUser") as AdapterUser | null) : null;
      const existing = user ? (run("listPasskeys") as PasskeyDescriptor[]) : [];
      sealedEmail = user?.email || email;
      if (!sealedEmail) return { error: "noAddressToRegister", as: "WebAuthnVerificationError" };
      generated = { userName: sealedEmail, userDisplayName: user?.name ?? sealedEmail, excludeCredentials: existing };
    } else {
      generated = { allowCredentials: owner ? ownersPasskeys : [] };
    }
    expect(nextInput()).toEqual({ providerId, origin: request.origin, ...generated });
    run(action === "register" ? "generateRegistrationOptions" : "generateAuthenticationOptions");
    expect(nextInput()).toEqual({ providerId, challenge: "challenge-1" });
    run("recordChallenge");
    expect(nextInput()).toEqual({
      providerId,
      challenge: { value: "challenge-1", action, ...(sealedEmail ? { email: sealedEmail } : {}), ...(signedIn ? { userId: signedIn } : {}) },
    });
    run("sealChallenge");
    return "rests";
  });
}

function callbackRules(path: Path) {
  const { action, response } = postedOf(path);
  const refused = (error: unknown): FlowFailure => ({ error, as: "WebAuthnVerificationError" });
  return oracle(path, (run, nextInput) => {
    const challenge = run("openChallenge", "WebAuthnVerificationError") as CeremonyChallenge;
    run("consumeChallenge", "WebAuthnVerificationError");
    const signedIn = run("findSignedInUser", "WebAuthnVerificationError") as string | undefined;
    if (challenge.userId !== signedIn) return refused("signedInUserChanged");
    if (challenge.action !== action) return refused(undefined);
    let verified: VerifiedCredential;
    if (action === "register") {
      verified = run("verifyRegistration", "WebAuthnVerificationError") as VerifiedCredential;
    } else {
      const id = (response as { id?: unknown }).id;
      if (typeof id !== "string") return refused("noCredentialPosted");
      const passkey = run("findPasskey", "WebAuthnVerificationError") as AdapterAuthenticator | null;
      if (!passkey) return refused("unknownPasskey");
      run("verifyAuthentication", "WebAuthnVerificationError");
      run("updatePasskeyCounter", "WebAuthnVerificationError");
      const owner = run("findUser", "WebAuthnVerificationError") as AdapterUser | null;
      if (!owner) return refused("passkeyOwnerGone");
      const account: Account = { provider: providerId, type: "webauthn", providerAccountId: passkey.providerAccountId };
      verified = { user: owner, account, storedUser: owner };
    }
    expect(nextInput()).toEqual({
      provider: { id: providerId, type: "webauthn", allowDangerousEmailAccountLinking: false },
      user: verified.user,
      account: verified.account,
      emailVerified: false,
      ...(signedIn ? { currentUserId: signedIn } : {}),
      hasAdapter: true,
      callbackUrl,
      request,
    });
    return run("completeSignIn") as SignInCompletionOutput;
  });
}

describe("WebAuthn: paths generated from the machine", () => {
  itCoversTheMachine(machine, { ...optionsOutcomes, ...callbackOutcomes, ...shared }, allPaths, { resting: "webauthn.awaitingCredential" });

  it("are as many as the outcomes allow", () => {
    // Each input: refused by the request ceiling or failed by the limiter (2), an address that does not
    // normalise (with one), a session store that throws (1); then signed out and signed in (Ada), each
    // lookup's three outcomes, a ceremony's options failing at any of its three steps or resting (4).
    const count = (input: string) => optionsPaths.filter((path) => path.name.startsWith(`${input}:`)).length;
    expect(Object.keys(optionsInputs).map(count)).toEqual([2 + 1 + 4 + 11, 2 + 1 + 1 + 6 + 14, 2 + 1 + 1 + 14 + 14, 2 + 1 + 1 + 11 + 14]);
    // Per challenge (3) after its opening: consumed or not, the session store throws, the signed-in user
    // changed, or the ceremony goes on: a registration verifies or not, then the completion's 7 endings;
    // an authentication ends at each of its 5 steps (2 ways at the passkey and the owner) or completes.
    const posted = (label: string) => callbackPaths.filter((path) => path.name.startsWith(`posted ${label}:`)).length;
    expect(["register", "authenticate", "authenticate without a credential id", "bogus"].map(posted)).toEqual([
      1 + (3 + 8) * 2 + (3 + 1),
      1 + (3 + 1) * 2 + (3 + 13),
      1 + (3 + 1) * 2 + (3 + 1),
      1 + (3 + 1) * 3,
    ]);
  });

  describe("the options request", () => {
    for (const path of optionsPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const { ran, end } = optionsRules(path);
        expect(played.invoked.map((call) => call.effect)).toEqual(ran);
        expect(played.emitted).toEqual(
          played.value === "limited" ? [{ type: "rateLimited", providerId, scope: "requests", limit: "requests", retryAfter: 7 }] : [],
        );
        if (end === "rests") {
          // Resting: the options and the challenge cookie are in the context, as plain data.
          expect(played.value).toBe("awaitingCredential");
          const context = played.context as WebAuthnContext;
          expect(context.options).toBe(options);
          expect(context.challengeCookies).toBe(challengeCookies);
          expect(context.sessionCookies).toEqual([]);
          expect(JSON.parse(JSON.stringify(context))).toEqual(context);
        } else {
          // Refused before any challenge is sealed: no cookie to set.
          expect(played.output).toEqual({ outcome: "refused", failure: end, cookies: [] });
        }
      });
    }
  });

  describe("the callback", () => {
    for (const path of callbackPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        expect(played.status).toBe("done");
        const { ran, end } = callbackRules(path);
        expect(played.invoked.map((call) => call.effect)).toEqual(ran);
        expect(played.invoked[0]!.input).toEqual({ providerId, sealed: "sealed-challenge" });
        const { output } = played;
        // The challenge cookie is single use: every answer clears it, even a refusal.
        const completion = end as SignInCompletionOutput | FlowFailure;
        if ("outcome" in completion && completion.outcome === "signedIn") {
          expect(output).toEqual({ outcome: "signedIn", redirectTo: completion.redirectTo, cookies: [...clearCookies, ...sessionCookies] });
          expect(played.emitted).toEqual(completion.events);
          return;
        }
        expect(played.emitted).toEqual([]);
        if ("outcome" in completion && completion.outcome === "challenge") {
          // A second factor is due: the pending cookie after the cleared challenge, nothing announced.
          expect(output).toEqual({ outcome: "challenged", redirectTo: challengeUrl, cookies: [...clearCookies, ...pendingCookies] });
          return;
        }
        if ("outcome" in completion) {
          expect(output).toEqual(
            completion.outcome === "diverted"
              ? { outcome: "diverted", redirectTo: "/onboarding", cookies: clearCookies }
              : { outcome: "refused", failure: (completion as { failure: FlowFailure }).failure, cookies: clearCookies },
          );
        } else {
          expect(output).toEqual({ outcome: "refused", failure: completion, cookies: clearCookies });
        }
      });
    }

    it("refuse every credential that does not hold up before the completion as WebAuthnVerificationError", () => {
      const refusedEarly = callbackPaths.filter((path) => !path.steps.some((s) => s.effect === "completeSignIn"));
      const as = new Set(refusedEarly.map((path) => (path.end.output as { failure: FlowFailure }).failure.as));
      expect(as).toEqual(new Set(["WebAuthnVerificationError"]));
    });

    it("refuse a bogus posted action whatever the challenge, without verifying anything", () => {
      const bogus = callbackPaths.filter((path) => postedOf(path).action === "bogus");
      expect(bogus.map((path) => path.finalState)).toEqual(bogus.map(() => "webauthn.failed"));
      const verifying = ["verifyRegistration", "findPasskey", "verifyAuthentication"];
      expect(bogus.flatMap((path) => path.steps.filter((s) => verifying.includes(s.effect)))).toEqual([]);
    });
  });
});
