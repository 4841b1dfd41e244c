import { describe, expect, it } from "vitest";
import {
  credentialsSignInMachine as machine,
  type CredentialsSignInInput,
  type FlowFailure,
} from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import { AccessDenied, CredentialsSignin } from "../../src/errors.js";
import type { User } from "../../src/types.js";
import {
  effectNames,
  effectPaths,
  expectPlayedAsPredicted,
  finalStateIds,
  playBack,
  returns,
  stateIds,
  throws,
  transitionKeys,
  type EffectPath,
} from "./effect-paths.js";
import { requestContext } from "./fixtures.js";

const ada: User = { id: "user-1", name: "Ada", email: "ada@example.com" };
const sessionCookies: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "sealed", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];
const wrongPassword = new CredentialsSignin();
const databaseDown = new Error("authorize: the database is unreachable");
const callbackVeto = new AccessDenied("Accounts under review cannot sign in.");
const encodeFailed = new Error("issueSession: the secret is missing");
const redirectFailed = new Error("resolveRedirect: the redirect callback threw");

const outcomes = {
  authorize: [
    returns("returns a user", () => ada),
    returns("returns null", () => null),
    throws("throws CredentialsSignin", wrongPassword),
    throws("throws an Error", databaseDown),
  ],
  signInCallback: [
    returns("returns true", () => true),
    returns("returns false", () => false),
    returns("returns a URL", () => "/onboarding"),
    throws("throws", callbackVeto),
  ],
  issueSession: [returns("returns cookies", () => sessionCookies), throws("throws", encodeFailed)],
  resolveRedirect: [returns("returns a URL", () => "https://app.example/dashboard"), throws("throws", redirectFailed)],
};

const input: CredentialsSignInInput = {
  providerId: "password",
  credentials: { username: "ada", password: "correct horse" },
  callbackUrl: "/dashboard",
  req: requestContext("callback"),
};

const paths = effectPaths(machine, { "a submitted form": input }, outcomes);

const outcomeOfFinalState: Record<string, string> = {
  signedIn: "signedIn",
  diverted: "diverted",
  denied: "refused",
  refused: "refused",
  failed: "refused",
};

/** The failure a refusal reports, read from the outcome that ended the path. */
function expectedFailure(path: EffectPath<typeof machine>): FlowFailure {
  const last = path.steps.at(-1)!;
  if ("error" in last.ending) {
    return last.effect === "signInCallback" ? { error: last.ending.error, as: "AccessDenied" } : { error: last.ending.error };
  }
  if (last.effect === "authorize") return { error: undefined, as: "CredentialsSignin" };
  return { error: undefined, as: "AccessDenied" };
}

describe("credentials sign-in: paths generated from the machine", () => {
  it("lists outcomes for every effect the machine invokes", () => {
    expect(Object.keys(outcomes).sort()).toEqual(effectNames(machine).sort());
  });

  it("reach every state of the machine", () => {
    const reached = new Set(paths.flatMap((path) => [...path.visited]));
    expect([...reached].sort()).toEqual(stateIds(machine).sort());
  });

  it("end in every final state", () => {
    const ends = new Set(paths.map((path) => path.finalState));
    expect([...ends].sort()).toEqual(finalStateIds(machine).sort());
  });

  it("take every transition when the real actor plays them", async () => {
    const taken = new Set<string>();
    for (const path of paths) for (const key of (await playBack(machine, path)).transitions) taken.add(key);
    expect([...taken].sort()).toEqual(transitionKeys(machine).sort());
  });

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const { output } = played;
      const finalState = String(played.value);
      expect(output.outcome).toBe(outcomeOfFinalState[finalState]);
      // Only a completed sign-in carries cookies, and only after the signIn callback said yes.
      expect("cookies" in output).toBe(finalState === "signedIn");
      const allowed = path.steps.some((s) => s.effect === "signInCallback" && "output" in s.ending && s.ending.output === true);
      expect(played.invoked.some((call) => call.effect === "issueSession")).toBe(allowed);
      if (output.outcome === "signedIn") {
        expect(output.cookies).toBe(sessionCookies);
        expect(output.redirectTo).toBe("https://app.example/dashboard");
      }
      if (output.outcome === "diverted") expect(output.redirectTo).toBe("/onboarding");
      if (output.outcome === "refused") expect(output.failure).toEqual(expectedFailure(path));

      const signIns = played.emitted.filter((event) => event.type === "signIn");
      expect(signIns).toEqual(
        finalState === "signedIn"
          ? [{ type: "signIn", user: ada, account: { provider: "password", providerAccountId: "user-1", type: "credentials" } }]
          : [],
      );
    });
  }
});
