import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { oauthMachine, type OAuthContext, type OAuthInput, type RestoredChecks, type LimitVerdict } from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import { AccessDenied, OAuthProfileParseError } from "../../src/errors.js";
import type { Account, Profile, User } from "../../src/types.js";
import { ada, completionIn, grace, newUserFrom, sessionCookies, type World } from "./completion-world.js";
import { oauthCallback, requestContext } from "./fixtures.js";
import { runActor } from "./run-actor.js";

const authorizationUrl = "https://github.example/login/oauth/authorize?client_id=app&code_challenge=abc";
const flowCookies: SetCookie[] = [
  { name: "__Secure-appauth.pkce.code_verifier", value: "sealed-verifier", options: { httpOnly: true, path: "/", maxAge: 900 } },
];
const clearCookies: SetCookie[] = [
  { name: "__Secure-appauth.pkce.code_verifier", value: "", options: { httpOnly: true, path: "/", maxAge: 0 } },
];
const checks: RestoredChecks = {
  codeVerifier: "verifier",
  callbackUrl: "https://app.example/dashboard",
  redirectUri: "https://app.example/auth/callback/github",
};
const answer = new URLSearchParams({ code: "code-1", state: "state-1", iss: "https://github.example" });
const validated = new URLSearchParams({ code: "code-1" });
const tokens = { access_token: "gho_token", token_type: "bearer" };
const profile: Profile = { id: "4711", login: "ada-l", name: "Ada L.", email: "ada.l@example.com", email_verified: true };
const providerUser: User = { id: "4711", name: "Ada L.", email: "ada.l@example.com" };
const account: Account = { provider: "github", providerAccountId: "4711", type: "oauth", access_token: "gho_token" };

const signIn: OAuthInput & { hasAdapter: boolean } = {
  providerId: "github",
  allowDangerousEmailAccountLinking: false,
  callbackUrl: "/dashboard",
  authorizationParams: { prompt: "consent" },
  hasAdapter: true,
  req: requestContext("signin"),
};
const callbackReq = requestContext("callback", "GET");
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

interface Effects {
  checkRequestLimit: (input: unknown) => Promise<LimitVerdict>;
  discoverEndpoints: (input: unknown) => Promise<void>;
  createAuthorizationRequest: (input: unknown) => Promise<{ url: string; cookies: SetCookie[] }>;
  restoreChecks: (input: unknown) => Promise<{ checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string }>;
  validateCallback: (input: unknown) => Promise<URLSearchParams>;
  exchangeCode: (input: unknown) => Promise<Record<string, unknown>>;
  fetchProfile: (input: unknown) => Promise<Profile>;
  mapProfile: (input: unknown) => Promise<{ user: User; account: Account; emailVerified: boolean }>;
  resolveRedirect: (input: { url: string; isNewUser: boolean }) => Promise<string>;
}

/**
 * Fakes that take Ada through GitHub, with the real sign-in completion answering as `world` says;
 * each test overrides the effect it is about.
 */
function fakes(world: World = nobodyKnown, overrides: Partial<Effects> = {}) {
  const effects = {
    checkRequestLimit: vi.fn(overrides.checkRequestLimit ?? (async (_: unknown): Promise<LimitVerdict> => ({ allowed: true, retryAfter: 0, counts: {} }))),
    discoverEndpoints: vi.fn(overrides.discoverEndpoints ?? (async () => undefined)),
    createAuthorizationRequest: vi.fn(overrides.createAuthorizationRequest ?? (async () => ({ url: authorizationUrl, cookies: flowCookies }))),
    restoreChecks: vi.fn(overrides.restoreChecks ?? (async () => ({ checks, clearCookies }))),
    validateCallback: vi.fn(overrides.validateCallback ?? (async () => validated)),
    exchangeCode: vi.fn(overrides.exchangeCode ?? (async () => tokens)),
    fetchProfile: vi.fn(overrides.fetchProfile ?? (async () => profile)),
    mapProfile: vi.fn(overrides.mapProfile ?? (async () => ({ user: providerUser, account, emailVerified: true }))),
    // A new user is welcomed on a page of their own.
    resolveRedirect: vi.fn(
      overrides.resolveRedirect ?? (async ({ url, isNewUser }) => (isNewUser ? "https://app.example/welcome" : url)),
    ),
  };
  const completion = completionIn(world, (input) => effects.resolveRedirect(input));
  const machine = oauthMachine.provide({
    actors: {
      checkRequestLimit: fromPromise(({ input }) => effects.checkRequestLimit(input)),
      discoverEndpoints: fromPromise(({ input }) => effects.discoverEndpoints(input)),
      createAuthorizationRequest: fromPromise(({ input }) => effects.createAuthorizationRequest(input)),
      restoreChecks: fromPromise(({ input }) => effects.restoreChecks(input)),
      validateCallback: fromPromise(({ input }) => effects.validateCallback(input)),
      exchangeCode: fromPromise(({ input }) => effects.exchangeCode(input)),
      fetchProfile: fromPromise(({ input }) => effects.fetchProfile(input)),
      mapProfile: fromPromise(({ input }) => effects.mapProfile(input)),
      completeSignIn: completion.machine,
    },
  });
  return { machine, effects, completion };
}

type Machine = ReturnType<typeof fakes>["machine"];

/** The first request: up to the redirect to the provider. */
const redirect = (machine: Machine) => runActor(machine, signIn, { until: "awaitingCallback" });
/** The second request: restored at awaitingCallback and handed the provider's answer. */
const callback = (machine: Machine, input: Partial<OAuthInput & { hasAdapter: boolean }> = {}) =>
  runActor(machine, undefined, { resume: oauthCallback({ ...signIn, req: callbackReq, ...input }, answer) });

describe("OAuth machine", () => {
  it("the first request makes the authorization request and rests in awaitingCallback with its URL and cookies, deciding nothing", async () => {
    const { machine, effects } = fakes();
    const { value, status, output, context, emitted } = await redirect(machine);
    expect(value).toBe("awaitingCallback");
    expect(status).toBe("active");
    expect(output).toBeUndefined();
    expect((context as OAuthContext).authorizationUrl).toBe(authorizationUrl);
    expect((context as OAuthContext).flowCookies).toBe(flowCookies);
    expect(effects.discoverEndpoints).toHaveBeenCalledWith({ providerId: "github" });
    expect(effects.createAuthorizationRequest).toHaveBeenCalledWith({
      providerId: "github",
      callbackUrl: "/dashboard",
      authorizationParams: { prompt: "consent" },
      req: signIn.req,
    });
    expect(effects.restoreChecks).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("awaitingCallback, where the flow is persisted between the requests, invokes nothing and starts no timer", () => {
    const resting = oauthMachine.getStateNodeById("oauth.awaitingCallback");
    expect(resting.invoke).toEqual([]);
    expect(resting.after).toEqual([]);
    expect(Object.keys(resting.on)).toEqual(["callback.received"]);
  });

  it("a provider whose endpoints cannot be discovered refuses before any redirect, keeping the error", async () => {
    const down = new Error("the issuer is unreachable");
    const { machine, effects } = fakes(nobodyKnown, { discoverEndpoints: () => Promise.reject(down) });
    const { value, output } = await redirect(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: down }, cookies: [] });
    expect(effects.createAuthorizationRequest).not.toHaveBeenCalled();
  });

  it("the callback reads the checks from its request, validates the raw answer against them, and exchanges only what validation returned", async () => {
    const { machine, effects } = fakes();
    await callback(machine);
    expect(effects.restoreChecks).toHaveBeenCalledWith({ providerId: "github", req: callbackReq });
    expect(effects.validateCallback).toHaveBeenCalledWith({ providerId: "github", params: answer, checks });
    expect(effects.exchangeCode).toHaveBeenCalledWith({ providerId: "github", callbackParams: validated, checks });
    expect(effects.fetchProfile).toHaveBeenCalledWith({ providerId: "github", tokens, callbackParams: validated });
    expect(effects.mapProfile).toHaveBeenCalledWith({ providerId: "github", profile, tokens });
  });

  it("an answer that does not hold up is an OAuthCallbackError that keeps the cause, and still clears the check cookies", async () => {
    const failing = ["validateCallback", "exchangeCode", "fetchProfile"] as const;
    for (const effect of failing) {
      const cause = new Error(`${effect} refused the answer`);
      const { machine, effects } = fakes(nobodyKnown, { [effect]: () => Promise.reject(cause) });
      const { value, output, emitted } = await callback(machine);
      expect(value, effect).toBe("failed");
      expect(output, effect).toEqual({ outcome: "refused", failure: { error: cause, as: "OAuthCallbackError" }, cookies: clearCookies });
      expect(effects.mapProfile, effect).not.toHaveBeenCalled();
      expect(emitted, effect).toEqual([]);
    }
  });

  it("check cookies that cannot be restored are an OAuthCallbackError, with no session", async () => {
    const tampered = new Error("the PKCE cookie does not open");
    const { machine, effects } = fakes(nobodyKnown, { restoreChecks: () => Promise.reject(tampered) });
    const { value, output } = await callback(machine);
    expect(value).toBe("failed");
    expect(output).toMatchObject({ outcome: "refused", failure: { error: tampered, as: "OAuthCallbackError" } });
    expect(effects.validateCallback).not.toHaveBeenCalled();
  });

  it("a profile that cannot be mapped keeps its own error, and clears the check cookies", async () => {
    const noId = new OAuthProfileParseError("The profile of github has no id.");
    const { machine, completion } = fakes(nobodyKnown, { mapProfile: () => Promise.reject(noId) });
    const { value, output } = await callback(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: noId }, cookies: clearCookies });
    expect(completion.ran()).toEqual([]);
  });

  it("a first sign-in creates the user, welcomes them, clears the check cookies, sets the session and announces createUser, linkAccount, signIn", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await callback(machine);
    const created = newUserFrom(providerUser, true);
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: "https://app.example/welcome", cookies: [...clearCookies, ...sessionCookies] });
    // Where to go afterwards comes from the restored checks, not from the callback's own request.
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: checks.callbackUrl, isNewUser: true, req: callbackReq });
    expect(emitted).toEqual([
      { type: "createUser", user: created },
      { type: "linkAccount", user: created, account, profile: providerUser },
      { type: "signIn", user: created, account, profile, isNewUser: true },
    ]);
  });

  it("a returning user signs in as the stored user, sent where they asked to go", async () => {
    const { machine, effects } = fakes({ ...nobodyKnown, accountOwner: grace });
    const { output, emitted } = await callback(machine);
    expect(output).toEqual({ outcome: "signedIn", redirectTo: checks.callbackUrl, cookies: [...clearCookies, ...sessionCookies] });
    expect(effects.resolveRedirect).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: false }));
    expect(emitted).toEqual([{ type: "signIn", user: grace, account, profile, isNewUser: false }]);
  });

  it("a new account of the person signed in on this browser is linked to them, with the account's own provider type", async () => {
    const oidc: Account = { ...account, type: "oidc" };
    const { machine, completion } = fakes(nobodyKnown, {
      restoreChecks: async () => ({ checks, clearCookies, currentUserId: ada.id }),
      mapProfile: async () => ({ user: providerUser, account: oidc, emailVerified: false }),
    });
    const { output, emitted } = await callback(machine);
    expect(output.outcome).toBe("signedIn");
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(completion.inputOf("linkAccount")).toEqual({ userId: ada.id, account: oidc });
    expect(completion.inputOf("signInCallback")).toEqual({ user: providerUser, account: oidc, profile });
    expect(emitted.map((event) => event.type)).toEqual(["linkAccount", "signIn"]);
  });

  it("links to the user who has the email only with the provider's opt-in and the email verified as mapProfile read it", async () => {
    for (const allowDangerousEmailAccountLinking of [true, false]) {
      for (const emailVerified of [true, false]) {
        const { machine, completion } = fakes(
          { ...nobodyKnown, emailOwner: grace },
          { mapProfile: async () => ({ user: providerUser, account, emailVerified }) },
        );
        const { output } = await callback(machine, { allowDangerousEmailAccountLinking });
        const said = `allow=${allowDangerousEmailAccountLinking} verified=${emailVerified}`;
        if (allowDangerousEmailAccountLinking && emailVerified) {
          expect(output.outcome, said).toBe("signedIn");
          expect(completion.inputOf("linkAccount"), said).toEqual({ userId: grace.id, account });
        } else {
          expect(output, said).toEqual({
            outcome: "refused",
            failure: { error: undefined, as: "OAuthAccountNotLinked" },
            cookies: clearCookies,
          });
        }
      }
    }
  });

  it("an account linked to someone other than the signed-in user is refused as OAuthAccountNotLinked, clearing the check cookies, announcing nothing", async () => {
    const { machine, effects } = fakes(
      { ...nobodyKnown, accountOwner: grace },
      { restoreChecks: async () => ({ checks, clearCookies, currentUserId: ada.id }) },
    );
    const { value, output, emitted } = await callback(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, cookies: clearCookies });
    expect(effects.resolveRedirect).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a signIn callback that returns a URL diverts there, clearing the check cookies, with no session", async () => {
    const { machine } = fakes({ ...nobodyKnown, signIn: { returns: "/onboarding" } });
    const { value, output, emitted } = await callback(machine);
    expect(value).toBe("diverted");
    expect(output).toEqual({ outcome: "diverted", redirectTo: "/onboarding", cookies: clearCookies });
    expect(emitted).toEqual([]);
  });

  it("a signIn callback that throws is AccessDenied with its error kept, clearing the check cookies", async () => {
    const veto = new AccessDenied("Accounts under review cannot sign in.");
    const { machine } = fakes({ ...nobodyKnown, signIn: { throws: veto } });
    const { output } = await callback(machine);
    expect(output).toEqual({ outcome: "refused", failure: { error: veto, as: "AccessDenied" }, cookies: clearCookies });
  });

  it("a session that cannot be issued refuses the sign-in with its error, clearing the check cookies, announcing nothing", async () => {
    const broken = new Error("no secret");
    const { machine } = fakes({ ...nobodyKnown, failure: { effect: "issueSession", error: broken } });
    const { value, output, emitted } = await callback(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken }, cookies: clearCookies });
    expect(emitted).toEqual([]);
  });

  it("a redirect that cannot be resolved refuses the sign-in with its error and sets no session", async () => {
    const broken = new Error("the redirect callback threw");
    const { machine } = fakes(nobodyKnown, { resolveRedirect: () => Promise.reject(broken) });
    const { value, output } = await callback(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken }, cookies: clearCookies });
  });

  // Events go out only on entry to signedIn: a redirect that fails after the completion announces nothing.
  it("a redirect that cannot be resolved announces nothing", async () => {
    const { machine } = fakes(nobodyKnown, { resolveRedirect: () => Promise.reject(new Error("the redirect callback threw")) });
    expect((await callback(machine)).emitted).toEqual([]);
  });
});
