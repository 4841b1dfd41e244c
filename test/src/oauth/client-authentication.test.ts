/**
 * Client authentication at the token endpoint (RFC 6749 §2.3, OIDC Core §9): every method the test
 * OP offers, each client registered for exactly one, so a request made with any other is refused.
 */
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONFIDENTIAL_CLIENT,
  PUBLIC_CLIENT,
  startTestProvider,
  type TestClient as OpClient,
  type TestProvider,
} from "../../helpers/oidc-provider.js";
import type { OAuthClientSettings, TokenEndpointAuthMethod } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { BASE_URL, browser, expectSignedInAs, oauthConfig, oidcProvider, recordingFetch, signInThroughOp } from "./fixtures.js";

const SECRET = CONFIDENTIAL_CLIENT.client_secret!;
const REDIRECT_URIS = [`${BASE_URL}/callback/oidc`];

function registered(method: TokenEndpointAuthMethod, extra: Partial<OpClient> = {}): OpClient {
  return { client_id: `client-${method}`, client_secret: SECRET, token_endpoint_auth_method: method, redirect_uris: REDIRECT_URIS, ...extra };
}

describe("authenticating the client at the token endpoint", () => {
  let op: TestProvider;
  let privateKey: JsonWebKey & { kid: string; alg: string };

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    const kid = "appauth-test-client-key";
    privateKey = { ...(await exportJWK(pair.privateKey)), kid, alg: "RS256" };
    const publicKey = { ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" };
    op = await startTestProvider({
      clients: [
        registered("client_secret_basic"),
        registered("client_secret_post"),
        registered("client_secret_jwt"),
        { client_id: "client-private_key_jwt", token_endpoint_auth_method: "private_key_jwt", redirect_uris: REDIRECT_URIS, jwks: { keys: [publicKey] } },
        { ...PUBLIC_CLIENT, client_id: "client-none" },
      ],
    });
  });
  afterAll(() => op.close());

  /** Signs Ada in with `client` settings as client `client-<method>`; the token request as sent. */
  async function signInWith(method: TokenEndpointAuthMethod, client: OAuthClientSettings, secret?: string): Promise<Request> {
    const fetchSpy = recordingFetch();
    const provider = oidcProvider(op, {
      clientId: `client-${method}`,
      clientSecret: secret,
      client,
      [customFetch]: fetchSpy,
    });
    const browserClient = browser(oauthConfig([provider]));
    const callback = await signInThroughOp(op, browserClient);
    await expectSignedInAs(browserClient, callback, "ada@example.com");
    const tokenRequest = fetchSpy.requests.find((request) => request.url === `${op.issuer}/token`);
    expect(tokenRequest).toBeDefined();
    return tokenRequest!;
  }

  it("signs in with client_secret_basic: the secret in the Authorization header, not the body", async () => {
    const request = await signInWith("client_secret_basic", { token_endpoint_auth_method: "client_secret_basic" }, SECRET);
    const credentials = Buffer.from(request.headers.get("authorization")!.replace(/^Basic /, ""), "base64").toString();
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined.
    expect(credentials.split(":").map(decodeURIComponent)).toEqual(["client-client_secret_basic", SECRET]);
    expect(new URLSearchParams(await request.text()).has("client_secret")).toBe(false);
  });

  it("uses client_secret_basic by default when a client secret is configured", async () => {
    const request = await signInWith("client_secret_basic", {}, SECRET);
    expect(request.headers.get("authorization")).toMatch(/^Basic /);
  });

  it("signs in with client_secret_post: id and secret in the form body", async () => {
    const request = await signInWith("client_secret_post", { token_endpoint_auth_method: "client_secret_post" }, SECRET);
    const body = new URLSearchParams(await request.text());
    expect(body.get("client_id")).toBe("client-client_secret_post");
    expect(body.get("client_secret")).toBe(SECRET);
    expect(request.headers.has("authorization")).toBe(false);
  });

  it("signs in with client_secret_jwt: an HMAC-signed client assertion, no secret on the wire", async () => {
    const request = await signInWith("client_secret_jwt", { token_endpoint_auth_method: "client_secret_jwt" }, SECRET);
    const text = await request.text();
    const body = new URLSearchParams(text);
    expect(body.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const assertion = body.get("client_assertion")!;
    expect(decodeProtectedHeader(assertion).alg).toMatch(/^HS/);
    expect(decodeJwt(assertion)).toMatchObject({ iss: "client-client_secret_jwt", sub: "client-client_secret_jwt" });
    expect(body.has("client_secret")).toBe(false);
    expect(text).not.toContain(SECRET);
  });

  it("signs in with private_key_jwt: a client assertion signed with the registered key, named by its kid", async () => {
    const request = await signInWith("private_key_jwt", { token_endpoint_auth_method: "private_key_jwt", privateKey });
    const assertion = new URLSearchParams(await request.text()).get("client_assertion")!;
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: "RS256", kid: "appauth-test-client-key" });
    expect(decodeJwt(assertion)).toMatchObject({ iss: "client-private_key_jwt", sub: "client-private_key_jwt" });
  });

  it("signs in with none: a public client sends only its client_id (and the PKCE verifier)", async () => {
    const request = await signInWith("none", { token_endpoint_auth_method: "none" });
    const body = new URLSearchParams(await request.text());
    expect(body.get("client_id")).toBe("client-none");
    expect(body.get("code_verifier")).toBeTruthy();
    expect(request.headers.has("authorization")).toBe(false);
    expect(body.has("client_secret")).toBe(false);
  });
});
