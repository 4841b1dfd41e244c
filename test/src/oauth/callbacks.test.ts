/**
 * The application's say in an OAuth sign-in: the `signIn` callback may refuse it or send the person
 * elsewhere, and a provider's `profile()` maps what the OP returned. None of these may leave a session behind.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ORIGIN } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { CallbacksOptions } from "../../../src/types.js";
import {
  BASE_URL,
  browser,
  clearedCheckCookies,
  expectNoSession,
  expectSignedInAs,
  oauthConfig,
  oidcProvider,
  signInThroughOp,
} from "./fixtures.js";

type SignInCallback = NonNullable<CallbacksOptions["signIn"]>;

describe("the signIn callback and profile() in an OAuth sign-in", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("hands the signIn callback the mapped user, the account and the OP's profile", async () => {
    const signIn = vi.fn<SignInCallback>(() => true);
    const client = browser(oauthConfig([oidcProvider(op)], { callbacks: { signIn } }));
    const callback = await signInThroughOp(op, client);
    await expectSignedInAs(client, callback, "ada@example.com");
    expect(signIn).toHaveBeenCalledOnce();
    expect(signIn.mock.calls[0]![0]).toMatchObject({
      user: { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
      account: { provider: "oidc", type: "oidc", providerAccountId: "ada", token_type: "bearer" },
      profile: { sub: "ada", iss: op.issuer, email_verified: true },
    });
  });

  it("sends the person to the error page with AccessDenied, and no session, when signIn returns false", async () => {
    const client = browser(oauthConfig([oidcProvider(op)], { callbacks: { signIn: () => false } }));
    const callback = await signInThroughOp(op, client);
    expect(callback.headers.get("location")).toBe(`${BASE_URL}/error?error=AccessDenied`);
    await expectNoSession(client, callback);
    expect(clearedCheckCookies(callback)).toHaveLength(3);
  });

  it("refuses with AccessDenied, and no session, when signIn throws", async () => {
    const client = browser(
      oauthConfig([oidcProvider(op)], {
        callbacks: {
          signIn: () => {
            throw new Error("not today");
          },
        },
      }),
    );
    const callback = await signInThroughOp(op, client);
    expect(callback.headers.get("location")).toBe(`${BASE_URL}/error?error=AccessDenied`);
    await expectNoSession(client, callback);
  });

  it("redirects where signIn says, with no session, when it returns a URL", async () => {
    const client = browser(oauthConfig([oidcProvider(op)], { callbacks: { signIn: () => "/waitlist?reason=beta" } }));
    const callback = await signInThroughOp(op, client);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/waitlist?reason=beta`);
    await expectNoSession(client, callback);
  });

  it("creates no user when signIn refuses, even with an adapter", async () => {
    const adapter = MemoryAdapter();
    const client = browser(oauthConfig([oidcProvider(op)], { adapter, callbacks: { signIn: () => false } }));
    const callback = await signInThroughOp(op, client);
    await expectNoSession(client, callback);
    expect(await adapter.getUserByEmail("ada@example.com")).toBeNull();
    expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toBeNull();
  });

  it("maps the OP's profile with the provider's profile()", async () => {
    const profile = vi.fn((claims: Record<string, unknown>, _tokens: Record<string, unknown>) => ({
      id: `op-${String(claims.sub)}`,
      name: String(claims.name).toUpperCase(),
      email: claims.email as string,
      image: null,
    }));
    const client = browser(oauthConfig([oidcProvider(op, { profile })]));
    const callback = await signInThroughOp(op, client);
    await expectSignedInAs(client, callback, "ada@example.com");
    expect(await client.session()).toMatchObject({ user: { name: "ADA LOVELACE" } });
    expect(profile.mock.calls[0]![1]).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) });
  });

  it("sends the person to the error page with Configuration, logs OAuthProfileParseError, and signs no one in when profile() throws", async () => {
    const config = oauthConfig([
      oidcProvider(op, {
        profile: () => {
          throw new Error("unexpected profile shape");
        },
      }),
    ]);
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    expect(callback.headers.get("location")).toBe(`${BASE_URL}/error?error=Configuration`);
    await expectNoSession(client, callback);
    expect(config.logger.codes("error")).toContain("OAuthProfileParseError");
  });

  it("treats a profile() without an id like one that throws", async () => {
    const config = oauthConfig([oidcProvider(op, { profile: () => ({ name: "nobody" }) })]);
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    expect(callback.headers.get("location")).toBe(`${BASE_URL}/error?error=Configuration`);
    await expectNoSession(client, callback);
    expect(config.logger.codes("error")).toContain("OAuthProfileParseError");
  });
});
