import { describe, expect, it } from "vitest";
import {
  emailMachine as machine,
  type EmailInput,
  type FlowFailure,
  type LimitVerdict,
  type SignInCompletionInput,
  type SignInCompletionOutput,
} from "../../machines/index.js";
import type { EmailContext } from "../../machines/email.machine.js";
import { AccessDenied, EmailSignInError } from "../../src/errors.js";
import { ada, challengeUrl, newUserFrom, pendingCookies, sessionCookies } from "./completion-world.js";
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
import { emailLink, facts } from "./fixtures.js";

type Path = EffectPath<typeof machine>;

/** The raw token: it goes into the mail and comes back in the link, and nowhere else. */
const token = "5f0c9a3e7d2b41c8a6e19f04b3d7c2a85e6f1b09d4c3a2e7f8b1c6d5a4e3f2b1";
const expires = "2029-03-02T10:30:00.000Z";
/** What the default normaliser does to the addresses used here. */
const normalise = ({ email }: { email: string }): string => email.trim().toLowerCase();

const invalidAddress = new EmailSignInError("normalizeIdentifier did not return one plain address.");
const callbackVeto = new AccessDenied("Sign-ups are closed.");
const storeFailed = new Error("createVerificationToken: the database is unreachable");
const sendFailed = new Error("sendVerificationRequest: 554 relay access denied");
const withdrawFailed = new Error("useVerificationToken: the database is unreachable");
const consumeFailed = new Error("useVerificationToken: the database is unreachable");
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };
const accessDenied: FlowFailure = { error: undefined, as: "AccessDenied" };

const sendAllowed: LimitVerdict = { allowed: true, retryAfter: 0, counts: { perEmail: 1, perClient: 1 }, scope: "email" };
const mailedAlready: LimitVerdict = { allowed: true, retryAfter: 0, counts: { perEmail: 1, perClient: 1, mail: 2 }, scope: "email", quiet: true };
const tooManyMails: LimitVerdict = { allowed: false, retryAfter: 900, counts: { perEmail: 4, perClient: 4 }, scope: "email", limit: "perEmail" };
const limiterDown = new Error("checkSendLimit: the rate-limit store is unreachable");

/** The first request: from the address typed in the form to the mailed link. */
const requestOutcomes = {
  normalizeIdentifier: [returns("normalises the address", normalise), throws("throws", invalidAddress)],
  checkSendLimit: [
    returns("allows a mail", () => sendAllowed),
    returns("allows, but the address was mailed in this window", () => mailedAlready),
    returns("refuses (too many mails)", () => tooManyMails),
    throws("throws (store unreachable)", limiterDown),
  ],
  checkVerificationRequest: [
    returns("returns true", () => true),
    returns("returns false", () => false),
    returns('returns ""', () => ""),
    returns("returns a URL", () => "/closed"),
    throws("throws", callbackVeto),
  ],
  createToken: [returns("stores a token", () => ({ token, expires })), throws("throws", storeFailed)],
  sendLink: [returns("mails the link", () => undefined), throws("throws", sendFailed)],
  withdrawToken: [returns("withdraws the token", () => undefined), throws("throws", withdrawFailed)],
};

/** The second request: from the followed link to a session. The completion is a child machine. */
const linkOutcomes = {
  normalizeIdentifier: [returns("normalises the address", normalise), throws("throws", invalidAddress)],
  consumeToken: [
    returns("consumes the token", () => true),
    returns("finds no such token", () => false),
    throws("throws", consumeFailed),
  ],
  completeSignIn: [
    returns("signs in a new user", (input: SignInCompletionInput): SignInCompletionOutput => {
      const created = newUserFrom(input.user, input.emailVerified);
      return {
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
      };
    }),
    returns("signs in a returning user", (input: SignInCompletionInput): SignInCompletionOutput => ({
      outcome: "signedIn",
      user: ada,
      isNewUser: false,
      redirectTo: input.callbackUrl,
      cookies: sessionCookies,
      events: [{ type: "signIn", user: ada, account: input.account, isNewUser: false }],
    })),
    returns("diverts", (): SignInCompletionOutput => ({ outcome: "diverted", redirectTo: "/onboarding", events: [] })),
    challengesForSecondFactor,
    returns("refuses", (): SignInCompletionOutput => ({ outcome: "refused", failure: accessDenied, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

const requestInputs: Record<string, EmailInput> = {
  "Ada, typed with spaces and capitals": {
    providerId: "email",
    email: "  Ada.L@Example.COM ",
    callbackUrl: "/dashboard",
    request: facts(),
  },
};
// For the link, `email` is the address it carries back.
const linkInputs: Record<string, EmailInput> = {
  "the link as mailed": {
    providerId: "email",
    email: "ada.l@example.com",
    callbackUrl: "https://app.example/dashboard",
    request: facts(),
  },
  "the link with its address in capitals": {
    providerId: "email",
    email: "ADA.L@Example.com",
    callbackUrl: "https://app.example/dashboard",
    request: facts(),
  },
};

const requestPaths = effectPaths(machine, requestInputs, requestOutcomes, { until: "awaitingLink" });
const linkPaths = effectPaths(machine, linkInputs, linkOutcomes, { resume: (link) => emailLink(link, token) });
const allPaths = [...requestPaths, ...linkPaths];

const stepOf = (path: Path, effect: string) => path.steps.find((s) => s.effect === effect);
const outputOf = (path: Path, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};
const errorOf = (path: Path, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "error" in step.ending ? step.ending.error : undefined;
};
const inputOf = (played: { invoked: Array<{ effect: string; input: unknown }> }, effect: string) =>
  played.invoked.find((call) => call.effect === effect)?.input;

/** The error type each refusal is reported as, by the effect and outcome that ended the path. */
function refusals(paths: Path[]): Set<string> {
  return new Set(
    paths
      .filter((path) => (path.end.output as { outcome?: string } | undefined)?.outcome === "refused")
      .map((path) => {
        const last = path.steps.at(-1)!;
        return `${last.effect} ${last.outcome.label} → ${(path.end.output as { failure: FlowFailure }).failure.as}`;
      }),
  );
}

describe("email: paths generated from the machine", () => {
  itCoversTheMachine(machine, { ...requestOutcomes, ...linkOutcomes }, allPaths, { resting: "email.awaitingLink" });

  describe("the first request", () => {
    it("rests in awaitingLink on two paths only: the token stored and the link mailed, or the address mailed already", () => {
      const resting = requestPaths.filter((path) => path.finalState === "email.awaitingLink");
      expect(resting.map((path) => path.steps.map((s) => `${s.effect} ${s.outcome.label}`))).toEqual([
        // Answered as sent, with nothing judged, stored or sent: the mailbox holds this window's link.
        ["normalizeIdentifier normalises the address", "checkSendLimit allows, but the address was mailed in this window"],
        [
          "normalizeIdentifier normalises the address",
          "checkSendLimit allows a mail",
          "checkVerificationRequest returns true",
          "createToken stores a token",
          "sendLink mails the link",
        ],
      ]);
    });

    it("report each refusal as the error type its cause calls for", () => {
      expect(refusals(requestPaths)).toEqual(
        new Set([
          "normalizeIdentifier throws → EmailSignInError",
          "checkSendLimit refuses (too many mails) → RateLimited",
          "checkSendLimit throws (store unreachable) → undefined",
          "checkVerificationRequest returns false → AccessDenied",
          'checkVerificationRequest returns "" → AccessDenied',
          "checkVerificationRequest throws → AccessDenied",
          "createToken throws → undefined",
          "withdrawToken withdraws the token → Configuration",
          "withdrawToken throws → Configuration",
        ]),
      );
    });

    for (const path of requestPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const { input } = path;
        const identifier = normalise(input);
        // Past a limit nothing is judged, stored or sent, and the refusal is announced once; so is a limiter that cannot count.
        const limit = stepOf(path, "checkSendLimit")?.ending;
        const limited = limit !== undefined && "output" in limit && !(limit.output as LimitVerdict).allowed;
        expect(played.emitted).toEqual(
          limited ? [{ type: "rateLimited", providerId: "email", scope: "email", limit: "perEmail", retryAfter: 900 }] : [],
        );
        if (limit && !("output" in limit && (limit.output as LimitVerdict).allowed)) {
          expect(played.invoked.map((call) => call.effect)).toEqual(["normalizeIdentifier", "checkSendLimit"]);
          expect(played.output).toEqual({
            outcome: "refused",
            failure: limited ? { error: tooManyMails, as: "RateLimited" } : { error: limiterDown },
          });
        }
        const asked = inputOf(played, "checkSendLimit");
        if (asked) expect(asked).toEqual({ providerId: "email", identifier, request: input.request });
        expect(inputOf(played, "normalizeIdentifier")).toEqual({ providerId: "email", email: input.email });

        // Only the normalised address is judged, stored and mailed to.
        const checked = inputOf(played, "checkVerificationRequest");
        if (checked) expect(checked).toEqual({ providerId: "email", identifier });
        const created = inputOf(played, "createToken");
        if (created) expect(created).toEqual({ providerId: "email", identifier });
        const sent = inputOf(played, "sendLink");
        if (sent) {
          expect(sent).toEqual({ providerId: "email", identifier, token, expires, callbackUrl: input.callbackUrl, request: input.request });
        }

        // Nothing is stored for an address that does not normalise, nor before the signIn callback agrees.
        if (errorOf(path, "normalizeIdentifier")) {
          expect(played.value).toBe("refused");
          expect(played.output).toEqual({ outcome: "refused", failure: { error: invalidAddress, as: "EmailSignInError" } });
          expect(played.invoked.map((call) => call.effect)).toEqual(["normalizeIdentifier"]);
        }
        if (outputOf(path, "checkVerificationRequest") !== true) expect(created).toBeUndefined();
        const verdict = stepOf(path, "checkVerificationRequest")?.ending;
        if (verdict && "error" in verdict) {
          expect(played.output).toEqual({ outcome: "refused", failure: { error: callbackVeto, as: "AccessDenied" } });
        }
        if (verdict && "output" in verdict && verdict.output === "/closed") {
          expect(played.value).toBe("diverted");
          expect(played.output).toEqual({ outcome: "diverted", redirectTo: "/closed" });
        }
        if (errorOf(path, "createToken")) {
          expect(played.output).toEqual({ outcome: "refused", failure: { error: storeFailed } });
          expect(sent).toBeUndefined();
        }

        // A link that cannot be sent takes its token back with it, whether or not that works.
        const withdrawn = inputOf(played, "withdrawToken");
        expect(withdrawn !== undefined).toBe(errorOf(path, "sendLink") !== undefined);
        if (withdrawn) {
          const { identifier: sentTo, token: sentToken } = sent as { identifier: string; token: string };
          expect(withdrawn).toEqual({ providerId: "email", identifier: sentTo, token: sentToken });
          expect(played.value).toBe("failed");
          expect(played.output).toEqual({ outcome: "refused", failure: { error: sendFailed, as: "Configuration" } });
        }

        // The raw token is in the mail and nowhere in what the flow keeps, however it ends.
        expect(JSON.stringify(played.context)).not.toContain(token);
        expect((played.context as EmailContext).token).toBeUndefined();
        if (played.value === "awaitingLink") {
          expect(played.status).toBe("active");
          expect(played.output).toBeUndefined();
          expect(played.context).toMatchObject(sent ? { identifier, expires } : { identifier });
        }
        if (outputOf(path, "checkSendLimit") === mailedAlready) {
          expect(played.invoked.map((call) => call.effect)).toEqual(["normalizeIdentifier", "checkSendLimit"]);
          expect(played.value).toBe("awaitingLink");
        }
      });
    }
  });

  describe("the followed link", () => {
    it("report each refusal as the error type its cause calls for", () => {
      expect(refusals(linkPaths)).toEqual(
        new Set([
          "normalizeIdentifier throws → Verification",
          "consumeToken finds no such token → Verification",
          "consumeToken throws → undefined",
          "completeSignIn refuses → AccessDenied",
          "completeSignIn refuses (no redirect) → undefined",
          "completeSignIn throws → undefined",
        ]),
      );
    });

    for (const path of linkPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const link = path.input;
        const identifier = normalise(link);
        const { output } = played;
        expect(played.status).toBe("done");
        expect(inputOf(played, "normalizeIdentifier")).toEqual({ providerId: "email", email: link.email });

        if (errorOf(path, "normalizeIdentifier")) {
          expect(output).toEqual({ outcome: "refused", failure: { error: invalidAddress, as: "Verification" } });
          expect(inputOf(played, "consumeToken")).toBeUndefined();
        }
        // The token is consumed together with the normalised address, never with the link's own spelling.
        const consumed = inputOf(played, "consumeToken");
        if (consumed) expect(consumed).toEqual({ providerId: "email", identifier, token });
        if (outputOf(path, "consumeToken") === false) {
          expect(played.value).toBe("refused");
          expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "Verification" } });
        }
        if (errorOf(path, "consumeToken")) expect(output).toEqual({ outcome: "refused", failure: { error: consumeFailed } });
        expect(inputOf(played, "completeSignIn") !== undefined).toBe(outputOf(path, "consumeToken") === true);

        // The completion signs in the normalised address as a verified email account.
        const completing = inputOf(played, "completeSignIn");
        if (completing) {
          expect(completing).toEqual({
            provider: { id: "email", type: "email", allowDangerousEmailAccountLinking: false },
            user: { email: identifier },
            account: { provider: "email", providerAccountId: identifier, type: "email" },
            emailVerified: true,
            hasAdapter: true,
            callbackUrl: link.callbackUrl,
            request: link.request,
          });
        }

        const completion = outputOf(path, "completeSignIn") as SignInCompletionOutput | undefined;
        if (errorOf(path, "completeSignIn")) expect(output).toEqual({ outcome: "refused", failure: { error: completionCrashed } });
        if (completion?.outcome === "refused") expect(output).toEqual({ outcome: "refused", failure: completion.failure });
        if (completion?.outcome === "diverted") expect(output).toEqual({ outcome: "diverted", redirectTo: completion.redirectTo });
        if (completion?.outcome === "signedIn") {
          expect(output).toEqual({ outcome: "signedIn", redirectTo: completion.redirectTo, cookies: completion.cookies });
        }
        // A second factor is due: the pending cookie, never a session.
        if (completion?.outcome === "challenge") {
          expect(output).toEqual({ outcome: "challenged", redirectTo: challengeUrl, cookies: pendingCookies });
        }
        // A session is set only by a sign-in that got all the way.
        expect("cookies" in output).toBe(played.value === "signedIn" || played.value === "challenged");

        // The completion's events go out on entry to signedIn and never otherwise.
        expect(played.emitted).toEqual(played.value === "signedIn" ? completion!.events : []);
      });
    }
  });
});
