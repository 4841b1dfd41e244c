import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import {
  oauthMachine,
  type CallbackParams,
  type ExchangedTokens,
  type LimitVerdict,
  type OAuthInput,
  type RestoredChecks,
} from "../../machines/index.js";
import type { OAuthContext } from "../../machines/oauth.machine.js";
import type { RequestFacts } from "../../machines/shared.js";
import type { SetCookie } from "../../src/cookies.js";
import { AccessDenied, OAuthProfileParseError } from "../../src/errors.js";
import type { Account, Profile, User } from "../../src/types.js";
import { ada, completionIn, grace, newUserFrom, sessionCookies, type World } from "./completion-world.js";
import { isPlainData, oauthCallback } from "./fixtures.js";
import { runActor } from "./run-actor.js";

const authorizationUrl = "https://github.example/login/oauth/authorize?client_id=app&code_challenge=abc";
const pushedUrl = "https://github.example/login/oauth/authorize?client_id=app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Ar1";
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
const answer: CallbackParams = { code: ["code-1"], state: ["state-1"], iss: ["https://github.example"] };
const validated: CallbackParams = { code: ["code-1"] };
const tokens = { access_token: "gho_token", token_type: "bearer" };
const profile: Profile = { id: "4711", login: "ada-l", name: "Ada L.", email: "ada.l@example.com", email_verified: true };
const providerUser: User = { id: "4711", name: "Ada L.", email: "ada.l@example.com" };
const account: Account = { provider: "github", providerAccountId: "4711", type: "oauth", access_token: "gho_token" };

const signInFacts: RequestFacts = { origin: "https://app.example", baseUrl: "https://app.example/auth", secure: true };
const callbackFacts: RequestFacts = { ...signInFacts };
const signIn: OAuthInput & { hasAdapter: boolean } = {
  providerId: "github",
  providerType: "oauth",
  allowDangerousEmailAccountLinking: false,
  idTokenProfile: false,
  customTokenRequest: false,
  customUserinfoRequest: false,
  callbackUrl: "/dashboard",
  authorizationParams: { prompt: "consent" },
  hasAdapter: true,
  request: signInFacts,
};
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

/** An OpenID Connect provider whose profile is its ID token's claims. */
const oidc: Partial<OAuthInput> = { providerId: "acme", providerType: "oidc", idTokenProfile: true };
const idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmVk";
const claims = { iss: "https://id.acme.example", sub: "ada", aud: "app", email: "ada@example.com", email_verified: "true" };
const oidcTokens = { access_token: "at", token_type: "bearer", id_token: idToken };

interface Effects {
  checkRequestLimit: (input: unknown) => Promise<LimitVerdict>;
  discoverEndpoints: (input: unknown) => Promise<void>;
  createAuthorizationRequest: (input: unknown) => Promise<{ url: string; cookies: SetCookie[]; push?: boolean }>;
  pushAuthorizationRequest: (input: unknown) => Promise<{ url: string }>;
  restoreChecks: (input: unknown) => Promise<{ checks: RestoredChecks; clearCookies: SetCookie[]; currentUserId?: string }>;
  validateCallback: (input: unknown) => Promise<CallbackParams>;
  exchangeCode: (input: unknown) => Promise<ExchangedTokens>;
  exchangeCodeCustom: (input: unknown) => Promise<Record<string, unknown>>;
  checkIdToken: (input: unknown) => Promise<Record<string, unknown>>;
  verifyIdToken: (input: unknown) => Promise<void>;
  fetchUserinfoCustom: (input: unknown) => Promise<Profile>;
  fetchOidcUserinfo: (input: unknown) => Promise<Profile>;
  fetchUserinfo: (input: unknown) => Promise<Profile>;
  mapProfile: (input: { profile: Profile }) => Promise<User>;
  pickAccountFields: (input: unknown) => Promise<Record<string, unknown>>;
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
    pushAuthorizationRequest: vi.fn(overrides.pushAuthorizationRequest ?? (async () => ({ url: pushedUrl }))),
    restoreChecks: vi.fn(overrides.restoreChecks ?? (async () => ({ checks, clearCookies }))),
    validateCallback: vi.fn(overrides.validateCallback ?? (async () => validated)),
    exchangeCode: vi.fn(overrides.exchangeCode ?? (async (): Promise<ExchangedTokens> => ({ tokens, keysPublished: false }))),
    exchangeCodeCustom: vi.fn(overrides.exchangeCodeCustom ?? (async () => tokens)),
    checkIdToken: vi.fn(overrides.checkIdToken ?? (async () => claims)),
    verifyIdToken: vi.fn(overrides.verifyIdToken ?? (async () => undefined)),
    fetchUserinfoCustom: vi.fn(overrides.fetchUserinfoCustom ?? (async () => profile)),
    fetchOidcUserinfo: vi.fn(overrides.fetchOidcUserinfo ?? (async () => profile)),
    fetchUserinfo: vi.fn(overrides.fetchUserinfo ?? (async () => profile)),
    mapProfile: vi.fn(overrides.mapProfile ?? (async () => providerUser)),
    pickAccountFields: vi.fn(overrides.pickAccountFields ?? (async () => ({ access_token: "gho_token" }))),
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
      pushAuthorizationRequest: fromPromise(({ input }) => effects.pushAuthorizationRequest(input)),
      restoreChecks: fromPromise(({ input }) => effects.restoreChecks(input)),
      validateCallback: fromPromise(({ input }) => effects.validateCallback(input)),
      exchangeCode: fromPromise(({ input }) => effects.exchangeCode(input)),
      exchangeCodeCustom: fromPromise(({ input }) => effects.exchangeCodeCustom(input)),
      checkIdToken: fromPromise(({ input }) => effects.checkIdToken(input)),
      verifyIdToken: fromPromise(({ input }) => effects.verifyIdToken(input)),
      fetchUserinfoCustom: fromPromise(({ input }) => effects.fetchUserinfoCustom(input)),
      fetchOidcUserinfo: fromPromise(({ input }) => effects.fetchOidcUserinfo(input)),
      fetchUserinfo: fromPromise(({ input }) => effects.fetchUserinfo(input)),
      mapProfile: fromPromise(({ input }) => effects.mapProfile(input)),
      pickAccountFields: fromPromise(({ input }) => effects.pickAccountFields(input)),
      completeSignIn: completion.machine,
    },
  });
  return { machine, effects, completion };
}

type Machine = ReturnType<typeof fakes>["machine"];

/** The first request: up to the redirect to the provider. */
const redirect = (machine: Machine) => runActor(machine, signIn, { until: "awaitingCallback" });
/** The second request: restored at awaitingCallback and handed the provider's answer. */
const callback = (machine: Machine, input: Partial<OAuthInput & { hasAdapter: boolean }> = {}, params: CallbackParams = answer) =>
  runActor(machine, undefined, { resume: oauthCallback({ ...signIn, request: callbackFacts, ...input }, params) });

/** The profile source effects, none of which runs when the ID token carries the profile. */
const userinfoEffects = ["fetchUserinfoCustom", "fetchOidcUserinfo", "fetchUserinfo"] as const;

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
    });
    expect(effects.restoreChecks).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a request to push goes to the provider first: the browser is sent with the request_uri URL, the check cookies kept", async () => {
    const { machine, effects } = fakes(nobodyKnown, {
      createAuthorizationRequest: async () => ({ url: authorizationUrl, cookies: flowCookies, push: true }),
    });
    const { value, context } = await redirect(machine);
    expect(value).toBe("awaitingCallback");
    expect(effects.pushAuthorizationRequest).toHaveBeenCalledWith({ providerId: "github", authorizationUrl });
    expect((context as OAuthContext).authorizationUrl).toBe(pushedUrl);
    expect((context as OAuthContext).flowCookies).toBe(flowCookies);
  });

  it("a pushed request the provider refuses ends the flow with its error, no redirect and no cookies", async () => {
    const refused = new Error("invalid_client");
    const { machine } = fakes(nobodyKnown, {
      createAuthorizationRequest: async () => ({ url: authorizationUrl, cookies: flowCookies, push: true }),
      pushAuthorizationRequest: () => Promise.reject(refused),
    });
    const { value, output, context } = await redirect(machine);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error: refused }, cookies: [] });
    expect((context as OAuthContext).authorizationUrl).toBeUndefined();
  });

  it("a request not to push is never pushed", async () => {
    const { machine, effects } = fakes();
    await redirect(machine);
    expect(effects.pushAuthorizationRequest).not.toHaveBeenCalled();
  });

  it("rests between the requests with a context that is plain data: it survives JSON unchanged", async () => {
    const { machine } = fakes();
    const { context } = await redirect(machine);
    expect(JSON.parse(JSON.stringify(context))).toEqual(context);
    expect(isPlainData(context)).toBe(true);
    expect((context as OAuthContext).request).toEqual(signInFacts);
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

  it("the callback reads the checks, validates the raw answer against them, exchanges only what validation returned, and reads the userinfo", async () => {
    const { machine, effects } = fakes();
    const { context } = await callback(machine);
    expect(effects.restoreChecks).toHaveBeenCalledWith({ providerId: "github" });
    expect(effects.validateCallback).toHaveBeenCalledWith({ providerId: "github", params: answer, checks });
    expect(effects.exchangeCode).toHaveBeenCalledWith({ providerId: "github", callbackParams: validated, checks });
    expect(effects.exchangeCodeCustom).not.toHaveBeenCalled();
    expect(effects.verifyIdToken).not.toHaveBeenCalled();
    expect(effects.fetchUserinfo).toHaveBeenCalledWith({ providerId: "github", tokens });
    expect(effects.mapProfile).toHaveBeenCalledWith({ providerId: "github", profile, tokens });
    expect(effects.pickAccountFields).toHaveBeenCalledWith({ providerId: "github", tokens });
    // What passed between the steps is in the context, as data.
    expect(context).toMatchObject({ callbackParams: validated, tokens, profile, user: providerUser, account, emailVerified: true });
    expect(isPlainData(context)).toBe(true);
  });

  it("an OpenID Connect profile is the ID token's claims, read once its signature is verified, with no userinfo request", async () => {
    const { machine, effects } = fakes(nobodyKnown, {
      exchangeCode: async () => ({ tokens: oidcTokens, idTokenClaims: claims, keysPublished: true }),
    });
    const { output } = await callback(machine, oidc);
    expect(output.outcome).toBe("signedIn");
    expect(effects.verifyIdToken).toHaveBeenCalledWith({ providerId: "acme", idToken });
    for (const effect of userinfoEffects) expect(effects[effect], effect).not.toHaveBeenCalled();
    expect(effects.mapProfile).toHaveBeenCalledWith({ providerId: "acme", profile: claims, tokens: oidcTokens });
  });

  it("offers a posted `user` (Apple's first sign-in) to profile() next to the claims, and ignores one that is not a JSON object", async () => {
    const exchangeCode = async (): Promise<ExchangedTokens> => ({ tokens: oidcTokens, idTokenClaims: claims, keysPublished: true });
    const name = { name: { firstName: "Ada", lastName: "Lovelace" } };
    for (const [posted, offered] of [
      [JSON.stringify(name), { user: name }],
      ["not json", {}],
      ["[1, 2]", {}],
    ] as const) {
      const { machine, effects } = fakes(nobodyKnown, { exchangeCode, validateCallback: async () => ({ ...validated, user: [posted] }) });
      await callback(machine, oidc);
      expect(effects.mapProfile.mock.calls[0]![0].profile, posted).toEqual({ ...claims, ...offered });
    }
  });

  it("asks OIDC userinfo instead when the provider says idToken: false, holding its answer to the ID token's subject", async () => {
    const { machine, effects } = fakes(nobodyKnown, {
      exchangeCode: async () => ({ tokens: oidcTokens, idTokenClaims: claims, keysPublished: true }),
    });
    await callback(machine, { ...oidc, idTokenProfile: false });
    expect(effects.verifyIdToken).toHaveBeenCalled();
    expect(effects.fetchOidcUserinfo).toHaveBeenCalledWith({ providerId: "acme", tokens: oidcTokens, subject: "ada" });
    expect(effects.mapProfile).toHaveBeenCalledWith({ providerId: "acme", profile, tokens: oidcTokens });
  });

  it("verifies a plain OAuth 2 provider's ID token only when the provider publishes its keys, and never reads the profile from it", async () => {
    for (const keysPublished of [true, false]) {
      const { machine, effects } = fakes(nobodyKnown, {
        exchangeCode: async () => ({ tokens: oidcTokens, idTokenClaims: claims, keysPublished }),
      });
      await callback(machine);
      expect(effects.verifyIdToken.mock.calls.length, `keysPublished=${keysPublished}`).toBe(keysPublished ? 1 : 0);
      expect(effects.fetchUserinfo).toHaveBeenCalledWith({ providerId: "github", tokens: oidcTokens });
    }
  });

  it("a provider's own token request replaces the grant; an OIDC ID token it returns is checked (with the nonce) and verified all the same", async () => {
    const withNonce = { ...checks, nonce: "nonce-1" };
    const { machine, effects } = fakes(nobodyKnown, {
      restoreChecks: async () => ({ checks: withNonce, clearCookies }),
      exchangeCodeCustom: async () => oidcTokens,
    });
    const { output } = await callback(machine, { ...oidc, customTokenRequest: true });
    expect(output.outcome).toBe("signedIn");
    expect(effects.exchangeCode).not.toHaveBeenCalled();
    expect(effects.exchangeCodeCustom).toHaveBeenCalledWith({ providerId: "acme", callbackParams: validated, checks: withNonce });
    expect(effects.checkIdToken).toHaveBeenCalledWith({ providerId: "acme", tokens: oidcTokens, nonce: "nonce-1" });
    expect(effects.verifyIdToken).toHaveBeenCalledWith({ providerId: "acme", idToken });
    expect(effects.mapProfile).toHaveBeenCalledWith({ providerId: "acme", profile: claims, tokens: oidcTokens });
  });

  it("a provider's own token request for plain OAuth 2 checks no ID token, and its own userinfo request reads the profile", async () => {
    const { machine, effects } = fakes(nobodyKnown, { exchangeCodeCustom: async () => oidcTokens });
    await callback(machine, { customTokenRequest: true, customUserinfoRequest: true });
    expect(effects.checkIdToken).not.toHaveBeenCalled();
    expect(effects.verifyIdToken).not.toHaveBeenCalled();
    expect(effects.fetchUserinfoCustom).toHaveBeenCalledWith({ providerId: "github", tokens: oidcTokens });
    expect(effects.fetchUserinfo).not.toHaveBeenCalled();
  });

  it("an answer that does not hold up is an OAuthCallbackError that keeps the cause, and still clears the check cookies", async () => {
    const oidcExchange = async (): Promise<ExchangedTokens> => ({ tokens: oidcTokens, idTokenClaims: claims, keysPublished: true });
    const setups: Array<[keyof Effects, Partial<OAuthInput>, Partial<Effects>]> = [
      ["validateCallback", {}, {}],
      ["exchangeCode", {}, {}],
      ["exchangeCodeCustom", { customTokenRequest: true }, {}],
      ["checkIdToken", { ...oidc, customTokenRequest: true }, { exchangeCodeCustom: async () => oidcTokens }],
      ["verifyIdToken", oidc, { exchangeCode: oidcExchange }],
      ["fetchUserinfoCustom", { customUserinfoRequest: true }, {}],
      ["fetchOidcUserinfo", { ...oidc, idTokenProfile: false }, { exchangeCode: oidcExchange }],
      ["fetchUserinfo", {}, {}],
    ];
    for (const [effect, input, others] of setups) {
      const cause = new Error(`${effect} refused the answer`);
      const { machine, effects } = fakes(nobodyKnown, { ...others, [effect]: () => Promise.reject(cause) });
      const { value, output, emitted } = await callback(machine, input);
      expect(value, effect).toBe("failed");
      expect(effects[effect], effect).toHaveBeenCalled();
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

  it("a profile that cannot be mapped, or an account() that throws, keeps its own error, and clears the check cookies", async () => {
    for (const effect of ["mapProfile", "pickAccountFields"] as const) {
      const broken = effect === "mapProfile" ? new OAuthProfileParseError("The profile of github has no id.") : new Error("account() threw");
      const { machine, completion } = fakes(nobodyKnown, { [effect]: () => Promise.reject(broken) });
      const { value, output } = await callback(machine);
      expect(value, effect).toBe("failed");
      expect(output, effect).toEqual({ outcome: "refused", failure: { error: broken }, cookies: clearCookies });
      expect(completion.ran(), effect).toEqual([]);
    }
  });

  it("shapes the account from the picked fields (token_type lowercased) for the provider and the mapped user's id", async () => {
    const { machine, completion } = fakes(nobodyKnown, {
      mapProfile: async () => ({ ...providerUser, id: "ada-4711" }),
      pickAccountFields: async () => ({ access_token: "gho_token", token_type: "Bearer", scope: "read:user" }),
    });
    await callback(machine);
    expect(completion.inputOf("findUserByAccount")).toEqual({
      account: { access_token: "gho_token", token_type: "bearer", scope: "read:user", provider: "github", type: "oauth", providerAccountId: "ada-4711" },
    });
  });

  it("takes the email as verified only when the profile says so, as a boolean or the string \"true\" (Apple)", async () => {
    for (const [flag, verified] of [[true, true], ["true", true], [false, false], ["false", false], [undefined, false]] as const) {
      const { machine } = fakes(nobodyKnown, { fetchUserinfo: async () => ({ ...profile, email_verified: flag }) as Profile });
      const { context } = await callback(machine);
      expect((context as OAuthContext).emailVerified, String(flag)).toBe(verified);
    }
  });

  it("a first sign-in creates the user, welcomes them, clears the check cookies, sets the session and announces createUser, linkAccount, signIn", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await callback(machine);
    const created = newUserFrom(providerUser, true);
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: "https://app.example/welcome", cookies: [...clearCookies, ...sessionCookies] });
    // Where to go afterwards comes from the restored checks, not from the callback's own request.
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: checks.callbackUrl, isNewUser: true, request: callbackFacts });
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
    const oidcAccount: Account = { ...account, type: "oidc" };
    const { machine, completion } = fakes(nobodyKnown, {
      restoreChecks: async () => ({ checks, clearCookies, currentUserId: ada.id }),
      fetchOidcUserinfo: async () => ({ ...profile, email_verified: false }),
    });
    const { output, emitted } = await callback(machine, { providerType: "oidc" });
    expect(output.outcome).toBe("signedIn");
    expect(completion.ran()).toEqual(["findUserByAccount", "signInCallback", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(completion.inputOf("linkAccount")).toEqual({ userId: ada.id, account: oidcAccount });
    expect(completion.inputOf("signInCallback")).toEqual({
      user: providerUser,
      account: oidcAccount,
      profile: { ...profile, email_verified: false },
    });
    expect(emitted.map((event) => event.type)).toEqual(["linkAccount", "signIn"]);
  });

  it("links to the user who has the email only with the provider's opt-in and the email verified as the profile says", async () => {
    for (const allowDangerousEmailAccountLinking of [true, false]) {
      for (const emailVerified of [true, false]) {
        const { machine, completion } = fakes(
          { ...nobodyKnown, emailOwner: grace },
          { fetchUserinfo: async () => ({ ...profile, email_verified: emailVerified }) },
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
