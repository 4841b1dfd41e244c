import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import {
  backchannelLogoutMachine,
  type BackchannelLogoutInput,
  type EndedSessions,
  type LogoutTokenClaim,
  type LogoutTokenClaims,
  type LogoutTokenVerdict,
} from "../../machines/index.js";
import { runToEnd } from "./run-actor.js";

const NOW = 1_900_000_000;
const claims: LogoutTokenClaims = { iss: "https://op.example", jti: "jti-1", iat: NOW - 10, sub: "op-user-1", sid: "op-session-1" };
const request: BackchannelLogoutInput = {
  providerId: "oidc",
  maxAge: 120,
  form: true,
  logoutTokens: ["eyJhbGciOiJSUzI1NiJ9.e30.sig"],
  now: NOW,
  holder: "request-1",
};

interface Overrides {
  verifyLogoutToken?: () => Promise<LogoutTokenVerdict>;
  rememberLogoutToken?: () => Promise<boolean>;
  endSessions?: () => Promise<number>;
  forgetLogoutToken?: () => Promise<void>;
}

/** Fakes under which a logout token of Ada's OP session ends her two sessions; each test overrides what it is about. */
function fakes(overrides: Overrides = {}) {
  const effects = {
    verifyLogoutToken: vi.fn((_: unknown) => (overrides.verifyLogoutToken ?? (async () => ({ claims })))()),
    rememberLogoutToken: vi.fn((_: LogoutTokenClaim & { expires: Date }) => (overrides.rememberLogoutToken ?? (async () => true))()),
    endSessions: vi.fn((_: EndedSessions) => (overrides.endSessions ?? (async () => 2))()),
    forgetLogoutToken: vi.fn((_: LogoutTokenClaim) => (overrides.forgetLogoutToken ?? (async () => {}))()),
  };
  const machine = backchannelLogoutMachine.provide({
    actors: {
      verifyLogoutToken: fromPromise(({ input }) => effects.verifyLogoutToken(input)),
      rememberLogoutToken: fromPromise(({ input }) => effects.rememberLogoutToken(input)),
      endSessions: fromPromise(({ input }) => effects.endSessions(input)),
      forgetLogoutToken: fromPromise(({ input }) => effects.forgetLogoutToken(input)),
    },
  });
  return { effects, machine };
}

describe("back-channel logout machine", () => {
  it("verifies the token, claims its jti until it could no longer be accepted, ends the sessions it names and says so", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await runToEnd(machine, request);
    expect(value).toBe("loggedOut");
    expect(output).toEqual({ outcome: "loggedOut", providerId: "oidc", sub: "op-user-1", sid: "op-session-1", count: 2 });
    expect(effects.verifyLogoutToken).toHaveBeenCalledWith({ providerId: "oidc", token: request.logoutTokens[0], now: NOW, maxAge: 120 });
    expect(effects.rememberLogoutToken).toHaveBeenCalledWith({
      key: "backchannel-logout:oidc:jti-1",
      holder: "request-1",
      expires: new Date((claims.iat + 120 + 15) * 1000),
    });
    expect(effects.endSessions).toHaveBeenCalledWith({ provider: "oidc", providerAccountId: "op-user-1", providerSessionId: "op-session-1" });
    expect(effects.forgetLogoutToken).not.toHaveBeenCalled();
    expect(emitted).toEqual([{ type: "backchannelLogout", provider: "oidc", sub: "op-user-1", sid: "op-session-1", count: 2 }]);
  });

  it("ends every session of the OP's user when the token names only sub", async () => {
    const { sid: _, ...bySub } = claims;
    const { machine, effects } = fakes({ verifyLogoutToken: async () => ({ claims: bySub }) });
    const { output, emitted } = await runToEnd(machine, request);
    expect(effects.endSessions).toHaveBeenCalledWith({ provider: "oidc", providerAccountId: "op-user-1" });
    expect(output).toEqual({ outcome: "loggedOut", providerId: "oidc", sub: "op-user-1", count: 2 });
    expect(emitted).toEqual([{ type: "backchannelLogout", provider: "oidc", sub: "op-user-1", count: 2 }]);
  });

  it("ends only the OP session's sessions when the token names only sid", async () => {
    const { sub: _, ...bySid } = claims;
    const { machine, effects } = fakes({ verifyLogoutToken: async () => ({ claims: bySid }), endSessions: async () => 0 });
    const { output, emitted } = await runToEnd(machine, request);
    expect(effects.endSessions).toHaveBeenCalledWith({ provider: "oidc", providerSessionId: "op-session-1" });
    expect(output).toEqual({ outcome: "loggedOut", providerId: "oidc", sid: "op-session-1", count: 0 });
    expect(emitted).toEqual([{ type: "backchannelLogout", provider: "oidc", sid: "op-session-1", count: 0 }]);
  });

  const badRequests: Array<[string, Partial<BackchannelLogoutInput>, RegExp]> = [
    ["from a provider that does not accept back-channel logout", { maxAge: undefined }, /does not accept back-channel logout/],
    ["that is not a form post", { form: false }, /application\/x-www-form-urlencoded/],
    ["without a logout_token", { logoutTokens: [] }, /exactly one logout_token/],
    ["with two logout_tokens", { logoutTokens: ["a.b.c", "a.b.c"] }, /exactly one logout_token/],
    ["with an empty logout_token", { logoutTokens: [""] }, /exactly one logout_token/],
    ["whose logout_token is not a string (a JSON body)", { logoutTokens: [{ alg: "none" }] }, /exactly one logout_token/],
  ];
  for (const [what, change, reason] of badRequests) {
    it(`refuses a request ${what} without running any effect`, async () => {
      const { machine, effects } = fakes();
      const input = { ...request, ...change };
      if ("maxAge" in change && change.maxAge === undefined) delete input.maxAge;
      const { value, output, emitted } = await runToEnd(machine, input);
      expect(value).toBe("refused");
      expect(output).toEqual({ outcome: "refused", description: expect.stringMatching(reason) });
      expect(emitted).toEqual([]);
      for (const effect of Object.values(effects)) expect(effect).not.toHaveBeenCalled();
    });
  }

  it("refuses a token verification refuses, with its reason, and claims nothing", async () => {
    const { machine, effects } = fakes({ verifyLogoutToken: async () => ({ refused: "A logout token must not contain a nonce." }) });
    const { value, output, emitted } = await runToEnd(machine, request);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", description: "A logout token must not contain a nonce." });
    expect(effects.rememberLogoutToken).not.toHaveBeenCalled();
    expect(effects.endSessions).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("refuses a replayed token (its jti already claimed) and ends no session", async () => {
    const { machine, effects } = fakes({ rememberLogoutToken: async () => false });
    const { value, output, emitted } = await runToEnd(machine, request);
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", description: "This logout token was already used." });
    expect(effects.endSessions).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("fails, claiming nothing, when the token cannot be verified for want of the provider's keys", async () => {
    const unreachable = new Error("the JWKS could not be fetched");
    const { machine, effects } = fakes({ verifyLogoutToken: () => Promise.reject(unreachable) });
    const { value, output } = await runToEnd(machine, request);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "failed", failures: [{ error: unreachable }] });
    expect(effects.rememberLogoutToken).not.toHaveBeenCalled();
  });

  it("fails, ending nothing, when the store cannot claim the token", async () => {
    const storeDown = new Error("the lease store is unreachable");
    const { machine, effects } = fakes({ rememberLogoutToken: () => Promise.reject(storeDown) });
    const { value, output, emitted } = await runToEnd(machine, request);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "failed", failures: [{ error: storeDown }] });
    expect(effects.endSessions).not.toHaveBeenCalled();
    expect(effects.forgetLogoutToken).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("gives the claim back when the sessions cannot be ended, so that the OP's redelivery is not taken for a replay", async () => {
    const storeDown = new Error("the session store is unreachable");
    const { machine, effects } = fakes({ endSessions: () => Promise.reject(storeDown) });
    const { value, output, emitted } = await runToEnd(machine, request);
    expect(value).toBe("failed");
    expect(effects.forgetLogoutToken).toHaveBeenCalledWith({ key: "backchannel-logout:oidc:jti-1", holder: "request-1" });
    expect(output).toEqual({ outcome: "failed", failures: [{ error: storeDown }] });
    expect(emitted).toEqual([]);
  });

  it("reports both failures when the claim cannot be given back either", async () => {
    const storeDown = new Error("the session store is unreachable");
    const stillDown = new Error("the lease store is unreachable");
    const { machine } = fakes({ endSessions: () => Promise.reject(storeDown), forgetLogoutToken: () => Promise.reject(stillDown) });
    const { value, output } = await runToEnd(machine, request);
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "failed", failures: [{ error: storeDown }, { error: stillDown }] });
  });
});
