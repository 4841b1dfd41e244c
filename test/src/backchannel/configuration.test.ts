/**
 * Back-channel logout is checked when the configuration is resolved: it ends database sessions, so
 * it needs the database strategy and an adapter that can claim a token's jti and delete sessions by
 * account. A configuration that lacks either answers every request 500 `Configuration` and logs why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { AuthError } from "../../../src/errors.js";
import type { Adapter } from "../../../src/types.js";
import { BACKCHANNEL_CLIENT, backchannelSetup, logoutToken, postLogoutToken } from "./fixtures.js";
import { oauthConfig, oidcProvider } from "../oauth/fixtures.js";

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT] });
});
afterAll(() => op.close());

/** The memory adapter without `method`. */
function without(method: "deleteSessionsByAccount" | "acquireLease"): Adapter {
  const adapter: Record<string, unknown> = { ...MemoryAdapter() };
  delete adapter[method];
  return adapter as Adapter;
}

/** The errors logged when the configuration was resolved: their types and messages. */
function configurationErrors(logged: { code: string; message: unknown[] }[]): Array<{ type: string; message: string }> {
  return logged
    .map((entry) => entry.message[0])
    .filter((error): error is AuthError => error instanceof AuthError)
    .map((error) => ({ type: error.type, message: error.message }));
}

describe("configuring back-channel logout", () => {
  for (const method of ["deleteSessionsByAccount", "acquireLease"] as const) {
    it(`refuses an adapter without ${method}: MissingAdapterMethods, naming it`, async () => {
      const { config } = backchannelSetup(op, { config: { adapter: without(method) } });
      const response = await postLogoutToken(config, await logoutToken(op, { sub: "ada" }));
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: "Configuration" });
      expect(configurationErrors(config.logger.entries)).toEqual([
        { type: "MissingAdapterMethods", message: expect.stringContaining(method) },
      ]);
    });
  }

  it("refuses it with JWT sessions: InvalidConfiguration naming backchannelLogout and the strategy", async () => {
    const { config } = backchannelSetup(op, { config: { session: { strategy: "jwt" } } });
    const response = await postLogoutToken(config, await logoutToken(op, { sub: "ada" }));
    expect(response.status).toBe(500);
    const errors = configurationErrors(config.logger.entries);
    expect(errors).toEqual([{ type: "Configuration", message: expect.stringMatching(/backchannelLogout.*database/) }]);
    expect(config.logger.entries[0]!.message[0]).toBeInstanceOf(Error);
    expect((config.logger.entries[0]!.message[0] as Error).constructor.name).toBe("InvalidConfiguration");
  });

  it("accepts the memory adapter with database sessions, and a provider without the option beside one with it", async () => {
    const config = oauthConfig([oidcProvider(op, { backchannelLogout: { maxAge: 60 } }), oidcProvider(op, { id: "oidc-b" })], {
      adapter: MemoryAdapter(),
      session: { strategy: "database" },
    });
    expect((await postLogoutToken(config, await logoutToken(op, { sub: "ada" }))).status).toBe(200);
    expect((await postLogoutToken(config, await logoutToken(op, { sub: "ada" }), "oidc-b")).status).toBe(400);
    expect(config.logger.codes("error")).toEqual([]);
  });
});
