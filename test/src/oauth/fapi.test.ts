/**
 * A FAPI 2.0-grade sign-in against the test OP set up as a FAPI 2.0 authorization server (PAR
 * required, signed request objects, JWT-secured responses, `private_key_jwt`): the authorization
 * request is pushed from the server, the browser carries only `client_id` and `request_uri`, the
 * request is a JWT signed with the client's key, the answer comes back as a JWT whose signature,
 * `iss`, `aud` and `exp` are checked. Then every way of getting it wrong, each refused with a
 * typed error and no session, and the start-up checks of `securityProfile: "fapi2"`.
 */
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";
import type { InspectionEvent } from "xstate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { checkConfig } from "../../../src/config/runtime.js";
import { InvalidConfiguration } from "../../../src/errors.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { FAPI2_FEATURES, startTestProvider, type TestClient as OpClient, type TestProvider } from "../../helpers/oidc-provider.js";
import type { TestClient } from "../../helpers/test-client.js";
import { expireJwtAccessToken, tokenOf } from "../refresh/fixtures.js";
import {
  BASE_URL,
  browser,
  CALLBACK_ERROR,
  deliver,
  expectNoSession,
  expectSignedInAs,
  locationOf,
  oauthConfig,
  oidcProvider,
  recordingFetch,
  startSignIn,
} from "./fixtures.js";

type PrivateJwk = JsonWebKey & { kid: string; alg: string };

async function keyPair(kid: string): Promise<{ privateKey: PrivateJwk; publicKey: PrivateJwk }> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return {
    privateKey: { ...(await exportJWK(pair.privateKey)), kid, alg: "ES256" },
    publicKey: { ...(await exportJWK(pair.publicKey)), kid, alg: "ES256", use: "sig" },
  };
}

const CLIENT_ID = "appauth-fapi";

function fapiClient(publicKey: PrivateJwk): OpClient {
  return {
    client_id: CLIENT_ID,
    token_endpoint_auth_method: "private_key_jwt",
    redirect_uris: [`${BASE_URL}/callback/oidc`],
    jwks: { keys: [publicKey] },
    require_signed_request_object: true,
    request_object_signing_alg: "ES256",
  };
}

/** The query of a URL as a plain object. */
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe("FAPI 2.0: PAR, private_key_jwt, signed request objects and JARM against a FAPI 2.0 OP", () => {
  let op: TestProvider;
  /** The same client at an OP that requires none of it (PAR possible, not required). */
  let plainOp: TestProvider;
  let clientKey: PrivateJwk;
  let strangerKey: PrivateJwk;

  beforeAll(async () => {
    const keys = await keyPair("appauth-fapi-key");
    clientKey = keys.privateKey;
    strangerKey = (await keyPair("appauth-fapi-key")).privateKey;
    op = await startTestProvider({ features: FAPI2_FEATURES, clients: [fapiClient(keys.publicKey)] });
    plainOp = await startTestProvider({ features: { requestObjects: true, jwtResponseModes: true }, clients: [fapiClient(keys.publicKey)] });
  });
  afterAll(async () => {
    await op.close();
    await plainOp.close();
  });

  /** The `oidc` provider as a FAPI client: private_key_jwt, request objects, JARM; PAR left to discovery. */
  function fapiProvider(at: TestProvider, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
    return oidcProvider(at, {
      clientId: CLIENT_ID,
      clientSecret: undefined,
      client: { token_endpoint_auth_method: "private_key_jwt", privateKey: clientKey },
      requestObject: true,
      authorization: { params: { response_mode: "jwt" } },
      ...overrides,
    });
  }

  /** Sign-in button, then the OP, stopping where the OP sends the browser back; the URL the browser was sent to. */
  async function toTheOp(client: TestClient, at = op) {
    const front = locationOf(await startSignIn(client));
    const outcome = await at.authorize(front, { accountId: "ada" });
    return { front, outcome };
  }

  /** A JARM answer the OP really gave, for forging variants of it. */
  async function realJarmAnswer(client: TestClient): Promise<{ claims: JWTPayload; url: URL }> {
    const { outcome } = await toTheOp(client);
    const url = new URL(outcome.url);
    return { claims: decodeJwt(url.searchParams.get("response")!), url };
  }

  /** The callback with `response` replaced by `claims` signed with `key` (the OP's own, by default) under the OP's kid. */
  async function forgedCallback(url: URL, claims: JWTPayload, key: JsonWebKey = op.signingKeys[0]!): Promise<string> {
    const opKey = op.signingKeys[0]!;
    const jwt = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: opKey.kid }).sign(await importJWK(key, "RS256"));
    const forged = new URL(url);
    forged.searchParams.set("response", jwt);
    return forged.href;
  }

  async function expectRefusedCallback(client: TestClient, callbackUrl: string): Promise<void> {
    const response = await client.get(callbackUrl);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, response);
  }

  /** A sign-in refused before the browser is sent anywhere: an error page, not the OP, and no session. */
  async function expectRefusedSignIn(client: TestClient, type: string): Promise<void> {
    const response = await startSignIn(client);
    const location = response.headers.get("location") ?? "";
    expect(location).not.toContain(op.issuer);
    expect(location).toContain(`error=${type}`);
    await expectNoSession(client, response);
  }

  describe("signing in", () => {
    it("pushes the request (the OP's metadata requires it), sends the browser with client_id and request_uri only, and signs Ada in with a JWT session", async () => {
      const spy = recordingFetch();
      const client = browser(oauthConfig([fapiProvider(op, { [customFetch]: spy })]));
      const { front, outcome } = await toTheOp(client);
      expect(Object.keys(queryOf(front)).sort()).toEqual(["client_id", "request_uri"]);
      expect(queryOf(front).request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);

      // The pushed request: a request object signed with the client's key, and a client assertion.
      const pushed = spy.requests.find((request) => request.url === `${op.issuer}/request`)!;
      const body = new URLSearchParams(await pushed.text());
      const requestObject = body.get("request")!;
      expect(decodeProtectedHeader(requestObject)).toMatchObject({ alg: "ES256", kid: "appauth-fapi-key" });
      expect(decodeJwt(requestObject)).toMatchObject({ iss: CLIENT_ID, aud: op.issuer, response_mode: "jwt", code_challenge_method: "S256" });
      expect(decodeJwt(body.get("client_assertion")!)).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID });

      // The answer is a JARM JWT, nothing else.
      expect(Object.keys(queryOf(outcome.url))).toEqual(["response"]);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");
      const token = spy.requests.find((request) => request.url === `${op.issuer}/token`)!;
      expect(new URLSearchParams(await token.text()).get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    });

    it("signs Ada in with a database session, her account stored with the provider's tokens", async () => {
      const adapter = MemoryAdapter();
      const client = browser(oauthConfig([fapiProvider(op)], { adapter, session: { strategy: "database" } }));
      const { outcome } = await toTheOp(client);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");
      expect(await adapter.getAccount("ada", "oidc")).toMatchObject({ provider: "oidc", access_token: expect.any(String) });
    });

    it("takes the JWT answer as a form the browser posts, with form_post.jwt", async () => {
      const client = browser(oauthConfig([fapiProvider(op, { authorization: { params: { response_mode: "form_post.jwt" } } })]));
      const { outcome } = await toTheOp(client);
      expect(outcome.method).toBe("POST");
      expect(Object.keys(outcome.method === "POST" ? outcome.form : {})).toEqual(["response"]);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");
    });

    it("pushes at a provider that does not require it only when asked to", async () => {
      const asked = browser(oauthConfig([fapiProvider(plainOp, { pushedAuthorizationRequests: true })]));
      const pushed = await toTheOp(asked, plainOp);
      expect(Object.keys(queryOf(pushed.front)).sort()).toEqual(["client_id", "request_uri"]);
      await expectSignedInAs(asked, await deliver(asked, pushed.outcome), "ada@example.com");

      // Not asked: the signed request object travels through the browser, and still signs Ada in.
      const notAsked = browser(oauthConfig([fapiProvider(plainOp)]));
      const sent = await toTheOp(notAsked, plainOp);
      expect(Object.keys(queryOf(sent.front)).sort()).toEqual(["client_id", "request", "response_type", "scope"]);
      await expectSignedInAs(notAsked, await deliver(notAsked, sent.outcome), "ada@example.com");
    });

    it("renews an expired access token with a private_key_jwt refresh grant, the session kept", async () => {
      const spy = recordingFetch();
      const provider = fapiProvider(op, {
        authorization: { params: { response_mode: "jwt", scope: "openid email profile offline_access", prompt: "consent" } },
        [customFetch]: spy,
      });
      const client = browser(oauthConfig([provider]));
      const { outcome } = await toTheOp(client);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");
      const aged = await expireJwtAccessToken(client);
      const grants = op.grants.refresh_token ?? 0;

      expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
      expect(op.grants.refresh_token).toBe(grants + 1);
      const renewed = await tokenOf(client);
      expect(renewed.account!.access_token).not.toBe(aged.account!.access_token);
      const refresh = spy.requests.filter((request) => request.url === `${op.issuer}/token`).at(-1)!;
      const body = new URLSearchParams(await refresh.text());
      expect(body.get("grant_type")).toBe("refresh_token");
      expect(decodeJwt(body.get("client_assertion")!)).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID });
    });

    it("shows an inspector the push step, with the request_uri, the request object and the client assertion redacted", async () => {
      const seen: InspectionEvent[] = [];
      const spy = recordingFetch();
      const config = oauthConfig([fapiProvider(op, { [customFetch]: spy })], { inspect: (event: InspectionEvent) => void seen.push(event) });
      const client = browser(config);
      const { front, outcome } = await toTheOp(client);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");

      const wire = JSON.stringify(seen);
      expect(wire).toContain("pushingAuthorizationRequest");
      const body = new URLSearchParams(await spy.requests.find((request) => request.url === `${op.issuer}/request`)!.text());
      for (const secret of [queryOf(front).request_uri!, body.get("request")!, body.get("client_assertion")!, new URL(outcome.url).searchParams.get("response")!]) {
        expect(wire).not.toContain(secret);
      }
    });
  });

  describe("refusing", () => {
    it("refuses a request_uri used a second time: the OP will not run it again, and nobody is signed in", async () => {
      const client = browser(oauthConfig([fapiProvider(op)]));
      const { front, outcome } = await toTheOp(client);
      await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");
      // Someone else's browser sent to the same URL: the OP answers invalid_request_uri, which signs nobody in.
      const replayer = browser(oauthConfig([fapiProvider(op)]));
      const replayed = await op.authorize(front, { accountId: "ada" });
      expect(queryOf(replayed.url).error).toBe("invalid_request_uri");
      await expectRefusedCallback(replayer, replayed.url);
    });

    it("accepts a real JARM answer re-signed unchanged with the OP's key: the forgeries below fail for what they change", async () => {
      const client = browser(oauthConfig([fapiProvider(op)]));
      const { claims, url } = await realJarmAnswer(client);
      await expectSignedInAs(client, await client.get(await forgedCallback(url, claims)), "ada@example.com");
    });

    const forgeries: [string, (claims: JWTPayload) => Promise<[JWTPayload, JsonWebKey?]>][] = [
      ["signed by another key under the OP's kid", async (claims) => [claims, await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey)]],
      ["meant for another client (aud)", async (claims) => [{ ...claims, aud: "another-client" }]],
      ["without iss", async ({ iss: _iss, ...claims }) => [claims]],
      ["from another issuer", async (claims) => [{ ...claims, iss: "https://op.attacker.example" }]],
      ["that expired", async (claims) => [{ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }]],
    ];
    for (const [what, forge] of forgeries) {
      it(`refuses a JARM answer ${what}`, async () => {
        const client = browser(oauthConfig([fapiProvider(op)]));
        const { claims, url } = await realJarmAnswer(client);
        const [forged, key] = await forge(claims);
        await expectRefusedCallback(client, await forgedCallback(url, forged, key));
      });
    }

    it("refuses a plain code answer where a JARM answer is configured (no downgrade)", async () => {
      const client = browser(oauthConfig([fapiProvider(op)]));
      const { claims, url } = await realJarmAnswer(client);
      const plain = new URL(`${url.origin}${url.pathname}`);
      for (const name of ["code", "state", "iss"]) plain.searchParams.set(name, String(claims[name]));
      await expectRefusedCallback(client, plain.href);
    });

    it("refuses a request object signed with a key the OP does not know: an error page before the OP, no session", async () => {
      const config = oauthConfig([fapiProvider(op, { requestObject: { privateKey: strangerKey } })]);
      await expectRefusedSignIn(browser(config), "Configuration");
      expect(config.logger.codes("error")).toContain("OAuthSignInError");
    });

    it("refuses an expired request object the OP was sent", async () => {
      // A request object that expired on the way (re-signed with the client's own key, an hour late).
      const expiring: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        if (request.url !== `${op.issuer}/request`) return fetch(request);
        const body = new URLSearchParams(await request.text());
        const claims = decodeJwt(body.get("request")!);
        const hourAgo = Math.floor(Date.now() / 1000) - 3600;
        const late = await new SignJWT({ ...claims, iat: hourAgo - 60, nbf: hourAgo - 60, exp: hourAgo })
          .setProtectedHeader({ alg: "ES256", kid: clientKey.kid })
          .sign(await importJWK(clientKey, "ES256"));
        body.set("request", late);
        return fetch(request.url, { method: "POST", headers: request.headers, body });
      };
      const client = browser(oauthConfig([fapiProvider(op, { [customFetch]: expiring })]));
      await expectRefusedSignIn(client, "Configuration");
    });

    it("refuses a client key the OP does not know at the PAR endpoint", async () => {
      const client = browser(
        oauthConfig([fapiProvider(op, { client: { token_endpoint_auth_method: "private_key_jwt", privateKey: strangerKey }, requestObject: { privateKey: clientKey } })]),
      );
      await expectRefusedSignIn(client, "Configuration");
    });

    it("refuses a client key the OP does not know at the token endpoint, when nothing was pushed", async () => {
      const provider = fapiProvider(plainOp, {
        client: { token_endpoint_auth_method: "private_key_jwt", privateKey: strangerKey },
        requestObject: { privateKey: clientKey },
      });
      const client = browser(oauthConfig([provider]));
      const { outcome } = await toTheOp(client, plainOp);
      const response = await deliver(client, outcome);
      expect(response.headers.get("location")).toBe(CALLBACK_ERROR);
      await expectNoSession(client, response);
    });

    it("refuses to send the browser to a provider that requires PAR when the configuration turned it off: a configuration fault, logged", async () => {
      const config = oauthConfig([fapiProvider(op, { pushedAuthorizationRequests: false })]);
      const client = browser(config);
      const response = await startSignIn(client);
      expect(response.status).toBe(500);
      expect(response.headers.has("location")).toBe(false);
      await expectNoSession(client, response);
      const logged = config.logger.entries.flatMap((entry) => entry.message).map((item) => (item instanceof Error ? item.message : String(item)));
      expect(logged).toEqual(expect.arrayContaining([expect.stringContaining("pushedAuthorizationRequests is false")]));
    });
  });
});

describe('securityProfile: "fapi2", checked at start-up', () => {
  let privateKey: PrivateJwk;
  let publicKey: PrivateJwk;
  beforeAll(async () => {
    ({ privateKey, publicKey } = await keyPair("k1"));
  });

  /** A provider meeting the profile with mTLS-bound tokens and private_key_jwt, then `overrides`. */
  function fapi2(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
    return {
      id: "bank",
      name: "Bank",
      type: "oidc",
      issuer: "https://id.bank.example",
      clientId: "app",
      securityProfile: "fapi2",
      mtls: true,
      client: { token_endpoint_auth_method: "private_key_jwt", privateKey },
      ...overrides,
    };
  }
  const check = (provider: OIDCConfig) => () => checkConfig(oauthConfig([provider]));

  it("accepts a provider with PAR (by default), PKCE, sender-constrained tokens and private_key_jwt", () => {
    expect(check(fapi2())).not.toThrow();
    expect(check(fapi2({ mtls: undefined, ...({ dpop: true } as object) }))).not.toThrow();
    expect(check(fapi2({ client: { token_endpoint_auth_method: "tls_client_auth" } }))).not.toThrow();
  });

  it("refuses one without sender-constrained tokens, naming dpop and mtls", () => {
    expect(check(fapi2({ mtls: undefined }))).toThrow(/securityProfile "fapi2".*sender-constrained tokens \(dpop: true, or mtls: true/);
  });

  it("refuses one authenticating with a client secret, naming private_key_jwt", () => {
    const provider = fapi2({ clientSecret: "s".repeat(32), client: { token_endpoint_auth_method: "client_secret_basic" } });
    expect(check(provider)).toThrow(/private_key_jwt or mTLS client authentication.*not "client_secret_basic"/);
  });

  it("refuses one whose checks leave PKCE out", () => {
    expect(check(fapi2({ checks: ["state", "nonce"] }))).toThrow(/PKCE with S256 \(add "pkce" to checks\)/);
  });

  it("refuses one with pushed authorization requests turned off", () => {
    expect(check(fapi2({ pushedAuthorizationRequests: false }))).toThrow(/pushedAuthorizationRequests must not be false/);
  });

  it("names every missing piece at once", () => {
    expect(check(fapi2({ mtls: undefined, checks: ["state"], client: {} }))).toThrow(/PKCE.*sender-constrained.*private_key_jwt/);
  });

  it("refuses an unknown profile, a public key given as the private one, a request object with no key to sign with", () => {
    expect(check(fapi2({ securityProfile: "fapi1" as "fapi2" }))).toThrow(/securityProfile: expected "fapi2"/);
    expect(check(fapi2({ client: { token_endpoint_auth_method: "private_key_jwt", privateKey: publicKey } }))).toThrow(
      /client\.privateKey is a public key/,
    );
    expect(check(fapi2({ securityProfile: undefined, client: {}, requestObject: true }))).toThrow(/requestObject needs a key to sign with/);
  });

  it("refuses tls_client_auth without mtls, and a JWT response mode that does not exist", () => {
    const tls = fapi2({ securityProfile: undefined, mtls: undefined, client: { token_endpoint_auth_method: "tls_client_auth" } });
    expect(check(tls)).toThrow(/tls_client_auth authenticates with a client certificate; set mtls: true/);
    expect(check(fapi2({ authorization: { params: { response_mode: "fragment.jwt" } } }))).toThrow(/response_mode: expected one of jwt, query\.jwt, form_post\.jwt/);
    expect(check(fapi2({ mtls: undefined }))).toThrow(InvalidConfiguration);
  });

  it("refuses a request object or a JWT response mode for a provider with no issuer to check them against", () => {
    const noIssuer = fapi2({ issuer: undefined, authorization: { url: "https://id.bank.example/authorize", params: { response_mode: "jwt" } } });
    expect(check(noIssuer)).toThrow(/need the provider's issuer \(set issuer or wellKnown\)/);
  });
});
