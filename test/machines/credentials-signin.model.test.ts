import { describe, expect, it } from "vitest";
import {
  credentialsSignInMachine,
  type CredentialsSignInInput,
  type FlowFailure,
  type LimitVerdict,
  type SignInCompletionInput,
  type SignInCompletionOutput,
} from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import { CredentialsSignin } from "../../src/errors.js";
import type { User } from "../../src/types.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { challengeUrl, pendingCookies } from "./completion-world.js";
import { challengesForSecondFactor } from "./second-factor.js";
import { facts } from "./fixtures.js";

const ada: User = { id: "user-1", name: "Ada", email: "ada@example.com" };
const adaAccount = { provider: "password", providerAccountId: "user-1", type: "credentials" };
const sessionCookies: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "sealed", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];
const wrongPassword = new CredentialsSignin();
const databaseDown = new Error("authorize: the database is unreachable");
const vetoed: FlowFailure = { error: undefined, as: "AccessDenied" };
const sessionNotIssued: FlowFailure = { error: new Error("issueSession: the secret is missing") };
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };

const allowed: LimitVerdict = { allowed: true, retryAfter: 0, counts: { perClient: 1, perIdentifier: 1 }, scope: "credentials" };
const tooMany: LimitVerdict = { allowed: false, retryAfter: 840, counts: { perClient: 6, perIdentifier: 6 }, scope: "credentials", limit: "perClient" };
const limiterDown = new Error("checkAttempt: the rate-limit store is unreachable");

// The completion is a child machine: the parent only sees how it ends, so its endings are the outcomes.
const outcomes = {
  checkAttempt: [
    returns("allows the attempt", () => allowed),
    returns("refuses the attempt (too many)", () => tooMany),
    throws("throws (store unreachable)", limiterDown),
  ],
  authorize: [
    returns("returns a user", () => ada),
    returns("returns null", () => null),
    throws("throws CredentialsSignin", wrongPassword),
    throws("throws an Error", databaseDown),
  ],
  completeSignIn: [
    returns("signs in", (input: SignInCompletionInput): SignInCompletionOutput => ({
      outcome: "signedIn",
      user: input.user,
      isNewUser: false,
      redirectTo: "https://app.example/dashboard",
      cookies: sessionCookies,
      events: [{ type: "signIn", user: input.user, account: input.account, isNewUser: false }],
    })),
    returns("diverts", (): SignInCompletionOutput => ({ outcome: "diverted", redirectTo: "/onboarding", events: [] })),
    challengesForSecondFactor,
    returns("refuses (signIn callback)", (): SignInCompletionOutput => ({ outcome: "refused", failure: vetoed, events: [] })),
    returns("refuses (no session)", (): SignInCompletionOutput => ({ outcome: "refused", failure: sessionNotIssued, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

const form: CredentialsSignInInput = {
  providerId: "password",
  credentials: { username: "ada", password: "correct horse" },
  callbackUrl: "/dashboard",
  hasAdapter: false,
  request: facts(),
};
const inputs: Record<string, CredentialsSignInInput> = {
  "a submitted form, no adapter": form,
  "a submitted form, with an adapter": { ...form, hasAdapter: true },
};

/** Who the `clearFailures` action forgot the failures of, in the path being played. */
const cleared: (User | undefined)[] = [];
const machine = credentialsSignInMachine.provide({ actions: { clearFailures: ({ context }) => void cleared.push(context.user) } });

const paths = effectPaths(machine, inputs, outcomes);

const outcomeOfFinalState: Record<string, string> = {
  signedIn: "signedIn",
  challenged: "challenged",
  diverted: "diverted",
  refused: "refused",
  limited: "refused",
};

/** The failure a refusal reports, read from the outcome that ended the path. */
function expectedFailure(path: EffectPath<typeof machine>): FlowFailure {
  const last = path.steps.at(-1)!;
  if ("error" in last.ending) return { error: last.ending.error };
  if (last.effect === "authorize") return { error: undefined, as: "CredentialsSignin" };
  if (last.effect === "checkAttempt") return { error: last.ending.output, as: "RateLimited" };
  // The completion's own refusal, as it reported it.
  return (last.ending.output as { failure: FlowFailure }).failure;
}

/** Events go out only on entry to signedIn: a completion that refused (its redirect failed, say) announces nothing. */
async function expectSignInAnnouncedOnlyWhenSignedIn(path: EffectPath<typeof machine>) {
  const played = await playBack(machine, path);
  const signIns = played.emitted.filter((event) => event.type === "signIn");
  expect(signIns).toEqual(played.value === "signedIn" ? [{ type: "signIn", user: ada, account: adaAccount, isNewUser: false }] : []);
}

describe("credentials sign-in: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

  for (const path of paths) {
    it(path.name, async () => {
      cleared.length = 0;
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const { output } = played;
      const finalState = String(played.value);
      expect(output.outcome).toBe(outcomeOfFinalState[finalState]);
      // The completion is handed a credentials sign-in: a synthetic account, never linked by email.
      const completion = played.invoked.find((call) => call.effect === "completeSignIn");
      if (completion) {
        expect(completion.input).toEqual({
          provider: { id: "password", type: "credentials", allowDangerousEmailAccountLinking: false },
          user: ada,
          account: adaAccount,
          emailVerified: false,
          credentials: path.input.credentials,
          hasAdapter: path.input.hasAdapter,
          callbackUrl: path.input.callbackUrl,
          request: path.input.request,
        });
      }
      // Only a completed sign-in carries cookies, and only the ones the completion issued.
      expect("cookies" in output).toBe(finalState === "signedIn" || finalState === "challenged");
      // A second factor is due: the pending cookie instead of a session.
      if (output.outcome === "challenged") expect(output).toEqual({ outcome: "challenged", redirectTo: challengeUrl, cookies: pendingCookies });
      if (output.outcome === "signedIn") {
        expect(output.cookies).toBe(sessionCookies);
        expect(output.redirectTo).toBe("https://app.example/dashboard");
      }
      if (output.outcome === "diverted") expect(output.redirectTo).toBe("/onboarding");
      if (output.outcome === "refused") expect(output.failure).toEqual(expectedFailure(path));
      // Past a limit, authorize is never called, and the refusal is announced once.
      const refusedByLimit = finalState === "limited";
      expect(played.invoked.some((call) => call.effect === "authorize")).toBe(
        path.steps[0]!.effect === "checkAttempt" && "output" in path.steps[0]!.ending && (path.steps[0]!.ending.output as LimitVerdict).allowed,
      );
      expect(played.emitted.filter((event) => event.type === "rateLimited")).toEqual(
        refusedByLimit ? [{ type: "rateLimited", providerId: "password", scope: "credentials", limit: "perClient", retryAfter: 840 }] : [],
      );
      // Failures are cleared once, exactly when authorize returned a user, for that user.
      const authorized = path.steps.some((s) => s.effect === "authorize" && "output" in s.ending && s.ending.output !== null);
      expect(cleared).toEqual(authorized ? [ada] : []);

      await expectSignInAnnouncedOnlyWhenSignedIn(path);
    });
  }
});
