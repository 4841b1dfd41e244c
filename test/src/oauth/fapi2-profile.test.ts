/**
 * Every FAPI 2.0 piece at once, as a regulated application configures it (`securityProfile:
 * "fapi2"`): the test OP requires pushed authorization requests, signs JWT-secured answers, takes
 * signed request objects, authenticates the client with `private_key_jwt`, and binds tokens with
 * DPoP, asking for a server nonce. Sign-in, refresh and a resource call with the bound token, for
 * JWT and database sessions. The separate refusals live in fapi.test.ts and dpop-refusals.test.ts.
 */
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "../../../src/config/runtime.js";
import { fetchWithDPoP } from "../../../src/dpop/index.js";
import type { OwnedSqlAdapter } from "../../../src/adapters/sqlite/index.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { startResourceServer, type ResourceServer } from "../../helpers/dpop-resource-server.js";
import { CONFIDENTIAL_CLIENT, FAPI2_FEATURES, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { expireJwtAccessToken, tokenOf } from "../refresh/fixtures.js";
import { appRequest, boundTo, sqliteStore, thumbprintOfSealed } from "./dpop-fixtures.js";
import { BASE_URL, expectSignedInAs, locationOf, oauthConfig, recordingFetch, signInThroughOp, startSignIn } from "./fixtures.js";

const CLIENT_ID = "appauth-fapi2";

describe("FAPI 2.0 security profile: PAR, private_key_jwt, request objects, JARM and DPoP together", () => {
  let op: TestProvider;
  let rs: ResourceServer;
  let clientKey: JsonWebKey & { kid: string; alg: string };

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    clientKey = { ...(await exportJWK(pair.privateKey)), kid: "fapi2-client", alg: "ES256" };
    const publicKey = { ...(await exportJWK(pair.publicKey)), kid: "fapi2-client", alg: "ES256", use: "sig" };
    op = await startTestProvider({
      features: { ...FAPI2_FEATURES, dpop: { nonces: true } },
      clients: [
        // The resource server's introspection client.
        CONFIDENTIAL_CLIENT,
        {
          client_id: CLIENT_ID,
          token_endpoint_auth_method: "private_key_jwt",
          redirect_uris: [`${BASE_URL}/callback/oidc`],
          jwks: { keys: [publicKey] },
          request_object_signing_alg: "ES256",
        },
      ],
    });
    rs = await startResourceServer({ op, introspector: CONFIDENTIAL_CLIENT, nonces: true });
  });
  afterAll(async () => {
    await rs.close();
    await op.close();
  });

  function fapi2Provider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
    return {
      id: "oidc",
      name: "Bank",
      type: "oidc",
      issuer: op.issuer,
      clientId: CLIENT_ID,
      client: { token_endpoint_auth_method: "private_key_jwt", privateKey: clientKey },
      checks: ["pkce", "state", "nonce"],
      pushedAuthorizationRequests: true,
      requestObject: true,
      dpop: true,
      securityProfile: "fapi2",
      authorization: { params: { scope: "openid email profile offline_access", prompt: "consent", response_mode: "jwt" } },
      ...overrides,
    };
  }

  it("passes the start-up check of the profile", async () => {
    expect(() => checkConfig(oauthConfig([fapi2Provider()]))).not.toThrow();
    // Without DPoP it is not sender-constrained, and the profile refuses it, naming that.
    expect(() => checkConfig(oauthConfig([fapi2Provider({ dpop: undefined })]))).toThrow(/sender-constrained/);
  });

  it("signs in with a JWT session: pushed, signed and JWT-secured request and answer, DPoP-bound tokens after one nonce retry", async () => {
    const recorder = recordingFetch();
    const config = oauthConfig([fapi2Provider({ [customFetch]: recorder })]);
    const client = new TestClient(config);
    const front = new URL(locationOf(await startSignIn(client)));
    // The browser carries only the client id and the pushed request's handle.
    expect([...front.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);

    const challenges = op.dpopNonceChallenges.count;
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
    expect(op.dpopNonceChallenges.count).toBe(challenges + 1);

    const tokenRequests = recorder.requests.filter((request) => request.url === `${op.issuer}/token`);
    expect(tokenRequests.length).toBeGreaterThan(0);
    for (const request of tokenRequests) {
      expect(request.headers.get("dpop")).toBeTruthy();
      const body = new URLSearchParams(await request.clone().text());
      expect(body.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      expect(body.has("client_secret")).toBe(false);
    }

    const { account } = await tokenOf(client);
    expect(account).toMatchObject({ token_type: "dpop" });
    const jkt = await thumbprintOfSealed(account!.dpop_jwk!);
    expect(await boundTo(op, account!.access_token!)).toMatchObject({ active: true, jkt });

    // Refresh (private_key_jwt and a proof of the same key), then a resource call with the bound token.
    await expireJwtAccessToken(client);
    const refreshes = op.grants.refresh_token ?? 0;
    const { response, cookies } = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sub: "ada", jkt });
    expect(op.grants.refresh_token ?? 0).toBeGreaterThan(refreshes);
    expect(cookies.some((cookie) => cookie.name.startsWith("appauth.session-token"))).toBe(true);
  });

  describe("with database sessions", () => {
    let adapter: OwnedSqlAdapter;
    beforeAll(async () => {
      adapter = await sqliteStore();
    });
    afterAll(() => adapter.destroy());

    it("signs in, refreshes with the stored key and calls the resource server", async () => {
      const config = oauthConfig([fapi2Provider()], { adapter, session: { strategy: "database" } });
      const client = new TestClient(config);
      await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
      const stored = (await adapter.getAccount!("ada", "oidc"))!;
      const jkt = await thumbprintOfSealed(stored.dpop_jwk!);

      await adapter.updateAccount!({ provider: "oidc", providerAccountId: "ada", expires_at: Math.floor(Date.now() / 1000) - 5 });
      const { response } = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: "ada", jkt });
      const renewed = (await adapter.getAccount!("ada", "oidc"))!;
      expect(renewed.access_token).not.toBe(stored.access_token);
      expect(await boundTo(op, renewed.access_token!)).toMatchObject({ active: true, jkt });
    });
  });
});
