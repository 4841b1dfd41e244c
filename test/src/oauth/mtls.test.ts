/**
 * mTLS (RFC 8705) through `[customFetch]`: the test OP behind a TLS-terminating proxy on loopback
 * that asks for a client certificate, advertising the proxy's endpoints as `mtls_endpoint_aliases`.
 * With `mtls: true` the token request goes to the alias with the certificate, authenticates with it
 * (`self_signed_tls_client_auth`), and gets an access token bound to it; another certificate gets nothing.
 */
import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { certificateFetch, selfSignedCertificate, startTlsProxy, x5cOf, type Certificate, type TlsProxy } from "../../helpers/mtls.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { BASE_URL, browser, CALLBACK_ERROR, expectNoSession, expectSignedInAs, oauthConfig, oidcProvider, recordingFetch, signInThroughOp } from "./fixtures.js";

describe("mTLS client authentication and certificate-bound tokens through [customFetch]", () => {
  let proxy: TlsProxy;
  let op: TestProvider;
  let server: Certificate;
  let registered: Certificate;
  let stranger: Certificate;

  beforeAll(async () => {
    server = selfSignedCertificate("127.0.0.1");
    registered = selfSignedCertificate("appauth-mtls-client");
    stranger = selfSignedCertificate("appauth-mtls-client");
    proxy = await startTlsProxy(server);
    const publicJwk = new X509Certificate(registered.cert).publicKey.export({ format: "jwk" });
    op = await startTestProvider({
      features: { mtls: { endpointAliasesAt: proxy.origin } },
      clients: [
        {
          client_id: "appauth-mtls",
          token_endpoint_auth_method: "self_signed_tls_client_auth",
          redirect_uris: [`${BASE_URL}/callback/oidc`],
          jwks: { keys: [{ ...publicJwk, x5c: [x5cOf(registered.cert)] } as JsonWebKey] },
          tls_client_certificate_bound_access_tokens: true,
        },
      ],
    });
    proxy.upstreamPort = Number(new URL(op.issuer).port);
  });
  afterAll(async () => {
    await op?.close();
    await proxy?.close();
  });

  function mtlsProvider(certificate: Certificate, fetchImpl = certificateFetch(certificate, server.cert)): OIDCConfig {
    return oidcProvider(op, {
      clientId: "appauth-mtls",
      clientSecret: undefined,
      mtls: true,
      client: { token_endpoint_auth_method: "self_signed_tls_client_auth" },
      [customFetch]: fetchImpl,
    });
  }

  /** The OP's userinfo for `accessToken`, called at `endpoint` with `certificate` presented (or none). */
  async function userinfo(endpoint: string, accessToken: string, certificate?: Certificate): Promise<number> {
    const call = certificate ? certificateFetch(certificate, server.cert) : (input: string, init: RequestInit) => fetch(input, init);
    const response = await call(endpoint, { headers: { authorization: `Bearer ${accessToken}` } });
    await response.body?.cancel();
    return response.status;
  }

  it("signs Ada in with the token request at the mTLS alias, and her access token works only with that certificate", async () => {
    const spy = recordingFetch(certificateFetch(registered, server.cert) as typeof fetch);
    const adapter = MemoryAdapter();
    const client = browser(oauthConfig([mtlsProvider(registered, spy)], { adapter, session: { strategy: "database" } }));
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
    expect(spy.urls).toContain(`${proxy.origin}/token`);
    expect(spy.urls).not.toContain(`${op.issuer}/token`);

    const { access_token } = (await adapter.getAccount("ada", "oidc"))!;
    expect(await userinfo(`${proxy.origin}/me`, access_token!, registered)).toBe(200);
    // Bound to the certificate: replayed without it, or with another one, it is refused.
    expect(await userinfo(`${op.issuer}/me`, access_token!)).toBe(401);
    expect(await userinfo(`${proxy.origin}/me`, access_token!, stranger)).toBe(401);
  });

  it("refuses the sign-in when the certificate presented is not the client's: no tokens, no session", async () => {
    const client = browser(oauthConfig([mtlsProvider(stranger)]));
    const response = await signInThroughOp(op, client);
    expect(response.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, response);
  });
});
