/**
 * DPoP (RFC 9449) sign-in, refresh and resource calls against the real test OP with `features.dPoP`
 * (and its server nonces), and a resource server that checks every proof: the tokens are bound to a
 * key made for the sign-in, the key lives sealed with the account (JWT and database sessions), a
 * refresh keeps the binding, and `fetchWithDPoP` calls the resource with a fresh proof each time.
 */
import type { InspectionEvent } from "xstate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestProvider } from "../../helpers/oidc-provider.js";
import type { ResourceServer } from "../../helpers/dpop-resource-server.js";
import { TestClient } from "../../helpers/test-client.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { OwnedSqlAdapter } from "../../../src/adapters/sqlite/index.js";
import { fetchWithDPoP } from "../../../src/dpop/index.js";
import { expectSignedInAs, oauthConfig, recordingFetch, signInThroughOp } from "./fixtures.js";
import { customFetch } from "../../../src/symbols.js";
import { expireJwtAccessToken, tokenOf } from "../refresh/fixtures.js";
import { appRequest, boundTo, dpopProvider, startDpopWorld, sqliteStore, thumbprintOfSealed } from "./dpop-fixtures.js";
import type { TestConfig } from "../../helpers/config.js";

describe("DPoP against a real OP that asks for nonces", () => {
  let op: TestProvider;
  let rs: ResourceServer;
  let world: Awaited<ReturnType<typeof startDpopWorld>>;

  beforeAll(async () => {
    world = await startDpopWorld();
    ({ op, rs } = world);
  });
  afterAll(() => world.close());

  describe("JWT sessions", () => {
    it("signs in with tokens bound to the sign-in's key, after one use_dpop_nonce retry the OAuth machine shows as a state", async () => {
      const states: unknown[] = [];
      const inspected: InspectionEvent[] = [];
      const recorder = recordingFetch();
      const config = oauthConfig([dpopProvider(op, { [customFetch]: recorder })], {
        inspect: (event: InspectionEvent) => {
          inspected.push(event);
          const seen = event as { type: string; actorRef: { logic?: { config?: { id?: string } } }; snapshot?: { value?: unknown } };
          if (seen.type === "@xstate.snapshot" && seen.actorRef.logic?.config?.id === "oauth") states.push(seen.snapshot?.value);
        },
      });
      const client = new TestClient(config);
      const challenges = op.dpopNonceChallenges.count;
      await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
      expect(op.dpopNonceChallenges.count).toBe(challenges + 1);
      expect(states).toEqual(expect.arrayContaining(["creatingDPoPKey", "exchangingCode", "retryingWithDPoPNonce", "signedIn"]));

      const { account } = await tokenOf(client);
      expect(account).toMatchObject({ token_type: "dpop", dpop_jwk: expect.any(String) });
      // Sealed: a JWE, no private key in clear.
      expect(account!.dpop_jwk!.split(".")).toHaveLength(5);
      expect(account!.dpop_jwk).not.toContain('"d"');
      const bound = await boundTo(op, account!.access_token!);
      expect(bound).toMatchObject({ active: true, jkt: await thumbprintOfSealed(account!.dpop_jwk!) });

      // The inspector sees neither the key nor a proof (two token requests: the first, and the nonce retry).
      const proofs = recorder.requests.map((request) => request.headers.get("dpop")).filter((proof) => proof !== null);
      expect(proofs).toHaveLength(2);
      const wire = JSON.stringify(inspected);
      for (const secret of [account!.dpop_jwk!, ...proofs]) expect(wire).not.toContain(secret);
    });

    it("refreshes an expired access token with a proof of the same key: the new token is bound to the same thumbprint", async () => {
      const client = new TestClient(oauthConfig([dpopProvider(op)]));
      await signInThroughOp(op, client);
      const aged = await expireJwtAccessToken(client);
      const jkt = await thumbprintOfSealed(aged.account!.dpop_jwk!);
      const before = op.grants.refresh_token ?? 0;

      expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
      expect(op.grants.refresh_token ?? 0).toBeGreaterThan(before);
      const renewed = (await tokenOf(client)).account!;
      expect(renewed.access_token).not.toBe(aged.account!.access_token);
      expect(renewed.dpop_jwk).toBe(aged.account!.dpop_jwk);
      expect(renewed.token_type).toBe("dpop");
      expect(await boundTo(op, renewed.access_token!)).toMatchObject({ active: true, jkt });
    });

    it("calls the resource server with a fresh proof each time, retrying the server's use_dpop_nonce once", async () => {
      const config = oauthConfig([dpopProvider(op)]);
      const client = new TestClient(config);
      await signInThroughOp(op, client);
      const refused = rs.refusals.length;

      const first = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(first.response.status).toBe(200);
      expect(await first.response.json()).toMatchObject({ sub: "ada", method: "GET" });
      expect(rs.refusals.slice(refused)).toEqual(["use_dpop_nonce"]);

      const second = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`, { method: "POST", body: "x=1" });
      expect(second.response.status).toBe(200);
      expect(new Set(rs.acceptedJtis).size).toBe(rs.acceptedJtis.length);
    });

    it("refreshes a due token before the resource call, and hands back the re-issued session cookie", async () => {
      const config = oauthConfig([dpopProvider(op)]);
      const client = new TestClient(config);
      await signInThroughOp(op, client);
      const aged = await expireJwtAccessToken(client);

      const { response, cookies } = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(response.status).toBe(200);
      expect(cookies.some((cookie) => cookie.name.startsWith("appauth.session-token"))).toBe(true);
      // The resource answered for the refreshed token: the aged one's successor, bound to the same key.
      expect(await response.json()).toMatchObject({ jkt: await thumbprintOfSealed(aged.account!.dpop_jwk!) });
    });
  });

  describe("database sessions", () => {
    let adapter: OwnedSqlAdapter;
    let config: TestConfig;

    beforeAll(async () => {
      adapter = await sqliteStore();
      config = oauthConfig([dpopProvider(op)], { adapter, session: { strategy: "database" } });
    });
    afterAll(() => adapter.destroy());

    it("stores the sealed key in the account row, refreshes with it, and calls the resource with the stored token", async () => {
      const client = new TestClient(config);
      await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
      const stored = (await adapter.getAccount!("ada", "oidc"))!;
      expect(stored).toMatchObject({ token_type: "dpop", dpop_jwk: expect.any(String) });
      const jkt = await thumbprintOfSealed(stored.dpop_jwk!);
      expect(await boundTo(op, stored.access_token!)).toMatchObject({ active: true, jkt });

      await adapter.updateAccount!({ provider: "oidc", providerAccountId: "ada", expires_at: Math.floor(Date.now() / 1000) - 5 });
      expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
      const renewed = (await adapter.getAccount!("ada", "oidc"))!;
      expect(renewed.access_token).not.toBe(stored.access_token);
      expect(renewed.dpop_jwk).toBe(stored.dpop_jwk);
      expect(await boundTo(op, renewed.access_token!)).toMatchObject({ active: true, jkt });

      const { response } = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: "ada", jkt });
    });

    it("keeps the key with the account in the memory adapter too", async () => {
      const memory = MemoryAdapter();
      const client = new TestClient(oauthConfig([dpopProvider(op)], { adapter: memory, session: { strategy: "database" } }));
      await signInThroughOp(op, client);
      const stored = (await memory.getAccount!("ada", "oidc"))!;
      expect(await boundTo(op, stored.access_token!)).toMatchObject({ jkt: await thumbprintOfSealed(stored.dpop_jwk!) });
    });
  });
});
