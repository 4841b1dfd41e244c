import { describe, expect, it } from "vitest";
import {
  oauthMachine as machine,
  type FlowFailure,
  type OAuthContext,
  type OAuthInput,
  type RestoredChecks,
  type SignInCompletionInput,
  type SignInCompletionOutput,
} from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import { OAuthProfileParseError } from "../../src/errors.js";
import type { Account, AdapterUser, Profile, User } from "../../src/types.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { oauthCallback, requestContext, requestLimitOutcomes, tooManyRequests } from "./fixtures.js";

type Path = EffectPath<typeof machine>;

const authorizationUrl = "https://github.example/login/oauth/authorize?client_id=app&code_challenge=abc";
const flowCookies: SetCookie[] = [
  { name: "__Secure-appauth.pkce.code_verifier", value: "sealed-verifier", options: { httpOnly: true, path: "/", maxAge: 900 } },
  { name: "__Secure-appauth.callback-url", value: "https://app.example/dashboard", options: { httpOnly: true, path: "/" } },
];
const clearCookies: SetCookie[] = [
  { name: "__Secure-appauth.pkce.code_verifier", value: "", options: { httpOnly: true, path: "/", maxAge: 0 } },
];
const sessionCookies: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "sealed", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];
const checks: RestoredChecks = {
  codeVerifier: "verifier",
  callbackUrl: "https://app.example/dashboard",
  redirectUri: "https://app.example/auth/callback/github",
};
const callbackParams = new URLSearchParams({ code: "code-1", state: "state-1" });
const validatedParams = new URLSearchParams({ code: "code-1" });
const tokens = { access_token: "gho_token", token_type: "bearer", scope: "read:user" };
const profile: Profile = { id: "4711", login: "ada-l", name: "Ada L.", email: "ada.l@example.com" };
const providerUser: User = { id: "4711", name: "Ada L.", email: "ada.l@example.com" };
const oauthAccount: Account = { provider: "github", providerAccountId: "4711", type: "oauth", access_token: "gho_token" };
const oidcAccount: Account = { ...oauthAccount, type: "oidc" };
const created: AdapterUser = { id: "user-new", name: "Ada L.", email: "ada.l@example.com", emailVerified: null };

const discoveryFailed = new Error("discoverEndpoints: the issuer is unreachable");
const requestFailed = new Error("createAuthorizationRequest: no secret to seal the checks with");
const checksTampered = new Error("restoreChecks: the PKCE cookie does not open");
const stateMismatch = new Error("validateCallback: state mismatch");
const grantRejected = new Error("exchangeCode: invalid_grant");
const userinfoFailed = new Error("fetchProfile: the userinfo endpoint answered 500");
const noId = new OAuthProfileParseError("The profile of github has no id.");
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };
const notLinked: FlowFailure = { error: undefined, as: "OAuthAccountNotLinked" };


/** The first request: from the sign-in button to the redirect to the provider. */
const redirectOutcomes = {
  checkRequestLimit: requestLimitOutcomes,
  discoverEndpoints: [returns("finds the endpoints", () => undefined), throws("throws", discoveryFailed)],
  createAuthorizationRequest: [
    returns("makes the request", () => ({ url: authorizationUrl, cookies: flowCookies })),
    throws("throws", requestFailed),
  ],
};

/** The second request: from the provider's answer to a session. The completion is a child machine. */
const callbackOutcomes = {
  restoreChecks: [
    returns("restores the checks", () => ({ checks, clearCookies })),
    returns("restores the checks and a signed-in user", () => ({ checks, clearCookies, currentUserId: "user-ada" })),
    throws("throws", checksTampered),
  ],
  validateCallback: [returns("accepts the answer", () => validatedParams), throws("throws", stateMismatch)],
  exchangeCode: [returns("returns tokens", () => tokens), throws("throws", grantRejected)],
  fetchProfile: [returns("returns a profile", () => profile), throws("throws", userinfoFailed)],
  mapProfile: [
    returns("maps an OIDC user, email verified", () => ({ user: providerUser, account: oidcAccount, emailVerified: true })),
    returns("maps an OAuth user", () => ({ user: providerUser, account: oauthAccount, emailVerified: false })),
    throws("throws", noId),
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
        { type: "signIn", user: created, account: input.account, profile: input.profile!, isNewUser: true },
      ],
    })),
    returns("signs in a returning user", (input: SignInCompletionInput): SignInCompletionOutput => ({
      outcome: "signedIn",
      user: input.user,
      isNewUser: false,
      redirectTo: input.callbackUrl,
      cookies: sessionCookies,
      events: [{ type: "signIn", user: input.user, account: input.account, profile: input.profile!, isNewUser: false }],
    })),
    returns("diverts", (): SignInCompletionOutput => ({ outcome: "diverted", redirectTo: "/onboarding", events: [] })),
    returns("refuses (not linked)", (): SignInCompletionOutput => ({ outcome: "refused", failure: notLinked, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

const github: OAuthInput & { hasAdapter: boolean } = {
  providerId: "github",
  allowDangerousEmailAccountLinking: false,
  callbackUrl: "/dashboard",
  authorizationParams: { prompt: "consent" },
  hasAdapter: true,
  req: requestContext("signin"),
};
const callbackInputs = {
  "GitHub, with an adapter": { ...github, req: requestContext("callback", "GET") },
  "GitHub, no adapter, email linking allowed": {
    ...github,
    hasAdapter: false,
    allowDangerousEmailAccountLinking: true,
    req: requestContext("callback", "GET"),
  },
};

const redirectPaths = effectPaths(machine, { GitHub: github }, redirectOutcomes, { until: "awaitingCallback" });
const callbackPaths = effectPaths(machine, callbackInputs, callbackOutcomes, {
  resume: (input) => oauthCallback(input, callbackParams),
});
const allPaths = [...redirectPaths, ...callbackPaths];

const stepOf = (path: Path, effect: string) => path.steps.find((s) => s.effect === effect);
const outputOf = (path: Path, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};

/** The failure a refusal of the callback reports, read from the outcome that ended the path. */
function expectedCallbackFailure(path: Path): FlowFailure {
  const last = path.steps.at(-1)!;
  if ("output" in last.ending) return (last.ending.output as { failure: FlowFailure }).failure;
  // Up to the profile, a failure is the provider's answer not holding up; a profile that cannot be
  // mapped keeps its own error, and so does the completion.
  const answerChecks = ["restoreChecks", "validateCallback", "exchangeCode", "fetchProfile"];
  return answerChecks.includes(last.effect) ? { error: last.ending.error, as: "OAuthCallbackError" } : { error: last.ending.error };
}

/** The completion's events go out on entry to signedIn, never on a refusal (its redirect failing, say). */
async function expectEventsOnlyWhenSignedIn(path: Path) {
  const played = await playBack(machine, path);
  const completion = outputOf(path, "completeSignIn") as SignInCompletionOutput | undefined;
  expect(played.emitted).toEqual(played.value === "signedIn" ? completion!.events : []);
}

describe("OAuth: paths generated from the machine", () => {
  itCoversTheMachine(machine, { ...redirectOutcomes, ...callbackOutcomes }, allPaths, { resting: "oauth.awaitingCallback" });

  describe("the first request", () => {
    it("rests in awaitingCallback on one path, and fails on the others", () => {
      expect(redirectPaths.map((path) => path.finalState).sort()).toEqual([
        "oauth.awaitingCallback",
        "oauth.failed",
        "oauth.failed",
        "oauth.failed",
        "oauth.limited",
      ]);
    });

    for (const path of redirectPaths) {
      it(path.name, async () => {
        const played = await playBack(machine, path);
        expectPlayedAsPredicted(path, played);
        const limited = played.value === "limited";
        expect(played.emitted).toEqual(
          limited ? [{ type: "rateLimited", providerId: "github", scope: "requests", limit: "requests", retryAfter: 7 }] : [],
        );
        // Past the ceiling, nothing is discovered or requested.
        if (limited) expect(played.invoked.map((call) => call.effect)).toEqual(["checkRequestLimit"]);
        const requested = played.invoked.find((call) => call.effect === "createAuthorizationRequest");
        if (requested) {
          expect(requested.input).toEqual({
            providerId: "github",
            callbackUrl: "/dashboard",
            authorizationParams: { prompt: "consent" },
            req: github.req,
          });
        }
        if (played.value === "awaitingCallback") {
          // Resting: nothing runs, nothing is decided yet; the redirect and its cookies are in the context.
          expect(played.status).toBe("active");
          expect(played.output).toBeUndefined();
          const context = played.context as OAuthContext;
          expect(context.authorizationUrl).toBe(authorizationUrl);
          expect(context.flowCookies).toBe(flowCookies);
        } else {
          // Refused before any redirect: the effect's error as it is, and no cookies to set.
          const ending = path.steps.at(-1)!.ending;
          const failure = limited ? { error: tooManyRequests, as: "RateLimited" } : { error: (ending as { error: unknown }).error };
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

        // The provider's raw answer is validated; only what validation returns reaches the token endpoint.
        const validated = played.invoked.find((call) => call.effect === "validateCallback");
        if (validated) expect(validated.input).toEqual({ providerId: "github", params: callbackParams, checks });
        const exchanged = played.invoked.find((call) => call.effect === "exchangeCode");
        if (exchanged) expect((exchanged.input as { callbackParams: unknown }).callbackParams).toBe(validatedParams);

        const restored = outputOf(path, "restoreChecks") as { currentUserId?: string } | undefined;
        const mapped = outputOf(path, "mapProfile") as { account: Account; emailVerified: boolean } | undefined;
        const completing = played.invoked.find((call) => call.effect === "completeSignIn");
        if (completing) {
          expect(completing.input).toEqual({
            provider: { id: "github", type: mapped!.account.type, allowDangerousEmailAccountLinking: path.input.allowDangerousEmailAccountLinking },
            user: providerUser,
            account: mapped!.account,
            profile,
            emailVerified: mapped!.emailVerified,
            ...(restored?.currentUserId ? { currentUserId: restored.currentUserId } : {}),
            hasAdapter: path.input.hasAdapter,
            callbackUrl: checks.callbackUrl,
            req: path.input.req,
          });
        }

        if (output.outcome === "refused") expect(output.failure).toEqual(expectedCallbackFailure(path));
        // Once the checks were read, every answer clears them: they are single use, even on failure.
        if (restored) expect(output.cookies.slice(0, clearCookies.length)).toEqual(clearCookies);
        const sessionSet = output.cookies.filter((cookie) => sessionCookies.includes(cookie));
        expect(sessionSet).toEqual(output.outcome === "signedIn" ? sessionCookies : []);
        if (output.outcome === "signedIn") {
          expect(output.cookies).toEqual([...clearCookies, ...sessionCookies]);
          // Where the completion judged the remembered callback URL to go.
          const completion = outputOf(path, "completeSignIn") as { redirectTo: string };
          expect(output.redirectTo).toBe(completion.redirectTo);
        } else if (restored) {
          expect(output.cookies).toEqual(clearCookies);
        }
        if (output.outcome === "diverted") expect(output.redirectTo).toBe("/onboarding");

        await expectEventsOnlyWhenSignedIn(path);
      });
    }

    it("refuse every answer that does not hold up before the completion as OAuthCallbackError, except an unmappable profile", () => {
      const refusedEarly = callbackPaths.filter((path) => !path.steps.some((s) => s.effect === "completeSignIn"));
      const as = refusedEarly.map((path) => [path.steps.at(-1)!.effect, (path.end.output as { failure: FlowFailure }).failure.as]);
      expect(new Set(as.map(([effect, kind]) => `${effect} → ${kind}`))).toEqual(
        new Set([
          "restoreChecks → OAuthCallbackError",
          "validateCallback → OAuthCallbackError",
          "exchangeCode → OAuthCallbackError",
          "fetchProfile → OAuthCallbackError",
          "mapProfile → undefined",
        ]),
      );
    });
  });
});
