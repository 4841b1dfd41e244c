/**
 * Access-token refresh against a real OpenID Provider: real refresh tokens (`offline_access`,
 * `prompt=consent`), rotated at every use for the public client, counted at the OP's token
 * endpoint. A session read after the access token expired renews it once, however many reads
 * arrive together; a revoked refresh token leaves the session marked, not broken.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { oauthConfig, signInThroughOp, expectSignedInAs } from "../oauth/fixtures.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { ExtendedAdapter } from "../../../src/adapters/extensions.js";
import { expireJwtAccessToken, refreshingProvider, tokenOf } from "./fixtures.js";
import type { AuthConfig, Session } from "../../../src/types.js";

type Shown = Session & { accessToken?: string };

/** The application shows the fresh access token (server-side use) through its session callback. */
const showAccessToken: AuthConfig["callbacks"] = {
  session: ({ session, token, account }) => ({
    ...session,
    accessToken: (token?.account?.access_token ?? account?.access_token) as string | undefined,
  }),
};

/** The OP still knows the access token: UserInfo answers with the person's claims. */
async function userinfoAccepts(op: TestProvider, accessToken: string): Promise<boolean> {
  const response = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  await response.body?.cancel();
  return response.ok;
}

const refreshGrants = (op: TestProvider) => op.grants.refresh_token ?? 0;

describe("access-token refresh against a real OP", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  describe("JWT sessions", () => {
    it("keeps the account's tokens in the token and renews an expired access token on the next read", async () => {
      const client = new TestClient(oauthConfig([refreshingProvider(op)], { callbacks: showAccessToken }));
      await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
      const signedIn = await tokenOf(client);
      expect(signedIn.account).toMatchObject({ provider: "oidc", type: "oidc", refresh_token: expect.any(String) });
      expect(signedIn.account!.expires_at).toBeGreaterThan(Date.now() / 1000);

      // Not due yet: a read makes no grant.
      const before = refreshGrants(op);
      expect(((await client.session()) as Shown).accessToken).toBe(signedIn.account!.access_token);
      expect(refreshGrants(op)).toBe(before);

      const aged = await expireJwtAccessToken(client);
      const session = (await client.session()) as Shown;
      expect(refreshGrants(op)).toBe(before + 1);
      expect(session.error).toBeUndefined();
      expect(session.accessToken).toBeTruthy();
      expect(session.accessToken).not.toBe(aged.account!.access_token);
      expect(await userinfoAccepts(op, session.accessToken!)).toBe(true);

      const renewed = await tokenOf(client);
      expect(renewed.account!.access_token).toBe(session.accessToken);
      expect(renewed.account!.expires_at).toBeGreaterThan(Date.now() / 1000);
      // The public client's refresh token rotated: the spent one is not kept.
      expect(renewed.account!.refresh_token).toBeTruthy();
      expect(renewed.account!.refresh_token).not.toBe(aged.account!.refresh_token);
      // The refresh token never reaches the browser.
      expect(JSON.stringify(session)).not.toContain(renewed.account!.refresh_token);

      // Renewed once: the next read is fresh.
      await client.session();
      expect(refreshGrants(op)).toBe(before + 1);
    });

    it("makes one refresh grant for 50 reads that arrive together at expiry, and all of them see the new token", async () => {
      const client = new TestClient(oauthConfig([refreshingProvider(op)], { callbacks: showAccessToken }));
      await signInThroughOp(op, client);
      const aged = await expireJwtAccessToken(client);
      const before = refreshGrants(op);

      const sessions = (await Promise.all(Array.from({ length: 50 }, () => client.session()))) as Shown[];
      expect(refreshGrants(op)).toBe(before + 1);
      const tokens = new Set(sessions.map((s) => s.accessToken));
      expect(tokens.size).toBe(1);
      const [fresh] = tokens;
      expect(fresh).not.toBe(aged.account!.access_token);
      expect(sessions.every((s) => s.error === undefined)).toBe(true);
      expect(await userinfoAccepts(op, fresh!)).toBe(true);
    });

    it("hands the new tokens to a later read that still carries the spent refresh token (its cookie could not be rewritten)", async () => {
      const client = new TestClient(oauthConfig([refreshingProvider(op)], { callbacks: showAccessToken }));
      await signInThroughOp(op, client);
      const aged = await expireJwtAccessToken(client);
      const staleCookie = client.cookieHeader()!;
      const before = refreshGrants(op);
      // A read whose Set-Cookie is dropped, as in a server component, then later reads with the same old cookie.
      const read = async () => {
        const response = await client.get("/session", { withCookies: false, headers: { cookie: staleCookie } });
        return (await response.json()) as Shown;
      };
      const first = await read();
      const second = await read();
      expect(refreshGrants(op)).toBe(before + 1);
      expect(first.accessToken).not.toBe(aged.account!.access_token);
      expect(second.accessToken).toBe(first.accessToken);
      expect(second.error).toBeUndefined();
    });

    it("marks the session RefreshTokenError when the refresh token was revoked, keeps it, and does not retry", async () => {
      const config = oauthConfig([refreshingProvider(op)], { callbacks: showAccessToken });
      const client = new TestClient(config);
      await signInThroughOp(op, client);
      const aged = await expireJwtAccessToken(client);
      await op.revokeRefreshToken(aged.account!.refresh_token!, PUBLIC_CLIENT);
      const before = refreshGrants(op);

      const session = (await client.session()) as Shown;
      expect(refreshGrants(op)).toBe(before + 1);
      expect(session).toMatchObject({ user: { email: "ada@example.com" }, error: "RefreshTokenError" });
      expect((await tokenOf(client)).account).toMatchObject({ error: "RefreshTokenError" });
      expect((await tokenOf(client)).account!.refresh_token).toBeUndefined();
      expect(config.logger.codes("warn")).toContain("RefreshTokenError");

      // Marked, not retried: the next reads make no grant and say the same.
      expect(await client.session()).toMatchObject({ error: "RefreshTokenError" });
      expect(refreshGrants(op)).toBe(before + 1);
    });

    it("does not refresh for a provider with refresh: false", async () => {
      const client = new TestClient(oauthConfig([refreshingProvider(op, { refresh: false })]));
      await signInThroughOp(op, client);
      expect((await tokenOf(client)).account).toBeUndefined();
    });

    it("treats a token inside the margin as expired", async () => {
      const client = new TestClient(oauthConfig([refreshingProvider(op, { refresh: { margin: 3600 } })], { callbacks: showAccessToken }));
      await signInThroughOp(op, client);
      const signedIn = await tokenOf(client);
      const before = refreshGrants(op);
      const session = (await client.session()) as Shown;
      // The OP's access tokens live 5 minutes: inside a margin of an hour, the first read renews it.
      expect(refreshGrants(op)).toBe(before + 1);
      expect(session.accessToken).not.toBe(signedIn.account!.access_token);
    });
  });

  describe("database sessions", () => {
    function databaseConfig(adapter: ExtendedAdapter) {
      return oauthConfig([refreshingProvider(op)], { adapter, session: { strategy: "database" }, callbacks: showAccessToken });
    }

    async function signedInAccount(adapter: ExtendedAdapter, client: TestClient) {
      await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
      const user = await adapter.getUserByEmail!("ada@example.com");
      const account = await adapter.getAccount!(String(op.accounts.get("ada")?.sub ?? "ada"), "oidc");
      expect(account).toMatchObject({ userId: user!.id, refresh_token: expect.any(String) });
      return account!;
    }

    it("records the account on the session, stores rotated tokens in the account, with one grant for 50 reads", async () => {
      const adapter = MemoryAdapter() as ExtendedAdapter;
      const client = new TestClient(databaseConfig(adapter));
      const account = await signedInAccount(adapter, client);
      const sessionToken = decodeURIComponent(client.cookie(SESSION_COOKIE)!);
      expect((await adapter.getSessionAndUser!(sessionToken))!.session).toMatchObject({
        provider: "oidc",
        providerAccountId: account.providerAccountId,
      });

      await adapter.updateAccount!({ provider: "oidc", providerAccountId: account.providerAccountId, expires_at: Math.floor(Date.now() / 1000) - 5 });
      const before = refreshGrants(op);
      const sessions = (await Promise.all(Array.from({ length: 50 }, () => client.session()))) as Shown[];
      expect(refreshGrants(op)).toBe(before + 1);

      const stored = await adapter.getAccount!(account.providerAccountId, "oidc");
      expect(stored!.refresh_token).not.toBe(account.refresh_token);
      expect(stored!.access_token).not.toBe(account.access_token);
      expect(stored!.expires_at).toBeGreaterThan(Date.now() / 1000);
      expect(new Set(sessions.map((s) => s.accessToken))).toEqual(new Set([stored!.access_token]));
      expect(await userinfoAccepts(op, stored!.access_token!)).toBe(true);

      await client.session();
      expect(refreshGrants(op)).toBe(before + 1);
    });

    it("clears a revoked refresh token from the account and marks the session, without retrying", async () => {
      const adapter = MemoryAdapter() as ExtendedAdapter;
      const config = databaseConfig(adapter);
      const client = new TestClient(config);
      const account = await signedInAccount(adapter, client);
      await op.revokeRefreshToken(account.refresh_token!, PUBLIC_CLIENT);
      await adapter.updateAccount!({ provider: "oidc", providerAccountId: account.providerAccountId, expires_at: Math.floor(Date.now() / 1000) - 5 });
      const before = refreshGrants(op);

      expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" }, error: "RefreshTokenError" });
      expect(refreshGrants(op)).toBe(before + 1);
      expect((await adapter.getAccount!(account.providerAccountId, "oidc"))!.refresh_token ?? undefined).toBeUndefined();

      expect(await client.session()).toMatchObject({ error: "RefreshTokenError" });
      expect(refreshGrants(op)).toBe(before + 1);
    });

    it("a returning person's sign-in replaces the stored tokens", async () => {
      const adapter = MemoryAdapter() as ExtendedAdapter;
      const first = new TestClient(databaseConfig(adapter));
      const account = await signedInAccount(adapter, first);
      const second = new TestClient(databaseConfig(adapter));
      await signInThroughOp(op, second);
      const stored = await adapter.getAccount!(account.providerAccountId, "oidc");
      expect(stored!.access_token).not.toBe(account.access_token);
      expect(stored!.refresh_token).not.toBe(account.refresh_token);
    });
  });
});
