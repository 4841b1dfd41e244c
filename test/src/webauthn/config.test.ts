/** Passkeys are experimental: off unless asked for, and a warning when they are on. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { ExperimentalFeatureNotEnabled, MissingAdapter, MissingAdapterMethods } from "../../../src/errors.js";
import { Passkey, WebAuthn } from "../../../src/providers/webauthn.js";
import type { AuthConfig } from "../../../src/types.js";
import { SECRET, recordingLogger } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [Passkey()], logger: recordingLogger(), ...overrides };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the experimental WebAuthn switch", () => {
  it.each([
    ["Passkey()", Passkey()],
    ["WebAuthn()", WebAuthn()],
  ])("refuses %s without experimental.enableWebAuthn, naming the provider and the option", (_, provider) => {
    const attempt = () => getRuntime(config({ providers: [provider] }), {});
    expect(attempt).toThrow(ExperimentalFeatureNotEnabled);
    expect(attempt).toThrow(/providers\[0\] \((passkey|webauthn)\).*experimental\.enableWebAuthn/);
  });

  it("also refuses it with enableWebAuthn: false, and a bare factory", () => {
    expect(() => getRuntime(config({ experimental: { enableWebAuthn: false } }), {})).toThrow(ExperimentalFeatureNotEnabled);
    expect(() => getRuntime(config({ providers: [Passkey as unknown as AuthConfig["providers"][number]] }), {})).toThrow(
      ExperimentalFeatureNotEnabled,
    );
  });

  it("answers every request of such a configuration with a Configuration fault, logging ExperimentalFeatureNotEnabled", async () => {
    const logger = recordingLogger();
    const response = await new TestClient(config({ logger })).get("/webauthn-options/passkey");
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: string }).error).toBe("Configuration");
    expect(logger.codes("error")).toEqual(["ExperimentalFeatureNotEnabled"]);
  });

  it("warns once that the feature is experimental when it is enabled, through the configured logger", () => {
    const logger = recordingLogger();
    getRuntime(config({ logger, experimental: { enableWebAuthn: true } }), {});
    expect(logger.codes("warn")).toEqual(["ExperimentalFeature"]);
    expect(String(logger.entries[0]?.message[0])).toMatch(/enableWebAuthn.*may change/);
  });

  it("prints the warning on the console when no logger is configured", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { logger: _none, ...rest } = config({ experimental: { enableWebAuthn: true } });
    getRuntime(rest as AuthConfig, {});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/\[appauth\]\[warn\].* ExperimentalFeature$/);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/enableWebAuthn.*may change/);
  });

  it("needs an adapter, and one with the authenticator and verification-token methods", () => {
    const on = { experimental: { enableWebAuthn: true } };
    const { adapter: _none, ...withoutAdapter } = config(on);
    expect(() => getRuntime(withoutAdapter as AuthConfig, {})).toThrow(MissingAdapter);
    const { createAuthenticator: _c, useVerificationToken: _u, ...partial } = MemoryAdapter();
    expect(() => getRuntime(config({ ...on, adapter: partial }), {})).toThrow(MissingAdapterMethods);
    expect(() => getRuntime(config({ ...on, adapter: partial }), {})).toThrow(/createAuthenticator.*useVerificationToken|useVerificationToken.*createAuthenticator/);
  });
});
