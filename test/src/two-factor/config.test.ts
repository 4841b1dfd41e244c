import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { MissingAdapter, MissingAdapterMethods } from "../../../src/errors.js";
import type { AuthConfig } from "../../../src/types.js";
import { passwordProvider, SECRET } from "../../helpers/config.js";

const base = { providers: [passwordProvider()], secret: SECRET, trustHost: true, session: { strategy: "jwt" as const } };

function refusal(config: AuthConfig): Error {
  try {
    getRuntime(config, {});
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the configuration to be refused");
}

describe("configuring second factors", () => {
  it("starts with an adapter that keeps second factors", () => {
    expect(() => getRuntime({ ...base, adapter: MemoryAdapter(), twoFactor: { issuer: "Acme", recoveryCodes: 8, endOtherSessions: false, passkeyCountsAsBoth: false } }, {})).not.toThrow();
  });

  it("refuses at start-up an adapter without the two-factor methods, naming each", () => {
    const { createTwoFactor: _c, useTotpStep: _u, ...partial } = MemoryAdapter();
    const error = refusal({ ...base, adapter: partial, twoFactor: {} });
    expect(error).toBeInstanceOf(MissingAdapterMethods);
    expect(error.message).toContain("createTwoFactor");
    expect(error.message).toContain("useTotpStep");
    expect(error.message).not.toContain("getTwoFactors");
  });

  it("accepts required as true, false or a function of the user", () => {
    for (const required of [true, false, () => true]) {
      expect(() => getRuntime({ ...base, adapter: MemoryAdapter(), twoFactor: { required } } as AuthConfig, {})).not.toThrow();
    }
  });

  it("refuses two-factor without an adapter", () => {
    expect(refusal({ ...base, twoFactor: {} })).toBeInstanceOf(MissingAdapter);
  });

  it.each([
    [{ issuer: "a:b" }, "twoFactor.issuer"],
    [{ recoveryCodes: 0 }, "twoFactor.recoveryCodes"],
    [{ recoveryCodes: 2.5 }, "twoFactor.recoveryCodes"],
    [{ required: "yes" }, "twoFactor.required"],
    [{ rememberBrowser: { maxAge: -1 } }, "twoFactor.rememberBrowser"],
    [{ endOtherSessions: "no" }, "twoFactor.endOtherSessions"],
    [{ passkeyCountsAsBoth: 1 }, "twoFactor.passkeyCountsAsBoth"],
  ])("refuses twoFactor %j, naming %s", (twoFactor, option) => {
    expect(refusal({ ...base, adapter: MemoryAdapter(), twoFactor } as unknown as AuthConfig).message).toContain(`${option}:`);
  });
});
