/**
 * What is stored of the token set with the account: by default the spec's subset, `token_type`
 * lowercased and `expires_at` computed from `expires_in`; or what the provider's `account()` picks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { browser, expectSignedInAs, oauthConfig, oidcProvider, signInThroughOp } from "./fixtures.js";

describe("the account stored for an OAuth sign-in", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("stores the default subset: tokens, scope, lowercased token_type and expires_at from expires_in", async () => {
    const adapter = MemoryAdapter();
    const client = browser(oauthConfig([oidcProvider(op)], { adapter }));
    const before = Math.floor(Date.now() / 1000);
    const callback = await signInThroughOp(op, client);
    const after = Math.ceil(Date.now() / 1000);
    await expectSignedInAs(client, callback, "ada@example.com");

    const user = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" });
    const account = await adapter.getAccount("ada", "oidc");
    expect(account).not.toBeNull();
    expect(Object.keys(account!).sort()).toEqual(
      ["access_token", "expires_at", "id_token", "provider", "providerAccountId", "scope", "token_type", "type", "userId"].sort(),
    );
    expect(account).toMatchObject({
      provider: "oidc",
      type: "oidc",
      providerAccountId: "ada",
      userId: user!.id,
      token_type: "bearer",
      scope: expect.stringContaining("openid"),
      access_token: expect.any(String),
      id_token: expect.stringMatching(/^ey/),
    });
    // The test OP issues access tokens for 300 seconds (its expires_in may say 299 across a second boundary).
    expect(account!.expires_at).toBeGreaterThanOrEqual(before + 299);
    expect(account!.expires_at).toBeLessThanOrEqual(after + 300);
  });

  it("stores the refresh token when the OP issues one (offline_access)", async () => {
    const adapter = MemoryAdapter();
    const provider = oidcProvider(op, {
      authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } },
    });
    const client = browser(oauthConfig([provider], { adapter }));
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
    const account = await adapter.getAccount("ada", "oidc");
    expect(account).toMatchObject({ refresh_token: expect.any(String), scope: expect.stringContaining("offline_access") });
  });

  it("stores what the provider's account() picks instead, its token_type lowercased too", async () => {
    const adapter = MemoryAdapter();
    const provider = oidcProvider(op, {
      // An account() that passes token_type on as some OPs spell it ("Bearer"), whatever its type says.
      account: (tokens) => ({
        access_token: tokens.access_token,
        token_type: tokens.token_type?.toUpperCase() as Lowercase<string> | undefined,
        note: "picked",
      }),
    });
    const client = browser(oauthConfig([provider], { adapter }));
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
    const account = await adapter.getAccount("ada", "oidc");
    expect(account).toMatchObject({ access_token: expect.any(String), token_type: "bearer", note: "picked" });
    expect(account).not.toHaveProperty("id_token");
    expect(account).not.toHaveProperty("expires_at");
    expect(account).toMatchObject({ provider: "oidc", type: "oidc", providerAccountId: "ada" });
  });

  it("hands account() the whole token set, expires_at computed and token_type lowercased", async () => {
    const adapter = MemoryAdapter();
    let seen: Record<string, unknown> | undefined;
    const provider = oidcProvider(op, {
      account: (tokens) => {
        seen = tokens;
        return {};
      },
    });
    const client = browser(oauthConfig([provider], { adapter }));
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
    expect(seen).toMatchObject({ token_type: "bearer", expires_in: expect.any(Number), expires_at: expect.any(Number) });
  });
});
