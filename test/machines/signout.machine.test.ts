import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { signOutMachine, type EndedSession, type ProviderLogout, type SignOutInput } from "../../machines/index.js";
import type { AdapterSession, JWT } from "../../src/types.js";
import { facts } from "./fixtures.js";
import { runToEnd } from "./run-actor.js";

const ada: JWT = { sub: "user-1", name: "Ada" };
const withCookie: SignOutInput = { token: "sealed", callbackUrl: "/goodbye", request: facts() };
const endSessionAtOp: ProviderLogout = {
  url: "https://op.example/session/end?id_token_hint=eyJ.x.y&state=s1",
  cookies: [{ name: "appauth.state.logout", value: "sealed-ticket", options: { httpOnly: true, maxAge: 900 } }],
};

type PlanInput = { ended: EndedSession; callbackUrl: string | undefined };

/** Fakes that sign Ada out; each test overrides the effect it is about. */
function fakes(
  overrides: {
    readSession?: () => Promise<EndedSession>;
    endSession?: () => Promise<void>;
    resolveRedirect?: () => Promise<string>;
    planProviderLogout?: (input: PlanInput) => Promise<ProviderLogout | null>;
  } = {},
) {
  const calls: string[] = [];
  const effects = {
    readSession: vi.fn(overrides.readSession ?? (async () => ({ token: ada }))),
    endSession: vi.fn(overrides.endSession ?? (async () => {})),
    resolveRedirect: vi.fn(overrides.resolveRedirect ?? (async () => "https://app.example/goodbye")),
    planProviderLogout: vi.fn(overrides.planProviderLogout ?? (async (_: PlanInput) => null)),
  };
  const machine = signOutMachine.provide({
    actors: {
      readSession: fromPromise(() => (calls.push("readSession"), effects.readSession())),
      endSession: fromPromise(() => (calls.push("endSession"), effects.endSession())),
      resolveRedirect: fromPromise(() => (calls.push("resolveRedirect"), effects.resolveRedirect())),
      planProviderLogout: fromPromise(({ input }) => (calls.push("planProviderLogout"), effects.planProviderLogout(input))),
    },
  });
  return { effects, machine, calls };
}

describe("sign-out machine", () => {
  it("ends the session it read, says whose it was, and leaves for the resolved URL", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", cookies: [], failures: [] });
    expect(effects.endSession).toHaveBeenCalledTimes(1);
    expect(emitted).toEqual([{ type: "signOut", token: ada }]);
  });

  it("a failing endSession still reaches signedOut and reports the failure", async () => {
    const storeDown = new Error("the session store is unreachable");
    const { machine } = fakes({ endSession: () => Promise.reject(storeDown) });
    const { value, output, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(output).toEqual({
      outcome: "signedOut",
      redirectTo: "https://app.example/goodbye",
      cookies: [],
      failures: [{ error: storeDown }],
    });
    expect(emitted).toEqual([{ type: "signOut", token: ada }]);
  });

  it("with no cookie, ends nothing, asks no provider, and emits no signOut event", async () => {
    const { machine, effects } = fakes();
    for (const input of [{ callbackUrl: "/goodbye", request: withCookie.request }, { ...withCookie, token: "" }]) {
      const { value, output, emitted } = await runToEnd(machine, input);
      expect(value).toBe("signedOut");
      expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", cookies: [], failures: [] });
      expect(emitted).toEqual([]);
    }
    expect(effects.readSession).not.toHaveBeenCalled();
    expect(effects.endSession).not.toHaveBeenCalled();
    expect(effects.planProviderLogout).not.toHaveBeenCalled();
  });

  it("a session that cannot be read is still ended, the signOut event names no token, and no provider is asked", async () => {
    const { machine, effects } = fakes({ readSession: () => Promise.reject(new Error("no secret opens it")) });
    const { output, emitted } = await runToEnd(machine, withCookie);
    expect(effects.endSession).toHaveBeenCalledTimes(1);
    expect(effects.planProviderLogout).not.toHaveBeenCalled();
    expect(emitted).toEqual([{ type: "signOut", token: null }]);
    expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", cookies: [], failures: [] });
  });

  it("a redirect that cannot be resolved leaves redirectTo empty and reports the failure", async () => {
    const redirectBroke = new Error("the redirect callback threw");
    const { machine } = fakes({ resolveRedirect: () => Promise.reject(redirectBroke) });
    expect((await runToEnd(machine, withCookie)).output).toEqual({
      outcome: "signedOut",
      redirectTo: "",
      cookies: [],
      failures: [{ error: redirectBroke }],
    });
  });

  it("when endSession and resolveRedirect both fail, both failures are reported, the end of session first", async () => {
    const storeDown = new Error("the session store is unreachable");
    const { machine } = fakes({
      endSession: () => Promise.reject(storeDown),
      resolveRedirect: () => Promise.reject(new Error("the redirect callback threw")),
    });
    const { output } = await runToEnd(machine, withCookie);
    expect(output.failures.map((f) => f.error)).toEqual([storeDown, expect.any(Error)]);
  });
});

describe("sign-out machine with RP-initiated logout", () => {
  it("leaves for the provider's end-session URL with the return ticket's cookie, after the session has ended", async () => {
    const { machine, effects, calls } = fakes({ planProviderLogout: async () => endSessionAtOp });
    const { value, output, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(output).toEqual({
      outcome: "signedOut",
      redirectTo: endSessionAtOp.url,
      cookies: endSessionAtOp.cookies,
      failures: [],
    });
    expect(calls).toEqual(["readSession", "endSession", "resolveRedirect", "planProviderLogout"]);
    expect(effects.planProviderLogout).toHaveBeenCalledWith({
      ended: { token: ada },
      callbackUrl: "https://app.example/goodbye",
      request: withCookie.request,
    });
    expect(emitted).toEqual([{ type: "signOut", token: ada }]);
  });

  it("a provider step that fails is reported and the person still lands on the callback URL, signed out", async () => {
    const discoveryDown = new Error("the provider's discovery document could not be read");
    const { machine, effects } = fakes({ planProviderLogout: () => Promise.reject(discoveryDown) });
    const { value, output } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(effects.endSession).toHaveBeenCalledOnce();
    expect(output).toEqual({
      outcome: "signedOut",
      redirectTo: "https://app.example/goodbye",
      cookies: [],
      failures: [{ error: discoveryDown }],
    });
  });

  it("a provider that does not end sessions (null) leaves the way out at the callback URL", async () => {
    const { machine, effects } = fakes({ planProviderLogout: async () => null });
    const { output } = await runToEnd(machine, withCookie);
    expect(effects.planProviderLogout).toHaveBeenCalledOnce();
    expect(output.redirectTo).toBe("https://app.example/goodbye");
    expect(output.cookies).toEqual([]);
  });

  it("still plans the provider's logout when the callback URL could not be resolved, telling it so", async () => {
    const redirectBroke = new Error("the redirect callback threw");
    const { machine, effects } = fakes({
      resolveRedirect: () => Promise.reject(redirectBroke),
      planProviderLogout: async () => endSessionAtOp,
    });
    const { output } = await runToEnd(machine, withCookie);
    expect(effects.planProviderLogout.mock.calls[0]![0]).toMatchObject({ callbackUrl: undefined });
    expect(output).toMatchObject({ redirectTo: endSessionAtOp.url, failures: [{ error: redirectBroke }] });
  });

  it("asks no provider about a JWT that decoded to nothing", async () => {
    const { machine, effects } = fakes({ readSession: async () => ({ token: null }) });
    const { output, emitted } = await runToEnd(machine, withCookie);
    expect(effects.planProviderLogout).not.toHaveBeenCalled();
    expect(emitted).toEqual([{ type: "signOut", token: null }]);
    expect(output.redirectTo).toBe("https://app.example/goodbye");
  });
});

describe("sign-out machine under the database strategy", () => {
  const record: AdapterSession = {
    sessionToken: "token-1",
    userId: "user-1",
    expires: new Date(Date.UTC(2030, 0, 1)),
    provider: "oidc",
    providerAccountId: "ada",
  };

  it("reports the session record it ended in the signOut event", async () => {
    const { machine, effects } = fakes({ readSession: async () => ({ session: record }) });
    const { value, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(effects.endSession).toHaveBeenCalledOnce();
    expect(emitted).toEqual([{ type: "signOut", session: record }]);
  });

  it("hands the ended record to the provider's logout, and asks nothing when there was no record", async () => {
    const { machine, effects } = fakes({ readSession: async () => ({ session: record }), planProviderLogout: async () => endSessionAtOp });
    expect((await runToEnd(machine, withCookie)).output.redirectTo).toBe(endSessionAtOp.url);
    expect(effects.planProviderLogout.mock.calls[0]![0]).toMatchObject({ ended: { session: record } });

    const none = fakes({ readSession: async () => ({ session: null }), planProviderLogout: async () => endSessionAtOp });
    expect((await runToEnd(none.machine, withCookie)).output.redirectTo).toBe("https://app.example/goodbye");
    expect(none.effects.planProviderLogout).not.toHaveBeenCalled();
  });
});
