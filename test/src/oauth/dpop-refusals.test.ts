/**
 * What DPoP (RFC 9449) refuses, each from both sides: the attacker (or the broken server) is
 * stopped with a typed error and no session, and the person signing in on the same path keeps
 * everything. The OP is the real test OP with `features.dPoP` (and nonces); the resource server
 * checks each proof with jose and the token's `cnf.jkt` by introspection.
 */
import { generateKeyPair } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET, SESSION_COOKIE, type TestConfig } from "../../helpers/config.js";
import { encode } from "../../../src/jwt/token.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { ResourceServer } from "../../helpers/dpop-resource-server.js";
import { TestClient } from "../../helpers/test-client.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { fetchWithDPoP } from "../../../src/dpop/index.js";
import { DPoPError, InvalidConfiguration, type DPoPErrorCode } from "../../../src/errors.js";
import { checkDpopOption } from "../../../src/oauth/dpop-options.js";
import type { ProviderFetch } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { tokenOf } from "../refresh/fixtures.js";
import { CALLBACK_ERROR, expectNoSession, expectSignedInAs, oauthConfig, oidcProvider, signInThroughOp } from "./fixtures.js";
import { appRequest, boundTo, dpopProvider, startDpopWorld } from "./dpop-fixtures.js";

/** A provider fetch that passes each request through `rewrite` and each answer of the token endpoint through `answer`. */
function tamperingFetch(options: {
  rewrite?: (request: Request) => Request;
  answer?: (response: Response) => Promise<Response>;
}): ProviderFetch & { requests: Request[] } {
  const requests: Request[] = [];
  const tampering = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = options.rewrite ? options.rewrite(new Request(input, init)) : new Request(input, init);
    requests.push(request.clone());
    const response = await fetch(request);
    return new URL(request.url).pathname === "/token" && options.answer ? options.answer(response) : response;
  };
  return Object.assign(tampering, { requests });
}

/** The same answer with other headers and/or another JSON body. */
async function reworded(response: Response, change: { headers?: (headers: Headers) => void; body?: (body: Record<string, unknown>) => void }) {
  const headers = new Headers(response.headers);
  change.headers?.(headers);
  let text = await response.text();
  if (change.body && response.ok) {
    const body = JSON.parse(text) as Record<string, unknown>;
    change.body(body);
    text = JSON.stringify(body);
    headers.delete("content-length");
  }
  return new Response(text, { status: response.status, headers });
}

/** The DPoPError the sign-in was refused for (the logged OAuthCallbackError's cause). */
function refusedFor(config: TestConfig): DPoPErrorCode | undefined {
  for (const entry of config.logger.entries) {
    for (const part of entry.message) {
      const cause = (part as { cause?: { err?: unknown } } | undefined)?.cause?.err;
      if (cause instanceof DPoPError) return cause.code;
    }
  }
  return undefined;
}

async function expectRefusedSignIn(client: TestClient, response: Response): Promise<void> {
  expect(response.headers.get("location")).toBe(CALLBACK_ERROR);
  await expectNoSession(client, response);
}

describe("DPoP refusals against a real OP that asks for nonces", () => {
  let op: TestProvider;
  let rs: ResourceServer;
  let world: Awaited<ReturnType<typeof startDpopWorld>>;

  beforeAll(async () => {
    world = await startDpopWorld();
    ({ op, rs } = world);
  });
  afterAll(() => world.close());

  describe("at sign-in", () => {
    it("refuses a token endpoint that answers a DPoP request with a Bearer token, and signs in where it answers DPoP", async () => {
      const bearer = tamperingFetch({ answer: (response) => reworded(response, { body: (body) => void (body.token_type = "Bearer") }) });
      const config = oauthConfig([dpopProvider(op, { [customFetch]: bearer })]);
      const client = new TestClient(config);
      await expectRefusedSignIn(client, await signInThroughOp(op, client));
      expect(refusedFor(config)).toBe("token_type_mismatch");

      const honest = new TestClient(oauthConfig([dpopProvider(op)]));
      await expectSignedInAs(honest, await signInThroughOp(op, honest), "ada@example.com");
    });

    it("refuses when the token endpoint asks for a nonce but names none", async () => {
      const withheld = tamperingFetch({ answer: (response) => reworded(response, { headers: (headers) => headers.delete("dpop-nonce") }) });
      const config = oauthConfig([dpopProvider(op, { [customFetch]: withheld })]);
      const client = new TestClient(config);
      await expectRefusedSignIn(client, await signInThroughOp(op, client));
      expect(refusedFor(config)).toBe("use_dpop_nonce");
    });

    it("retries only once: a nonce the server does not accept is asked for again, and the sign-in is refused", async () => {
      const forged = tamperingFetch({
        answer: (response) => reworded(response, { headers: (headers) => headers.has("dpop-nonce") && headers.set("dpop-nonce", "forged-nonce-0123456789") }),
      });
      const config = oauthConfig([dpopProvider(op, { [customFetch]: forged })]);
      const client = new TestClient(config);
      const challenges = op.dpopNonceChallenges.count;
      await expectRefusedSignIn(client, await signInThroughOp(op, client));
      expect(op.dpopNonceChallenges.count).toBe(challenges + 2);
      expect(refusedFor(config)).toBe("use_dpop_nonce");
    });

    it("refuses a proof whose htu is not the token endpoint the request reached (a request redirected to another origin)", async () => {
      const elsewhere = tamperingFetch({
        rewrite: (request) => {
          const url = new URL(request.url);
          if (url.pathname !== "/token") return request;
          url.hostname = "localhost";
          return new Request(url, request);
        },
      });
      const config = oauthConfig([dpopProvider(op, { [customFetch]: elsewhere })]);
      const client = new TestClient(config);
      await expectRefusedSignIn(client, await signInThroughOp(op, client));
      const answered = config.logger.entries
        .flatMap((entry) => entry.message)
        .map((part) => (part as { cause?: { err?: unknown } } | undefined)?.cause?.err)
        .find((err): err is oauth.ResponseBodyError => err instanceof oauth.ResponseBodyError);
      expect({ error: answered?.error, description: answered?.cause.error_description }).toEqual({
        error: "invalid_dpop_proof",
        description: expect.stringMatching(/htu/),
      });
    });

    it("refuses a key algorithm the provider does not list, before the code is spent", async () => {
      const config = oauthConfig([dpopProvider(op, { dpop: { alg: "PS256" } })]);
      const client = new TestClient(config);
      const exchanges = op.grants.authorization_code ?? 0;
      await expectRefusedSignIn(client, await signInThroughOp(op, client));
      expect(refusedFor(config)).toBe("algorithm_not_supported");
      expect(op.grants.authorization_code ?? 0).toBe(exchanges);
    });

    it("refuses DPoP where the library would use the token without a proof, when the configuration is resolved", () => {
      const refused = (provider: Parameters<typeof checkDpopOption>[0]) => () => checkDpopOption(provider);
      expect(refused({ id: "plain", type: "oauth", dpop: true })).toThrow(InvalidConfiguration);
      expect(refused({ id: "oidc", type: "oidc", dpop: true, idToken: false })).toThrow(/idToken: false/);
      expect(refused({ id: "oidc", type: "oidc", dpop: true, token: { request: () => ({ tokens: {} }) } })).toThrow(/token.request/);
      expect(refused({ id: "oidc", type: "oidc", dpop: { alg: "HS256" } })).toThrow(/dpop.alg/);
      expect(refused({ id: "oidc", type: "oidc", dpop: { alg: "EdDSA" } })).not.toThrow();
    });
  });

  describe("with a bound token", () => {
    it("makes a new proof for every call: a captured request replayed as it was is refused, the person's next call works", async () => {
      const recorder = tamperingFetch({});
      const config = oauthConfig([dpopProvider(op, { [customFetch]: recorder })]);
      const client = new TestClient(config);
      await signInThroughOp(op, client);
      expect((await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`)).response.status).toBe(200);
      const captured = recorder.requests.filter((request) => request.url === `${rs.url}/accounts`).at(-1)!;

      const replay = await fetch(captured.url, { headers: captured.headers });
      expect(replay.status).toBe(401);
      expect(rs.refusals.at(-1)).toBe("invalid_dpop_proof: replayed jti");
      expect((await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`)).response.status).toBe(200);
    });

    it("is refused by the resource server when a proof names another URL (htu) or method (htm) than the request's", async () => {
      let change: "path" | "method" = "path";
      const misdirecting = tamperingFetch({
        rewrite: (request) => {
          if (!request.url.startsWith(rs.url)) return request;
          return change === "path" ? new Request(`${rs.url}/transfers`, request) : new Request(request, { method: "DELETE" });
        },
      });
      const config = oauthConfig([dpopProvider(op, { [customFetch]: misdirecting })]);
      const client = new TestClient(config);
      await signInThroughOp(op, client);

      const wrongUrl = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(wrongUrl.response.status).toBe(401);
      expect(rs.refusals.at(-1)).toBe("invalid_dpop_proof: htu");
      change = "method";
      const wrongMethod = await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`);
      expect(wrongMethod.response.status).toBe(401);
      expect(rs.refusals.at(-1)).toBe("invalid_dpop_proof: htm");
    });

    it("makes a stolen access token useless without the key: as a Bearer token, or with the thief's own proof", async () => {
      const client = new TestClient(oauthConfig([dpopProvider(op)]));
      await signInThroughOp(op, client);
      const stolen = (await tokenOf(client)).account!.access_token!;

      const asBearer = await fetch(`${rs.url}/accounts`, { headers: { authorization: `Bearer ${stolen}` } });
      expect(asBearer.status).toBe(401);
      expect(rs.refusals.at(-1)).toBe("invalid_token");
      const atUserinfo = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${stolen}` } });
      expect(atUserinfo.status).toBe(401);

      const thief = oauth.DPoP({}, (await generateKeyPair("ES256", { extractable: true })) as CryptoKeyPair);
      const attempt = () =>
        oauth.protectedResourceRequest(stolen, "GET", new URL(`${rs.url}/accounts`), new Headers(), null, {
          DPoP: thief,
          [oauth.allowInsecureRequests]: true,
        });
      // The first attempt learns the resource server's nonce; the second is the thief's best proof.
      await attempt().catch(() => undefined);
      const withOwnKey = await attempt().catch((error: unknown) => (error as oauth.WWWAuthenticateChallengeError).response);
      expect(withOwnKey.status).toBe(401);
      expect(rs.refusals.at(-1)).toBe("invalid_token");
      // The token is still the person's: bound, active, and it works with their key.
      expect(await boundTo(op, stolen)).toMatchObject({ active: true });
    });

    it("refuses a stolen refresh token presented with another key (the public client's refresh token is bound too)", async () => {
      const client = new TestClient(oauthConfig([dpopProvider(op)]));
      await signInThroughOp(op, client);
      const { refresh_token: stolen } = (await tokenOf(client)).account!;
      const as = await oauth.processDiscoveryResponse(new URL(op.issuer), await oauth.discoveryRequest(new URL(op.issuer), { [oauth.allowInsecureRequests]: true }));
      const publicClient = { client_id: PUBLIC_CLIENT.client_id };
      const thief = oauth.DPoP({}, (await generateKeyPair("ES256", { extractable: true })) as CryptoKeyPair);
      const grant = () =>
        oauth
          .refreshTokenGrantRequest(as, publicClient, oauth.None(), stolen!, { DPoP: thief, [oauth.allowInsecureRequests]: true })
          .then((response) => oauth.processRefreshTokenResponse(as, publicClient, response));
      // The first attempt learns the OP's nonce; the second is refused for the key, not the nonce.
      const first = await grant().catch((error: unknown) => error);
      const refusal = oauth.isDPoPNonceError(first) ? await grant().catch((error: unknown) => error) : first;
      expect(refusal).toBeInstanceOf(oauth.ResponseBodyError);
      expect((refusal as oauth.ResponseBodyError).error).toMatch(/invalid_grant|invalid_dpop_proof/);
    });

    it("never refreshes a DPoP account without its key (no bearer downgrade): the session says so and the OP sees no grant", async () => {
      const client = new TestClient(oauthConfig([dpopProvider(op)]));
      await signInThroughOp(op, client);
      const token = await tokenOf(client);
      const { dpop_jwk: _key, ...keyless } = token.account!;
      const stripped = { ...token, account: { ...keyless, expires_at: Math.floor(Date.now() / 1000) - 5 } };
      client.setCookie(SESSION_COOKIE, encodeURIComponent(await encode({ token: stripped, secret: SECRET, salt: SESSION_COOKIE })));
      const grants = op.grants.refresh_token ?? 0;

      expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" }, error: "RefreshTokenUnavailable" });
      expect(op.grants.refresh_token ?? 0).toBe(grants);
    });

    it("throws no_bound_account for a visitor with no session, and for a session whose account is not DPoP-bound", async () => {
      const config = oauthConfig([dpopProvider(op)]);
      const stranger = new TestClient(config);
      await expect(fetchWithDPoP(appRequest(stranger), config, `${rs.url}/accounts`)).rejects.toMatchObject({ type: "DPoPError", code: "no_bound_account" });

      const bearerOp = await startTestProvider();
      try {
        const bearerConfig = oauthConfig([oidcProvider(bearerOp, { authorization: { params: { scope: "openid email offline_access", prompt: "consent" } } })]);
        const client = new TestClient(bearerConfig);
        await expectSignedInAs(client, await signInThroughOp(bearerOp, client), "ada@example.com");
        await expect(fetchWithDPoP(appRequest(client), bearerConfig, `${rs.url}/accounts`)).rejects.toMatchObject({ code: "no_bound_account" });
      } finally {
        await bearerOp.close();
      }
    });

    it("throws key_unavailable for a stored key no configured secret opens, and calls again once the key is the person's", async () => {
      const adapter = MemoryAdapter();
      const config = oauthConfig([dpopProvider(op)], { adapter, session: { strategy: "database" } });
      const client = new TestClient(config);
      await signInThroughOp(op, client);
      const stored = (await adapter.getAccount!("ada", "oidc"))!;
      const foreign = new TestClient(oauthConfig([dpopProvider(op)], { adapter: MemoryAdapter(), session: { strategy: "database" }, secret: "another-secret-0123456789abcdef0123456789" }));
      await signInThroughOp(op, foreign);

      const sealedElsewhere = (await tokenOf(foreign).catch(() => null))?.account?.dpop_jwk;
      await adapter.updateAccount!({ provider: "oidc", providerAccountId: "ada", dpop_jwk: sealedElsewhere ?? "eyJ.forged..key.tag" });
      await expect(fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`)).rejects.toMatchObject({ code: "key_unavailable" });

      await adapter.updateAccount!({ provider: "oidc", providerAccountId: "ada", dpop_jwk: stored.dpop_jwk });
      expect((await fetchWithDPoP(appRequest(client), config, `${rs.url}/accounts`)).response.status).toBe(200);
    });
  });
});
