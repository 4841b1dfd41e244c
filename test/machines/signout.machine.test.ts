import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { signOutMachine, type SignOutInput } from "../../machines/index.js";
import type { AdapterSession, JWT } from "../../src/types.js";
import { requestContext } from "./fixtures.js";
import { runToEnd } from "./run-actor.js";

const ada: JWT = { sub: "user-1", name: "Ada" };
const withCookie: SignOutInput = { token: "sealed", callbackUrl: "/goodbye", req: requestContext("signout") };

/** Fakes that sign Ada out; each test overrides the effect it is about. */
function fakes(overrides: { readSession?: () => Promise<{ token: JWT | null } | { session: AdapterSession | null }>; endSession?: () => Promise<void>; resolveRedirect?: () => Promise<string> } = {}) {
  const effects = {
    readSession: vi.fn(overrides.readSession ?? (async () => ({ token: ada }))),
    endSession: vi.fn(overrides.endSession ?? (async () => {})),
    resolveRedirect: vi.fn(overrides.resolveRedirect ?? (async () => "https://app.example/goodbye")),
  };
  const machine = signOutMachine.provide({
    actors: {
      readSession: fromPromise(() => effects.readSession()),
      endSession: fromPromise(() => effects.endSession()),
      resolveRedirect: fromPromise(() => effects.resolveRedirect()),
    },
  });
  return { effects, machine };
}

describe("sign-out machine", () => {
  it("ends the session it read, says whose it was, and leaves for the resolved URL", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", failures: [] });
    expect(effects.endSession).toHaveBeenCalledTimes(1);
    expect(emitted).toEqual([{ type: "signOut", token: ada }]);
  });

  it("a failing endSession still reaches signedOut and reports the failure", async () => {
    const storeDown = new Error("the session store is unreachable");
    const { machine } = fakes({ endSession: () => Promise.reject(storeDown) });
    const { value, output, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", failures: [{ error: storeDown }] });
    expect(emitted).toEqual([{ type: "signOut", token: ada }]);
  });

  it("with no cookie, ends nothing and emits no signOut event", async () => {
    const { machine, effects } = fakes();
    for (const input of [{ callbackUrl: "/goodbye", req: withCookie.req }, { ...withCookie, token: "" }]) {
      const { value, output, emitted } = await runToEnd(machine, input);
      expect(value).toBe("signedOut");
      expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", failures: [] });
      expect(emitted).toEqual([]);
    }
    expect(effects.readSession).not.toHaveBeenCalled();
    expect(effects.endSession).not.toHaveBeenCalled();
  });

  it("a session that cannot be read is still ended, and the signOut event names no token", async () => {
    const { machine, effects } = fakes({ readSession: () => Promise.reject(new Error("no secret opens it")) });
    const { output, emitted } = await runToEnd(machine, withCookie);
    expect(effects.endSession).toHaveBeenCalledTimes(1);
    expect(emitted).toEqual([{ type: "signOut", token: null }]);
    expect(output).toEqual({ outcome: "signedOut", redirectTo: "https://app.example/goodbye", failures: [] });
  });

  it("a redirect that cannot be resolved leaves redirectTo empty and reports the failure", async () => {
    const redirectBroke = new Error("the redirect callback threw");
    const { machine } = fakes({ resolveRedirect: () => Promise.reject(redirectBroke) });
    expect((await runToEnd(machine, withCookie)).output).toEqual({
      outcome: "signedOut",
      redirectTo: "",
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

describe("sign-out machine under the database strategy", () => {
  it("reports the session record it ended in the signOut event", async () => {
    const record: AdapterSession = { sessionToken: "token-1", userId: "user-1", expires: new Date(Date.UTC(2030, 0, 1)) };
    const { machine, effects } = fakes({ readSession: async () => ({ session: record }) });
    const { value, emitted } = await runToEnd(machine, withCookie);
    expect(value).toBe("signedOut");
    expect(effects.endSession).toHaveBeenCalledOnce();
    expect(emitted).toEqual([{ type: "signOut", session: record }]);
  });
});
