/**
 * An adapter that keeps to the Auth.js contract only (as the published @auth/* adapters do) gets
 * only the contract's fields: a database session is created with sessionToken, userId and expires,
 * whatever provider signed in. The features that need appauth's session links say so at start-up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { Auth, MissingAdapterMethods } from "../../../src/index.js";
import type { Adapter } from "../../../src/types.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { browser, oauthConfig, oidcProvider, setsSession, signInThroughOp, TWO_PROVIDER_CLIENT } from "../oauth/fixtures.js";

/** The spec's 19 methods, nothing else. */
const CONTRACT = [
  "createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser", "linkAccount", "unlinkAccount",
  "getAccount", "createSession", "getSessionAndUser", "updateSession", "deleteSession", "createVerificationToken",
  "useVerificationToken", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
] as const;

function contractOnlyAdapter(): Adapter {
  const full = MemoryAdapter() as unknown as Record<string, unknown>;
  return Object.fromEntries(CONTRACT.map((name) => [name, full[name]])) as Adapter;
}

describe("an adapter with only the Auth.js contract", () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({ clients: [TWO_PROVIDER_CLIENT] });
  });
  afterAll(() => op.close());

  it("gets a database session of sessionToken, userId and expires alone after an OpenID Connect sign-in", async () => {
    const adapter = contractOnlyAdapter();
    const createSession = vi.spyOn(adapter, "createSession");
    const config = oauthConfig([oidcProvider(op)], { adapter, session: { strategy: "database" } });
    const client = browser(config);
    expect(setsSession(await signInThroughOp(op, client))).toBe(true);
    expect(createSession).toHaveBeenCalledOnce();
    expect(Object.keys(createSession.mock.calls[0]![0]).sort()).toEqual(["expires", "sessionToken", "userId"]);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    // Refreshing a database session's tokens needs the session links: switched off, and said once.
    expect(config.logger.codes("warn")).toContain("RefreshDisabled");
  });

  it("is refused at start-up for RP-initiated logout with database sessions, naming what it lacks", async () => {
    const config = oauthConfig([oidcProvider(op, { rpInitiatedLogout: true } as never)], {
      adapter: contractOnlyAdapter(),
      session: { strategy: "database" },
    });
    const response = await Auth(new Request("http://localhost:3000/auth/session"), config);
    expect(response.status).toBe(500);
    const logged = config.logger.entries.find((entry) => entry.level === "error");
    expect(logged?.message.find((m) => m instanceof MissingAdapterMethods)?.message ?? String(logged?.message)).toMatch(/deleteSessionsByAccount/);
  });
});
