import { describe, expect, it } from "vitest";
import {
  webauthnMachine as machine,
  type FlowFailure,
  type LimitVerdict,
  type SignInCompletionInput,
  type SignInCompletionOutput,
  type VerifiedCredential,
  type WebAuthnContext,
  type WebAuthnInput,
} from "../../machines/index.js";
import { expireCookie, type SetCookie } from "../../src/cookies.js";
import { EmailSignInError, WebAuthnVerificationError } from "../../src/errors.js";
import type { Account, AdapterUser } from "../../src/types.js";
import { ada, sessionCookies } from "./completion-world.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { limiterDown, requestContext, requestLimitOutcomes, tooManyRequests, webauthnCredential } from "./fixtures.js";

type Path = EffectPath<typeof machine>;
type Challenge = NonNullable<WebAuthnContext["challenge"]>;
type Restored = { challenge: Challenge; clearCookies: SetCookie[]; currentUserId?: string };

const providerId = "passkey";
const options = { challenge: "challenge-1", rp: { id: "app.example", name: "app.example" }, userVerification: "required" };
const optionsReq = requestContext("webauthn-options", "GET");
const challengeCookie = optionsReq.cookies.webauthnChallenge;
const challengeCookies: SetCookie[] = [
  { name: challengeCookie.name, value: "sealed-challenge", options: { ...challengeCookie.options, maxAge: 300 } },
];

// The callback's request carries the challenge cookie; every answer clears it.
const callbackReq = { ...requestContext("callback"), jar: new Map([[challengeCookie.name, "sealed-challenge"]]) };
const clearCookies: SetCookie[] = [expireCookie(challengeCookie.name, challengeCookie.options)];
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
const passkeyAccount: Account = { provider: providerId, type: "webauthn", providerAccountId: "cred-1" };
const created: AdapterUser = { id: "user-new", name: newAddress, email: newAddress, emailVerified: null };

const notAnAddress = new EmailSignInError("That is not one plain email address.");
const undecided = new Error("decideAction: the session store is down");
const noEmail = new WebAuthnVerificationError("Registering a passkey needs an email address or a signed-in user.");
const replayed = new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
const badSignature = new WebAuthnVerificationError("The passkey's answer did not verify.");
const badAttestation = new WebAuthnVerificationError("The new passkey did not verify.");
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };
const notLinked: FlowFailure = { error: undefined, as: "OAuthAccountNotLinked" };


/** The first request: from the page asking for options to the browser's ceremony. */
const optionsOutcomes = {
  checkRequestLimit: requestLimitOutcomes,
  normalizeEmail: [returns("normalises it", () => newAddress), throws("throws (not one plain address)", notAnAddress)],
  decideAction: [
    returns("decides register", () => ({ action: "register" })),
    returns("decides register for the signed-in user", () => ({ action: "register", currentUserId: ada.id })),
    returns("decides authenticate", () => ({ action: "authenticate" })),
    returns("decides register for an address someone has", () => ({ action: "register", emailTaken: true })),
    returns("decides authenticate for an address someone has", () => ({ action: "authenticate", emailTaken: true })),
    throws("throws", undecided),
  ],
  generateOptions: [returns("makes options", () => ({ options, cookies: challengeCookies })), throws("throws", noEmail)],
};

const registerChallenge: Restored = { challenge: { value: "challenge-1", action: "register", email: newAddress }, clearCookies };
const registerForAda: Restored = {
  challenge: { value: "challenge-1", action: "register", email: ada.email!, userId: ada.id },
  clearCookies,
  currentUserId: ada.id,
};
const authenticateChallenge: Restored = { challenge: { value: "challenge-1", action: "authenticate" }, clearCookies };

/** The second request: from the posted credential to a session. The completion is a child machine. */
const callbackOutcomes = {
  consumeChallenge: [
    returns("returns a register challenge for a new address", () => registerChallenge),
    returns("returns a register challenge for the signed-in user", () => registerForAda),
    returns("returns an authenticate challenge", () => authenticateChallenge),
    throws("throws (replayed)", replayed),
  ],
  verifyAuthentication: [
    returns("returns the stored owner", (): VerifiedCredential => ({ user: ada, account: passkeyAccount, storedUser: ada })),
    throws("throws", badSignature),
  ],
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
    returns("refuses (not linked)", (): SignInCompletionOutput => ({ outcome: "refused", failure: notLinked, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

// The page sends the address as typed; the flow normalises it first.
const typedAddress = " Ada.L@Example.com ";
const optionsInputs: Record<string, WebAuthnInput> = {
  "no action, no email": { providerId, req: optionsReq },
  "register requested, with an email": { providerId, requestedAction: "register", email: typedAddress, req: optionsReq },
  "an email only": { providerId, email: typedAddress, req: optionsReq },
};
const callbackInput: WebAuthnInput = { providerId, req: callbackReq };
const postedActions = ["register", "authenticate", "bogus"] as const;

const optionsPaths = effectPaths(machine, optionsInputs, optionsOutcomes, { until: "awaitingCredential" });
const callbackPaths = postedActions.flatMap((action) =>
  effectPaths(machine, { [`posted ${action}`]: callbackInput }, callbackOutcomes, {
    resume: (input) => webauthnCredential(input, { action, response: credentialResponse, callbackUrl }),
  }),
);
const allPaths = [...optionsPaths, ...callbackPaths];

const stepOf = (path: Path, effect: string) => path.steps.find((s) => s.effect === effect);
const outputOf = (path: Path, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};
const postedOf = (path: Path) => (path.resumed!.event as { action: string }).action;

/** The failure a refusal of the callback reports, read from the outcome that ended the path. */
function expectedCallbackFailure(path: Path): FlowFailure {
  const last = path.steps.at(-1)!;
  const verification = ["consumeChallenge", "verifyAuthentication", "verifyRegistration"];
  if ("output" in last.ending) {
    // A challenge that does not fit the posted action refuses without an error of its own.
    if (last.effect === "consumeChallenge") return { error: undefined, as: "WebAuthnVerificationError" };
    return (last.ending.output as { failure: FlowFailure }).failure;
  }
  return verification.includes(last.effect) ? { error: last.ending.error, as: "WebAuthnVerificationError" } : { error: last.ending.error };
}

describe("WebAuthn: paths generated from the machine", () => {
  itCoversTheMachine(machine, { ...optionsOutcomes, ...callbackOutcomes }, allPaths, { resting: "webauthn.awaitingCredential" });

  it("are as many as the outcomes allow", () => {
    // Per input: 4 decisions × (rests | fails) + a signed-out registration for a taken address (refused)
    // + the decision that throws; with an email, also the address that does not normalise. Each input
    // also ends twice before all that: refused by the request ceiling, or failed by the limiter.
    expect(optionsPaths).toHaveLength(10 + 11 + 11 + 3 * 2);
    // A matching challenge: verification fails, or the completion throws, diverts, refuses (2 ways:
    // not linked, or its redirect failed), or signs in (2 ways): 7 paths. Plus a replay, plus each mismatch.
    const count = (posted: string) => callbackPaths.filter((path) => postedOf(path) === posted).length;
    expect([count("register"), count("authenticate"), count("bogus")]).toEqual([1 + 7 + 7 + 1, 1 + 2 + 7, 1 + 3]);
  });

  describe("the options request", () => {
    for (const path of optionsPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const limit = path.steps[0]!;
        expect(limit.effect).toBe("checkRequestLimit");
        const limited = played.value === "limited";
        expect(played.emitted).toEqual(
          limited ? [{ type: "rateLimited", providerId, scope: "requests", limit: "requests", retryAfter: 7 }] : [],
        );
        if (!("output" in limit.ending && (limit.ending.output as LimitVerdict).allowed)) {
          // Past the ceiling (or without a limiter that answers), nothing is looked up and no challenge minted.
          expect(played.invoked.map((call) => call.effect)).toEqual(["checkRequestLimit"]);
          const failure = limited ? { error: tooManyRequests, as: "RateLimited" } : { error: limiterDown };
          expect(played.output).toEqual({ outcome: "refused", failure, cookies: [] });
          return;
        }
        const { requestedAction } = path.input;
        // Only the normalised address goes on; an address that does not normalise stops the flow.
        const normalised = played.invoked.find((call) => call.effect === "normalizeEmail");
        expect(normalised?.input).toEqual(path.input.email === undefined ? undefined : { email: typedAddress });
        const email = outputOf(path, "normalizeEmail") as string | undefined;
        const decidedWith = played.invoked.find((call) => call.effect === "decideAction");
        expect(decidedWith?.input).toEqual(
          normalised && !email ? undefined : { providerId, ...(requestedAction ? { requestedAction } : {}), ...(email ? { email } : {}), req: optionsReq },
        );
        const decided = outputOf(path, "decideAction") as { action: string; currentUserId?: string; emailTaken?: boolean } | undefined;
        const refusedAsTaken = decided?.action === "register" && decided.emailTaken === true && !decided.currentUserId;
        expect(played.invoked.some((call) => call.effect === "generateOptions")).toBe(decided !== undefined && !refusedAsTaken);
        const generated = played.invoked.find((call) => call.effect === "generateOptions");
        if (generated) {
          expect(generated.input).toEqual({
            providerId,
            action: decided!.action,
            ...(email ? { email } : {}),
            ...(decided!.currentUserId ? { currentUserId: decided!.currentUserId } : {}),
            req: optionsReq,
          });
        }
        if (played.value === "awaitingCredential") {
          // Resting: the options and the challenge cookie are in the context, nothing is decided yet.
          expect(played.status).toBe("active");
          expect(played.output).toBeUndefined();
          const context = played.context as WebAuthnContext;
          expect(context.action).toBe(decided!.action);
          expect(context.options).toBe(options);
          expect(context.challengeCookies).toBe(challengeCookies);
          expect(context.sessionCookies).toEqual([]);
        } else {
          // Refused before any challenge is minted, and no cookie to set: a taken address as not linked, an
          // address that is not one as such, any other effect's error as it is.
          expect(played.value).toBe("failed");
          const last = path.steps.at(-1)!;
          const thrown = "error" in last.ending ? last.ending.error : undefined;
          const failure: FlowFailure = refusedAsTaken
            ? { error: undefined, as: "OAuthAccountNotLinked" }
            : last.effect === "normalizeEmail"
              ? { error: thrown, as: "EmailSignInError" }
              : { error: thrown };
          expect(played.output).toEqual({ outcome: "refused", failure, cookies: [] });
        }
      });
    }
  });

  describe("the callback", () => {
    for (const path of callbackPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const { output } = played;
        expect(played.status).toBe("done");
        const posted = postedOf(path);

        const consumed = played.invoked.find((call) => call.effect === "consumeChallenge")!;
        expect(consumed.input).toEqual({ providerId, req: callbackReq });
        const restored = outputOf(path, "consumeChallenge") as Restored | undefined;

        // Each ceremony is verified only against a challenge minted for it, and posted as it.
        const ran = (effect: string) => played.invoked.filter((call) => call.effect === effect);
        const fits = restored !== undefined && restored.challenge.action === posted;
        expect(ran("verifyRegistration").length).toBe(fits && posted === "register" ? 1 : 0);
        expect(ran("verifyAuthentication").length).toBe(fits && posted === "authenticate" ? 1 : 0);
        const [registered] = ran("verifyRegistration");
        if (registered) {
          const { email, userId } = restored!.challenge;
          expect(registered.input).toEqual({
            providerId,
            response: credentialResponse,
            challenge: "challenge-1",
            ...(email ? { email } : {}),
            ...(userId ? { userId } : {}),
            req: callbackReq,
          });
        }
        const [authenticated] = ran("verifyAuthentication");
        if (authenticated) {
          expect(authenticated.input).toEqual({ providerId, response: credentialResponse, challenge: "challenge-1", req: callbackReq });
        }

        const verified = (outputOf(path, "verifyRegistration") ?? outputOf(path, "verifyAuthentication")) as VerifiedCredential | undefined;
        const completing = played.invoked.find((call) => call.effect === "completeSignIn");
        if (completing) {
          expect(completing.input).toEqual({
            provider: { id: providerId, type: "webauthn", allowDangerousEmailAccountLinking: false },
            user: verified!.user,
            account: verified!.account,
            emailVerified: false,
            ...(restored?.currentUserId ? { currentUserId: restored.currentUserId } : {}),
            hasAdapter: true,
            callbackUrl,
            req: callbackReq,
          });
        }

        if (output.outcome === "refused") {
          expect(output.failure).toEqual(expectedCallbackFailure(path));
          if (!completing) expect(output.failure.as).toBe("WebAuthnVerificationError");
        }
        // The challenge cookie is single use: every answer clears it, even a refusal.
        expect(output.cookies.slice(0, clearCookies.length)).toEqual(clearCookies);
        const sessionSet = output.cookies.filter((cookie) => sessionCookies.includes(cookie));
        expect(sessionSet).toEqual(output.outcome === "signedIn" ? sessionCookies : []);
        const completion = outputOf(path, "completeSignIn") as SignInCompletionOutput | undefined;
        if (output.outcome === "signedIn") {
          expect(output.cookies).toEqual([...clearCookies, ...sessionCookies]);
          expect(output.redirectTo).toBe((completion as { redirectTo: string }).redirectTo);
        } else {
          expect(output.cookies).toEqual(clearCookies);
        }
        if (output.outcome === "diverted") expect(output.redirectTo).toBe("/onboarding");

        // Events go out only once signed in (the completion resolved the redirect too).
        expect(played.emitted).toEqual(played.value === "signedIn" ? completion!.events : []);
      });
    }

    it("refuse every credential that does not hold up before the completion as WebAuthnVerificationError", () => {
      const refusedEarly = callbackPaths.filter((path) => !stepOf(path, "completeSignIn"));
      const as = refusedEarly.map((path) => `${path.steps.at(-1)!.effect} → ${(path.end.output as { failure: FlowFailure }).failure.as}`);
      expect(new Set(as)).toEqual(
        new Set([
          "consumeChallenge → WebAuthnVerificationError",
          "verifyAuthentication → WebAuthnVerificationError",
          "verifyRegistration → WebAuthnVerificationError",
        ]),
      );
    });

    it("refuse a bogus posted action whatever the challenge, without verifying anything", () => {
      const bogus = callbackPaths.filter((path) => postedOf(path) === "bogus");
      expect(bogus.map((path) => path.finalState)).toEqual(bogus.map(() => "webauthn.failed"));
      expect(bogus.flatMap((path) => path.steps.map((s) => s.effect))).toEqual(bogus.map(() => "consumeChallenge"));
    });
  });
});
