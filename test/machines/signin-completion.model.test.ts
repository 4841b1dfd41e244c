import { describe, expect, it } from "vitest";
import { signInCompletionMachine as machine, type SignInCompletionInput } from "../../machines/index.js";
import { AccessDenied } from "../../src/errors.js";
import type { AdapterUser, User } from "../../src/types.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import {
  ada,
  completionInput,
  detached,
  grace,
  hedy,
  markedVerified,
  newUserFrom,
  personWithId,
  sessionCookies,
  welcomeUrl,
  challengeUrl,
  pendingCookies,
  type AdapterEffect,
  type Setting,
  type World,
} from "./completion-world.js";
import { expectedCompletion } from "./linking-rules.js";

const accountLookupFailed = new Error("getUserByAccount: the database is unreachable");
const emailLookupFailed = new Error("getUserByEmail: the database is unreachable");
const linkFailed = new Error("linkAccount: duplicate key");
const claimFailed = new Error("claimUnverifiedUser: the database is unreachable");
const createFailed = new Error("createUser: the users table is read-only");
const markFailed = new Error("updateUser: the users table is read-only");
const tokensNotKept = new Error("updateAccount: the account is no longer linked");
const sessionFailed = new Error("issueSession: the secret is missing");
const redirectFailed = new Error("resolveRedirect: the redirect callback threw");
const factorLookupFailed = new Error("getTwoFactor: the database is unreachable");
const holdFailed = new Error("holdPendingSignIn: the secret is missing");
const enrolledNotStored = new Error("createTwoFactor: the database is unreachable");
const callbackVeto = new AccessDenied("Accounts under review cannot sign in.");

const outcomes = {
  findUserByAccount: [
    returns("finds Ada", () => ada),
    returns("finds Grace", () => grace),
    returns("finds Hedy, unverified", () => hedy),
    returns("finds nobody", () => null),
    throws("throws", accountLookupFailed),
  ],
  signInCallback: [
    returns("returns true", () => true),
    returns("returns false", () => false),
    returns('returns ""', () => ""),
    returns("returns a URL", () => "/onboarding"),
    throws("throws", callbackVeto),
  ],
  findUserByEmail: [
    returns("finds Grace, verified", () => grace),
    returns("finds Hedy, unverified", () => hedy),
    returns("finds nobody", () => null),
    throws("throws", emailLookupFailed),
  ],
  linkAccount: [
    // Nothing links to Hedy while her address is unverified; only once claimed, and then she is stored verified.
    returns("links", ({ userId }: { userId: string }) => (userId === hedy.id ? markedVerified(userId) : personWithId(userId))),
    throws("throws", linkFailed),
  ],
  claimUnverifiedUser: [
    returns("claims the user", ({ userId }: { userId: string }) => ({ user: markedVerified(userId), ...detached })),
    throws("throws", claimFailed),
  ],
  createUserWithAccount: [
    returns("creates the user", ({ user, emailVerified }: { user: User; emailVerified: boolean }) => newUserFrom(user, emailVerified)),
    throws("throws", createFailed),
  ],
  markEmailVerified: [
    returns("marks the address verified", ({ userId }: { userId: string }) => markedVerified(userId)),
    throws("throws", markFailed),
  ],
  updateAccountTokens: [returns("updates them", () => undefined), throws("throws", tokensNotKept)],
  issueSession: [returns("returns cookies", () => sessionCookies), throws("throws", sessionFailed)],
  findSecondFactor: [
    returns("finds an active factor", () => "challenge"),
    returns("finds none", () => "none"),
    returns("finds an active factor this browser is remembered for", () => "remembered"),
    returns("finds none, and one is required", () => "enroll"),
    throws("throws", factorLookupFailed),
  ],
  holdPendingSignIn: [
    returns("seals the pending sign-in", () => ({ cookies: pendingCookies, redirectTo: challengeUrl })),
    throws("throws", holdFailed),
  ],
  storeEnrolledFactor: [returns("stores the app", () => undefined), throws("throws", enrolledNotStored)],
  resolveRedirect: [
    returns("returns a URL", ({ url, isNewUser }: { url: string; isNewUser: boolean }) => (isNewUser ? welcomeUrl : url)),
    throws("throws", redirectFailed),
  ],
};

const both = [true, false] as const;
const settings: Setting[] = (["oauth", "credentials", "email"] as const).flatMap((provider) =>
  both.flatMap((hasAdapter) =>
    both.flatMap((signedIn) =>
      // An email sign-in always has its address: the link was sent to it.
      (provider === "email" ? [true] : both).flatMap((email) =>
        both.flatMap((allowDangerousEmailAccountLinking) =>
          both.flatMap((emailVerified) =>
            // Only an adapter can update accounts.
            (hasAdapter ? both : [false]).map((updatesAccountTokens) => ({
              provider,
              hasAdapter,
              signedIn,
              email: email ? (provider === "email" ? "hedy@example.com" : "ada.l@example.com") : undefined,
              allowDangerousEmailAccountLinking,
              emailVerified,
              updatesAccountTokens,
            })),
          ),
        ),
      ),
    ),
  ),
);

// The second factor, on the paths where a stored user is known (each gated path), and without an adapter.
const twoFactorSettings: Setting[] = (["oauth", "credentials", "email"] as const).flatMap((provider) =>
  both.flatMap((signedIn) =>
    both.flatMap((hasAdapter) =>
      (["pending", "required", "resumed", "enrolled", "countsAsBoth"] as const).map((twoFactor) => ({
        provider,
        hasAdapter,
        signedIn,
        email: provider === "email" ? "hedy@example.com" : "ada.l@example.com",
        allowDangerousEmailAccountLinking: true,
        emailVerified: true,
        updatesAccountTokens: hasAdapter,
        twoFactor,
      })),
    ),
  ),
);
settings.push(...twoFactorSettings);

function nameOf(setting: Setting): string {
  return [
    setting.provider,
    setting.hasAdapter ? "with an adapter" : "no adapter",
    setting.signedIn ? "signed in" : "signed out",
    setting.email ? "an email" : "no email",
    setting.allowDangerousEmailAccountLinking ? "email linking allowed" : "email linking off",
    setting.emailVerified ? "email verified" : "email unverified",
    ...(setting.updatesAccountTokens ? ["accounts updatable"] : []),
    ...(setting.twoFactor ? [`second factor ${setting.twoFactor}`] : []),
  ].join(", ");
}

const inputs: Record<string, SignInCompletionInput> = {};
const settingOf = new Map<SignInCompletionInput, Setting>();
for (const setting of settings) {
  const input = completionInput(setting);
  inputs[nameOf(setting)] = input;
  settingOf.set(input, setting);
}
const paths = effectPaths(machine, inputs, outcomes);

type Step = EffectPath<typeof machine>["steps"][number];
const stepOf = (path: EffectPath<typeof machine>, effect: string): Step | undefined => path.steps.find((s) => s.effect === effect);
const outputOf = (path: EffectPath<typeof machine>, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};

/** The world a path plays in, read from the outcomes it chose. */
function worldOf(path: EffectPath<typeof machine>): World {
  const verdict = stepOf(path, "signInCallback")?.ending;
  const thrown = path.steps.find((s) => s.effect !== "signInCallback" && "error" in s.ending);
  return {
    accountOwner: (outputOf(path, "findUserByAccount") as AdapterUser | null | undefined) ?? null,
    emailOwner: (outputOf(path, "findUserByEmail") as AdapterUser | null | undefined) ?? null,
    secondFactor: outputOf(path, "findSecondFactor") as World["secondFactor"],
    signIn: !verdict ? { returns: true } : "error" in verdict ? { throws: verdict.error } : { returns: verdict.output as boolean | string },
    ...(thrown && "error" in thrown.ending ? { failure: { effect: thrown.effect as AdapterEffect, error: thrown.ending.error } } : {}),
  };
}

describe("sign-in completion: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      // The linking rules, from the oracle: where it ends, with what, having run which effects.
      const expected = expectedCompletion(settingOf.get(path.input)!, worldOf(path));
      expect(played.value).toBe(expected.finalState);
      expect(played.output).toEqual(expected.output);
      expect(played.invoked.map((call) => call.effect)).toEqual(expected.calls);

      const { output } = played;
      expect("cookies" in output).toBe(output.outcome === "signedIn" || output.outcome === "challenge");
      // A challenge writes nothing: no adapter write ran before it.
      if (output.outcome === "challenge") {
        const writes = ["linkAccount", "claimUnverifiedUser", "createUserWithAccount", "markEmailVerified", "updateAccountTokens", "storeEnrolledFactor", "issueSession"];
        expect(played.invoked.filter((call) => writes.includes(call.effect))).toEqual([]);
      }
      // The signIn callback judges the stored user when the account is known, else the provider's.
      const judged = played.invoked.find((call) => call.effect === "signInCallback")?.input as { user: User } | undefined;
      if (judged) expect(judged.user).toBe(outputOf(path, "findUserByAccount") ?? path.input.user);
      if (output.outcome === "signedIn") {
        const issued = played.invoked.find((call) => call.effect === "issueSession")!.input as { user: User; isNewUser: boolean };
        expect(issued.user).toBe(output.user);
        expect(issued.isNewUser).toBe(output.isNewUser);
        // The requested URL is judged once the session exists, knowing whether the person is new.
        const judgedUrl = played.invoked.find((call) => call.effect === "resolveRedirect")!.input;
        expect(judgedUrl).toEqual({ url: path.input.callbackUrl, isNewUser: output.isNewUser, request: path.input.request });
      }
      const signIns = output.events.filter((event) => event.type === "signIn");
      expect(signIns).toHaveLength(output.outcome === "signedIn" ? 1 : 0);
      if (signIns.length) expect(output.events.at(-1)).toBe(signIns[0]);
      // A returning person's tokens go to the account they signed in with, as the provider just gave them.
      const ran = played.invoked.map((call) => call.effect);
      const kept = played.invoked.filter((call) => call.effect === "updateAccountTokens");
      for (const call of kept) expect(call.input).toEqual({ account: path.input.account });
      if (kept.length) {
        expect(path.input.provider.type).toBe("oauth");
        if (ran.includes("issueSession")) expect(ran.indexOf("updateAccountTokens")).toBeLessThan(ran.indexOf("issueSession"));
        // Nothing new was linked or created: the account was already theirs.
        expect(output.events.filter((event) => event.type !== "signIn")).toEqual([]);
      }
    });
  }
});
