/**
 * One refresh grant across processes: two app instances (separate Node processes) share a store
 * and a real OpenID Provider whose refresh tokens rotate at every use (so a second grant with the
 * spent token would fail, and would revoke the grant at this OP). Fifty reads of one database
 * session arrive together at expiry, half on each instance; the OP's token endpoint sees one
 * refresh_token grant, and every read sees the new access token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { signInThroughOp } from "../oauth/fixtures.js";
import { postgresAvailability, redisAvailability } from "../adapters/servers.js";
import { sharedPostgres, sharedRedis, startInstance, type Instance, type SharedStore } from "./instances.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";

const BASE_PATH = "/api/auth";
const SIGN_IN_BASE = `http://localhost:3000${BASE_PATH}`;
/** The public client, allowed to come back to the in-test sign-in's callback. */
const CLIENT = { ...PUBLIC_CLIENT, redirect_uris: [`${SIGN_IN_BASE}/callback/oidc`] };

function describeRefreshAcrossInstances(storeName: string, skip: string | undefined, prepare: () => Promise<SharedStore>): void {
  (skip === undefined ? describe : describe.skip)(`one refresh grant across two instances sharing ${storeName}`, () => {
    let op: TestProvider;
    let store: SharedStore | undefined;
    const instances: Instance[] = [];

    beforeAll(async () => {
      op = await startTestProvider({ clients: [CLIENT] });
      store = await prepare();
      const env = {
        ...store.env,
        APPAUTH_INSTANCE_SECRET: SECRET,
        APPAUTH_INSTANCE_PASSWORD: "unused",
        APPAUTH_INSTANCE_OIDC_ISSUER: op.issuer,
        APPAUTH_INSTANCE_OIDC_CLIENT: CLIENT.client_id,
      };
      for (let i = 0; i < 2; i++) instances.push(await startInstance(env));
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await store?.remove();
      await op?.close();
    });

    it("makes exactly one refresh_token grant for 50 reads at expiry, split over both processes", async () => {
      const [a, b] = instances as [Instance, Instance];
      // Signed in here, against the same store: a database session is just its token in the cookie.
      const provider: OIDCConfig = {
        id: "oidc",
        name: "Test OP",
        type: "oidc",
        issuer: op.issuer,
        clientId: CLIENT.client_id,
        client: { token_endpoint_auth_method: "none" },
        authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } },
      };
      const config = testConfig({ providers: [provider], adapter: store!.adapter, session: { strategy: "database" }, basePath: BASE_PATH });
      const client = new TestClient(config, SIGN_IN_BASE);
      const callback = await signInThroughOp(op, client);
      expect(callback.status).toBe(302);
      const sessionToken = decodeURIComponent(client.cookie(SESSION_COOKIE)!);
      const { session } = (await store!.adapter.getSessionAndUser!(sessionToken))!;
      const account = (await store!.adapter.getAccount!(session.providerAccountId!, "oidc"))!;
      expect(account.refresh_token).toBeTruthy();

      await store!.adapter.updateAccount!({
        provider: "oidc",
        providerAccountId: account.providerAccountId,
        expires_at: Math.floor(Date.now() / 1000) - 5,
      });
      const before = op.grants.refresh_token ?? 0;
      const cookie = `${SESSION_COOKIE}=${encodeURIComponent(sessionToken)}`;
      const reads = Array.from({ length: 50 }, async (_, i) => {
        const instance = i % 2 === 0 ? a : b;
        const response = await fetch(`${instance.origin}${BASE_PATH}/session`, { headers: { cookie } });
        expect(response.status, instance.stderr()).toBe(200);
        return (await response.json()) as { accessToken?: string; error?: string };
      });
      const sessions = await Promise.all(reads);

      expect(op.grants.refresh_token ?? 0, `${a.stderr()}\n${b.stderr()}`).toBe(before + 1);
      const stored = (await store!.adapter.getAccount!(account.providerAccountId, "oidc"))!;
      expect(stored.access_token).not.toBe(account.access_token);
      expect(stored.refresh_token).not.toBe(account.refresh_token);
      expect(sessions.map((s) => s.error).filter(Boolean)).toEqual([]);
      expect(new Set(sessions.map((s) => s.accessToken))).toEqual(new Set([stored.access_token]));
    });
  });
}

describeRefreshAcrossInstances("one PostgreSQL database", await postgresAvailability(), sharedPostgres);
describeRefreshAcrossInstances("one Redis key prefix", await redisAvailability(), sharedRedis);
