import { describe, expect, it } from "vitest";
import {
  oauthMachine as machine,
  type FlowFailure,
  type CallbackParams,
  type ExchangedTokens,
  type OAuthInput,
  type RestoredChecks,
  type SignInCompletionInput,
  type SignInCompletionOutput,
} from "../../machines/index.js";
import type { OAuthContext } from "../../machines/oauth.machine.js";
import type { SetCookie } from "../../src/cookies.js";
import { OAuthProfileParseError } from "../../src/errors.js";
import type { AdapterUser, Profile, User } from "../../src/types.js";
import type { RequestFacts } from "../../machines/shared.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { isPlainData, oauthCallback, requestLimitOutcomes, tooManyRequests } from "./fixtures.js";
import { challengeUrl, pendingCookies } from "./completion-world.js";
import { challengesForSecondFactor } from "./second-factor.js";

type Path = EffectPath<typeof machine>;

const authorizationUrl = "https://github.example/login/oauth/authorize?client_id=app&code_challenge=abc";
const pushedUrl = "https://github.example/login/oauth/authorize?client_id=app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Ar1";
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
const callbackParams: CallbackParams = { code: ["code-1"], state: ["state-1"] };
const validatedParams: CallbackParams = { code: ["code-1"] };
const tokens = { access_token: "gho_token", token_type: "bearer", scope: "read:user" };
const idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiI0NzExIn0.c2lnbmVk";
const tokensWithIdToken = { ...tokens, id_token: idToken };
const claims = { iss: "https://id.example", sub: "4711", aud: "app", email: "ada.l@example.com", email_verified: true };
const githubProfile: Profile = { id: "4711", login: "ada-l", name: "Ada L.", email: "ada.l@example.com" };
const oidcProfile: Profile = { sub: "4711", name: "Ada L.", email: "ada.l@example.com", email_verified: true };
// Some providers (Apple) send the flag as a string.
const customProfile = { id: "4711", name: "Ada L.", email: "ada.l@example.com", email_verified: "true" } as unknown as Profile;
const providerUser: User = { id: "4711", name: "Ada L.", email: "ada.l@example.com" };
const accountFields = { access_token: "gho_token", token_type: "Bearer" };
const created: AdapterUser = { id: "user-new", name: "Ada L.", email: "ada.l@example.com", emailVerified: null };

const discoveryFailed = new Error("discoverEndpoints: the issuer is unreachable");
const requestFailed = new Error("createAuthorizationRequest: no secret to seal the checks with");
const pushRefused = new Error("pushAuthorizationRequest: invalid_client");
const checksTampered = new Error("restoreChecks: the PKCE cookie does not open");
const stateMismatch = new Error("validateCallback: state mismatch");
const grantRejected = new Error("exchangeCode: invalid_grant");
const sealedKey = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..iv.sealed-dpop-key.tag";
const keyRefused = new Error("createDPoPKey: dpop.alg PS256 is not among the provider's algorithms");
const customGrantRejected = new Error("exchangeCodeCustom: the provider's token request failed");
const nonceMismatch = new Error("checkIdToken: unexpected nonce");
const badSignature = new Error("verifyIdToken: the ID token's signature is invalid");
const customUserinfoFailed = new Error("fetchUserinfoCustom: the provider's userinfo request failed");
const subjectMismatch = new Error("fetchOidcUserinfo: unexpected sub");
const userinfoFailed = new Error("fetchUserinfo: the userinfo endpoint answered 500");
const noId = new OAuthProfileParseError("The profile of github has no id.");
const accountThrew = new Error("pickAccountFields: account() threw");
const completionCrashed = new Error("completeSignIn: the sub-flow stopped");
const redirectFailed: FlowFailure = { error: new Error("resolveRedirect: the redirect callback threw") };
const notLinked: FlowFailure = { error: undefined, as: "OAuthAccountNotLinked" };


/** The first request: from the sign-in button to the redirect to the provider. */
const redirectOutcomes = {
  checkRequestLimit: requestLimitOutcomes,
  discoverEndpoints: [returns("finds the endpoints", () => undefined), throws("throws", discoveryFailed)],
  createAuthorizationRequest: [
    returns("makes the request", () => ({ url: authorizationUrl, cookies: flowCookies })),
    returns("makes a request to push", () => ({ url: authorizationUrl, cookies: flowCookies, push: true })),
    throws("throws", requestFailed),
  ],
  pushAuthorizationRequest: [returns("pushes it", () => ({ url: pushedUrl })), throws("throws", pushRefused)],
};

/** The second request: from the provider's answer to a session. The completion is a child machine. */
const callbackOutcomes = {
  restoreChecks: [
    returns("restores the checks", () => ({ checks, clearCookies })),
    returns("restores the checks and a signed-in user", () => ({ checks, clearCookies, currentUserId: "user-ada" })),
    throws("throws", checksTampered),
  ],
  validateCallback: [returns("accepts the answer", () => validatedParams), throws("throws", stateMismatch)],
  exchangeCode: [
    returns("returns tokens", (): ExchangedTokens => ({ tokens, keysPublished: false })),
    returns("returns a checked ID token, keys published", (): ExchangedTokens => ({
      tokens: tokensWithIdToken,
      idTokenClaims: claims,
      keysPublished: true,
    })),
    returns("returns a checked ID token, no keys published", (): ExchangedTokens => ({
      tokens: tokensWithIdToken,
      idTokenClaims: claims,
      keysPublished: false,
    })),
    returns("asks for a DPoP nonce", () => ({ dpopNonce: "nonce-1" })),
    throws("throws", grantRejected),
  ],
  createDPoPKey: [returns("makes a sealed key", () => sealedKey), throws("throws", keyRefused)],
  exchangeCodeCustom: [
    returns("returns tokens", () => tokens),
    returns("returns an ID token", () => tokensWithIdToken),
    throws("throws", customGrantRejected),
  ],
  checkIdToken: [returns("accepts the claims", () => claims), throws("throws", nonceMismatch)],
  verifyIdToken: [returns("accepts the signature", () => undefined), throws("throws", badSignature)],
  fetchUserinfoCustom: [returns("returns a profile", () => customProfile), throws("throws", customUserinfoFailed)],
  fetchOidcUserinfo: [returns("returns a profile", () => oidcProfile), throws("throws", subjectMismatch)],
  fetchUserinfo: [returns("returns a profile", () => githubProfile), throws("throws", userinfoFailed)],
  mapProfile: [returns("maps the user", () => providerUser), throws("throws", noId)],
  pickAccountFields: [returns("picks the fields", () => accountFields), throws("throws", accountThrew)],
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
    challengesForSecondFactor,
    returns("refuses (not linked)", (): SignInCompletionOutput => ({ outcome: "refused", failure: notLinked, events: [] })),
    returns("refuses (no redirect)", (): SignInCompletionOutput => ({ outcome: "refused", failure: redirectFailed, events: [] })),
    throws("throws", completionCrashed),
  ],
};

const facts: RequestFacts = { origin: "https://app.example", baseUrl: "https://app.example/auth", secure: true };
const github: OAuthInput & { hasAdapter: boolean } = {
  providerId: "github",
  providerType: "oauth",
  allowDangerousEmailAccountLinking: false,
  idTokenProfile: false,
  customTokenRequest: false,
  customUserinfoRequest: false,
  callbackUrl: "/dashboard",
  authorizationParams: { prompt: "consent" },
  hasAdapter: true,
  request: facts,
};
const callbackInputs = {
  "GitHub (OAuth 2), with an adapter": github,
  "Acme (OIDC, the profile in its ID token)": { ...github, providerId: "acme", providerType: "oidc" as const, idTokenProfile: true },
  "Acme (OIDC with DPoP, the profile in its ID token)": {
    ...github,
    providerId: "acme",
    providerType: "oidc" as const,
    idTokenProfile: true,
    dpop: true,
  },
  "Acme (OIDC, idToken: false, its own token and userinfo requests), no adapter, email linking allowed": {
    ...github,
    providerId: "acme",
    providerType: "oidc" as const,
    customTokenRequest: true,
    customUserinfoRequest: true,
    hasAdapter: false,
    allowDangerousEmailAccountLinking: true,
  },
};

const redirectPaths = effectPaths(machine, { GitHub: github }, redirectOutcomes, { until: "awaitingCallback" });
const callbackPaths = effectPaths(machine, callbackInputs, callbackOutcomes, {
  resume: (input) => oauthCallback(input, callbackParams),
});
const allPaths = [...redirectPaths, ...callbackPaths];

// The last step of an effect: the code exchange runs twice when the server asks for a DPoP nonce.
const stepOf = (path: Path, effect: string) => path.steps.findLast((s) => s.effect === effect);
const outputOf = (path: Path, effect: string): unknown => {
  const step = stepOf(path, effect);
  return step && "output" in step.ending ? step.ending.output : undefined;
};

/** The failure a refusal of the callback reports, read from the outcome that ended the path. */
function expectedCallbackFailure(path: Path): FlowFailure {
  const last = path.steps.at(-1)!;
  if ("output" in last.ending) {
    // A token endpoint that asks for a DPoP nonce again, after the retry with it, refused the sign-in.
    if (last.effect === "exchangeCode") return { error: last.ending.output, as: "OAuthCallbackError" };
    return (last.ending.output as { failure: FlowFailure }).failure;
  }
  // Up to the profile, a failure is the provider's answer not holding up; a profile that cannot be
  // mapped (or an account() that throws) keeps its own error, and so does the completion.
  const answerChecks = [
    "restoreChecks",
    "validateCallback",
    "createDPoPKey",
    "exchangeCode",
    "exchangeCodeCustom",
    "checkIdToken",
    "verifyIdToken",
    "fetchUserinfoCustom",
    "fetchOidcUserinfo",
    "fetchUserinfo",
  ];
  return answerChecks.includes(last.effect) ? { error: last.ending.error, as: "OAuthCallbackError" } : { error: last.ending.error };
}

/** The raw profile a path read: a userinfo answer, or the ID token's claims. */
function profileOf(path: Path): Profile {
  for (const effect of ["fetchUserinfoCustom", "fetchOidcUserinfo", "fetchUserinfo"]) {
    const fetched = outputOf(path, effect) as Profile | undefined;
    if (fetched) return fetched;
  }
  return ((outputOf(path, "exchangeCode") as ExchangedTokens | undefined)?.idTokenClaims ?? outputOf(path, "checkIdToken")) as Profile;
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
    it("rests in awaitingCallback on two paths (the request sent as it is, or pushed first), and fails on the others", () => {
      expect(redirectPaths.map((path) => path.finalState).sort()).toEqual([
        "oauth.awaitingCallback",
        "oauth.awaitingCallback",
        "oauth.failed",
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
          expect(requested.input).toEqual({ providerId: "github", callbackUrl: "/dashboard", authorizationParams: { prompt: "consent" } });
        }
        if (played.value === "awaitingCallback") {
          // Resting: nothing runs, nothing is decided yet; the redirect and its cookies are in the context.
          expect(played.status).toBe("active");
          expect(played.output).toBeUndefined();
          const context = played.context as OAuthContext;
          // A pushed request sends the browser with its request_uri only.
          const pushed = played.invoked.some((call) => call.effect === "pushAuthorizationRequest");
          expect(context.authorizationUrl).toBe(pushed ? pushedUrl : authorizationUrl);
          expect(context.flowCookies).toBe(flowCookies);
          // What the callback restores is data: it could be stored as it is.
          expect(isPlainData(context)).toBe(true);
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
        const { providerId, providerType } = path.input;
        const validated = played.invoked.find((call) => call.effect === "validateCallback");
        if (validated) expect(validated.input).toEqual({ providerId, params: callbackParams, checks });
        const exchanged = played.invoked.find((call) => call.effect === "exchangeCode" || call.effect === "exchangeCodeCustom");
        if (exchanged) expect((exchanged.input as { callbackParams: unknown }).callbackParams).toBe(validatedParams);

        const restored = outputOf(path, "restoreChecks") as { currentUserId?: string } | undefined;
        const completing = played.invoked.find((call) => call.effect === "completeSignIn");
        if (completing) {
          const profile = profileOf(path);
          expect(completing.input).toEqual({
            provider: { id: providerId, type: providerType, allowDangerousEmailAccountLinking: path.input.allowDangerousEmailAccountLinking },
            user: providerUser,
            account: {
              access_token: "gho_token",
              token_type: "bearer",
              // DPoP: the key the tokens are bound to is stored with them.
              ...(path.input.dpop ? { dpop_jwk: sealedKey } : {}),
              provider: providerId,
              type: providerType,
              providerAccountId: "4711",
            },
            profile,
            emailVerified: [true, "true"].includes(profile.email_verified as unknown as string),
            ...(restored?.currentUserId ? { currentUserId: restored.currentUserId } : {}),
            hasAdapter: path.input.hasAdapter,
            callbackUrl: checks.callbackUrl,
            request: path.input.request,
          });
        }
        // Whatever happened, what the steps handed each other is data.
        const { failure: _failure, ...data } = played.context as OAuthContext;
        expect(isPlainData(data)).toBe(true);

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
        } else if (output.outcome === "challenged") {
          // A second factor is due: the checks cleared, then the pending cookie; no session.
          expect(output).toEqual({ outcome: "challenged", redirectTo: challengeUrl, cookies: [...clearCookies, ...pendingCookies] });
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
          "createDPoPKey → OAuthCallbackError",
          "exchangeCode → OAuthCallbackError",
          "exchangeCodeCustom → OAuthCallbackError",
          "checkIdToken → OAuthCallbackError",
          "verifyIdToken → OAuthCallbackError",
          "fetchUserinfoCustom → OAuthCallbackError",
          "fetchOidcUserinfo → OAuthCallbackError",
          "fetchUserinfo → OAuthCallbackError",
          "mapProfile → undefined",
          "pickAccountFields → undefined",
        ]),
      );
    });

    it("read the profile from an ID token only for OIDC with idTokenProfile, and only once its signature is verified", () => {
      const fromIdToken = callbackPaths.filter((path) => path.visited.has("oauth.readingIdToken"));
      expect(fromIdToken.length).toBeGreaterThan(0);
      for (const path of fromIdToken) {
        expect(path.input.providerType === "oidc" && path.input.idTokenProfile, path.name).toBe(true);
        expect(path.steps.map((step) => step.effect), path.name).toContain("verifyIdToken");
      }
    });

    it("verify every OIDC ID token, and a plain OAuth 2 one only when the provider publishes its keys", () => {
      for (const path of callbackPaths) {
        const exchanged = outputOf(path, "exchangeCode") as ExchangedTokens | undefined;
        const custom = outputOf(path, "exchangeCodeCustom") as Record<string, unknown> | undefined;
        const idTokenCame = typeof (exchanged?.tokens ?? custom)?.id_token === "string";
        if (!idTokenCame) continue;
        const verified = path.steps.some((step) => step.effect === "verifyIdToken");
        const oidc = path.input.providerType === "oidc";
        // A step that failed before the signature was checked ends the path first.
        const failedBefore = path.steps.some((step) => step.effect === "checkIdToken" && "error" in step.ending);
        if (!failedBefore) expect(verified, path.name).toBe(oidc || exchanged?.keysPublished === true);
      }
    });
  });
});
