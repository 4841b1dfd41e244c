import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import {
  credentialsSignInMachine,
  signInCompletionMachine,
  type CredentialsSignInInput,
  type LimitVerdict,
} from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import { AccessDenied, CredentialsSignin } from "../../src/errors.js";
import type { AdapterUser, User } from "../../src/types.js";
import { facts } from "./fixtures.js";
import { runToEnd } from "./run-actor.js";

const ada: User = { id: "user-1", name: "Ada", email: "ada@example.com" };
const adaAccount = { provider: "password", providerAccountId: "user-1", type: "credentials" };
const cookies: SetCookie[] = [{ name: "appauth.session-token", value: "sealed", options: { httpOnly: true, path: "/" } }];
const input: CredentialsSignInInput = {
  providerId: "password",
  credentials: { username: "ada", password: "correct horse" },
  callbackUrl: "https://evil.example/phish",
  hasAdapter: false,
  request: facts(),
};

/**
 * Fakes that sign Ada in through the real sign-in completion; each test overrides the effect it is
 * about. The completion's account effects must never run for credentials: their fakes say so.
 */
function fakes(overrides: {
  checkAttempt?: (input: unknown) => Promise<LimitVerdict>;
  authorize?: () => Promise<User | null>;
  signInCallback?: (input: unknown) => Promise<boolean | string>;
  issueSession?: (input: unknown) => Promise<SetCookie[]>;
  resolveRedirect?: (input: unknown) => Promise<string>;
} = {}) {
  const effects = {
    checkAttempt: vi.fn(overrides.checkAttempt ?? (async (_: unknown): Promise<LimitVerdict> => ({ allowed: true, retryAfter: 0, counts: {} }))),
    clearFailures: vi.fn(async (_: unknown) => undefined),
    authorize: vi.fn(overrides.authorize ?? (async () => ada)),
    signInCallback: vi.fn(overrides.signInCallback ?? (async (_: unknown) => true)),
    issueSession: vi.fn(overrides.issueSession ?? (async (_: unknown) => cookies)),
    resolveRedirect: vi.fn(overrides.resolveRedirect ?? (async (_: unknown) => "https://app.example/")),
    accountEffect: vi.fn(async (): Promise<never> => {
      throw new Error("A credentials sign-in looked up, linked or created an account.");
    }),
  };
  const completeSignIn = signInCompletionMachine.provide({
    actors: {
      signInCallback: fromPromise(({ input: given }) => effects.signInCallback(given)),
      issueSession: fromPromise(({ input: given }) => effects.issueSession(given)),
      findUserByAccount: fromPromise(async (): Promise<AdapterUser | null> => effects.accountEffect()),
      findUserByEmail: fromPromise(async (): Promise<AdapterUser | null> => effects.accountEffect()),
      linkAccount: fromPromise(async (): Promise<AdapterUser> => effects.accountEffect()),
      createUserWithAccount: fromPromise(async (): Promise<AdapterUser> => effects.accountEffect()),
      resolveRedirect: fromPromise(({ input: given }) => effects.resolveRedirect(given)),
    },
  });
  const machine = credentialsSignInMachine.provide({
    actors: {
      checkAttempt: fromPromise(({ input: given }) => effects.checkAttempt(given)),
      authorize: fromPromise(() => effects.authorize()),
      completeSignIn,
    },
    actions: {
      clearFailures: ({ context }) => void effects.clearFailures({ providerId: context.providerId, credentials: context.credentials, request: context.request }),
    },
  });
  return { effects, machine };
}

describe("credentials sign-in machine", () => {
  it("a CredentialsSignin thrown by authorize is reported as the refusal's error", async () => {
    const thrown = new CredentialsSignin();
    thrown.code = "account_locked";
    const { machine, effects } = fakes({ authorize: () => Promise.reject(thrown) });
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: thrown } });
    if (output.outcome === "refused") expect(output.failure.error).toBe(thrown);
    expect(effects.signInCallback).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("an authorize that returns null is refused as CredentialsSignin", async () => {
    const { machine } = fakes({ authorize: async () => null });
    expect((await runToEnd(machine, input)).output).toEqual({
      outcome: "refused",
      failure: { error: undefined, as: "CredentialsSignin" },
    });
  });

  it("hands authorize the provider id, the submitted fields and the request", async () => {
    const seen: unknown[] = [];
    const machine = fakes().machine.provide({
      actors: {
        authorize: fromPromise(async ({ input: given }) => {
          seen.push(given);
          return ada;
        }),
      },
    });
    await runToEnd(machine, input);
    expect(seen).toEqual([{ providerId: "password", credentials: input.credentials, request: input.request }]);
  });

  it("the signIn callback judges the user authorize returned, with an account whose id is the user's id, and the fields", async () => {
    const { machine, effects } = fakes();
    await runToEnd(machine, input);
    expect(effects.signInCallback).toHaveBeenCalledWith({ user: ada, account: adaAccount, credentials: input.credentials });
  });

  it("with an adapter, a credentials sign-in still looks up, links and creates no account", async () => {
    const { machine, effects } = fakes();
    const { value } = await runToEnd(machine, { ...input, hasAdapter: true });
    expect(value).toBe("signedIn");
    expect(effects.accountEffect).not.toHaveBeenCalled();
  });

  it("a signIn callback that returns false is refused as AccessDenied and issues no session", async () => {
    const { machine, effects } = fakes({ signInCallback: async () => false });
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "AccessDenied" } });
    expect(effects.issueSession).not.toHaveBeenCalled();
    expect(effects.resolveRedirect).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a signIn callback that returns an empty string refuses like false, not a redirect to nowhere", async () => {
    const { machine, effects } = fakes({ signInCallback: async () => "" });
    const { value, output } = await runToEnd(machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "AccessDenied" } });
    expect(effects.issueSession).not.toHaveBeenCalled();
  });

  it("an error thrown by the signIn callback is kept and reported as AccessDenied", async () => {
    const veto = new AccessDenied("Accounts under review cannot sign in.");
    const { machine } = fakes({ signInCallback: () => Promise.reject(veto) });
    expect((await runToEnd(machine, input)).output).toEqual({ outcome: "refused", failure: { error: veto, as: "AccessDenied" } });
  });

  it("a signIn callback that returns a URL diverts there and creates no session", async () => {
    const { machine, effects } = fakes({ signInCallback: async () => "/onboarding" });
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("diverted");
    expect(output).toEqual({ outcome: "diverted", redirectTo: "/onboarding" });
    expect(effects.issueSession).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("signs in with the cookies issueSession made, to the URL resolveRedirect chose, and says so once", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("signedIn");
    expect(output).toEqual({ outcome: "signedIn", redirectTo: "https://app.example/", cookies });
    expect(effects.issueSession).toHaveBeenCalledWith({ user: ada, account: adaAccount, isNewUser: false, request: input.request });
    // The requested callback URL is judged by resolveRedirect, never used as is.
    expect(effects.resolveRedirect).toHaveBeenCalledWith({ url: "https://evil.example/phish", isNewUser: false, request: input.request });
    expect(emitted).toEqual([{ type: "signIn", user: ada, account: adaAccount, isNewUser: false }]);
  });

  it("a session that cannot be issued refuses the sign-in, with no cookies and no signIn event", async () => {
    const broken = new Error("no secret");
    const { machine, effects } = fakes({ issueSession: () => Promise.reject(broken) });
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken } });
    expect(effects.resolveRedirect).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("a redirect that cannot be resolved refuses the sign-in with its error, and sets no cookies", async () => {
    const broken = new Error("the redirect callback threw");
    const { machine } = fakes({ resolveRedirect: () => Promise.reject(broken) });
    const { value, output } = await runToEnd(machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: broken } });
  });

  // Events go out only on entry to signedIn: a redirect that fails inside the completion announces nothing.
  it("a redirect that cannot be resolved announces no signIn", async () => {
    const { machine } = fakes({ resolveRedirect: () => Promise.reject(new Error("the redirect callback threw")) });
    expect((await runToEnd(machine, input)).emitted).toEqual([]);
  });

  it("an effect left unprovided refuses the sign-in, naming the effect", async () => {
    const { output } = await runToEnd(credentialsSignInMachine, input);
    expect(output.outcome).toBe("refused");
    if (output.outcome === "refused") expect(String(output.failure.error)).toMatch(/"checkAttempt" was not provided/);
  });

  it("an attempt past a limit is refused as RateLimited before authorize runs, announced once", async () => {
    const verdict: LimitVerdict = { allowed: false, retryAfter: 600, counts: { perClient: 6 }, scope: "credentials", limit: "perClient" };
    const { machine, effects } = fakes({ checkAttempt: async () => verdict });
    const { value, output, emitted } = await runToEnd(machine, input);
    expect(value).toBe("limited");
    expect(output).toEqual({ outcome: "refused", failure: { error: verdict, as: "RateLimited" } });
    expect(effects.authorize).not.toHaveBeenCalled();
    expect(effects.clearFailures).not.toHaveBeenCalled();
    expect(emitted).toEqual([{ type: "rateLimited", providerId: "password", scope: "credentials", limit: "perClient", retryAfter: 600 }]);
  });

  it("the limiter is asked with the attempt's fields and request, and a success clears the failures", async () => {
    const { machine, effects } = fakes();
    expect((await runToEnd(machine, input)).value).toBe("signedIn");
    const asked = { providerId: "password", credentials: input.credentials, request: input.request };
    expect(effects.checkAttempt).toHaveBeenCalledWith(asked);
    expect(effects.clearFailures).toHaveBeenCalledWith(asked);
  });

  it("a success clears the failures on its way to the completion, before the signIn callback runs", async () => {
    const { machine, effects } = fakes();
    await runToEnd(machine, input);
    expect(effects.clearFailures.mock.invocationCallOrder[0]).toBeGreaterThan(effects.authorize.mock.invocationCallOrder[0]!);
    expect(effects.clearFailures.mock.invocationCallOrder[0]).toBeLessThan(effects.signInCallback.mock.invocationCallOrder[0]!);
  });

  it("a clearFailures action left unprovided fails loudly once a password is right", async () => {
    const { machine } = fakes();
    const bare = credentialsSignInMachine.provide({ actors: machine.implementations.actors });
    await expect(runToEnd(bare, input)).rejects.toThrow(/"clearFailures" was not provided/);
  });

  it("a wrong password clears nothing, and a limiter that cannot be reached refuses without authorize (fails closed)", async () => {
    const wrong = fakes({ authorize: async () => null });
    await runToEnd(wrong.machine, input);
    expect(wrong.effects.clearFailures).not.toHaveBeenCalled();
    const down = new Error("store down");
    const closed = fakes({ checkAttempt: () => Promise.reject(down) });
    const { value, output } = await runToEnd(closed.machine, input);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: down } });
    expect(closed.effects.authorize).not.toHaveBeenCalled();
  });
});
