/**
 * DESIGN §6: every outbound HTTP call of a provider goes through its `[customFetch]`. The global
 * `fetch` is made to fail while the library handles a request, so a call that bypasses the
 * provider's fetch cannot go unnoticed; between requests the OP is driven with the real one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { TestClient } from "../../helpers/test-client.js";
import type { OAuthProviderConfig } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { browser, deliver, discover, locationOf, oauthConfig, oidcProvider, recordingFetch, setsSession } from "./fixtures.js";

describe("outbound calls go through the provider's [customFetch]", () => {
  let op: TestProvider;
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  /** Runs `step` with the global fetch refusing every call; the URLs it was asked for. */
  async function withGlobalFetchForbidden<T>(step: () => Promise<T>, bypassed: string[]): Promise<T> {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      bypassed.push(input instanceof Request ? input.url : String(input));
      throw new TypeError("the global fetch was called while a [customFetch] was configured");
    });
    try {
      return await step();
    } finally {
      spy.mockRestore();
    }
  }

  /** A whole sign-in, the library's part with the global fetch forbidden; what it asked the OP. */
  async function signIn(provider: (fetchSpy: ReturnType<typeof recordingFetch>) => OAuthProviderConfig) {
    const fetchSpy = recordingFetch(realFetch);
    const client: TestClient = browser(oauthConfig([provider(fetchSpy)]));
    const bypassed: string[] = [];
    const signInResponse = await withGlobalFetchForbidden(async () => {
      const csrfToken = await client.csrf();
      return client.post("/signin/oidc", { csrfToken, callbackUrl: "/after" });
    }, bypassed);
    const back = await op.authorize(locationOf(signInResponse), { accountId: "ada" });
    const callback = await withGlobalFetchForbidden(() => deliver(client, back), bypassed);
    const session = await withGlobalFetchForbidden(() => client.session(), bypassed);
    return { callback, session, bypassed, urls: fetchSpy.urls };
  }

  it("sends discovery, token, JWKS and userinfo requests through it, and nothing through the global fetch", async () => {
    const result = await signIn((fetchSpy) => oidcProvider(op, { idToken: false, [customFetch]: fetchSpy }));
    expect(setsSession(result.callback)).toBe(true);
    expect(result.session).toMatchObject({ user: { email: "ada@example.com" } });
    expect(result.bypassed).toEqual([]);
    const paths = result.urls.map((url) => new URL(url).pathname);
    expect(paths).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks", "/me"]));
    expect(result.urls.every((url) => url.startsWith(`${op.issuer}/`))).toBe(true);
  });

  it("would notice a bypass: without a [customFetch] the library's calls hit the global fetch (and here fail)", async () => {
    const client = browser(oauthConfig([oidcProvider(op)]));
    const bypassed: string[] = [];
    await withGlobalFetchForbidden(async () => {
      const csrfToken = await client.csrf();
      return client.post("/signin/oidc", { csrfToken });
    }, bypassed);
    expect(bypassed).toEqual([`${op.issuer}/.well-known/openid-configuration`]);
  });

  it("sends discovery, token and JWKS requests through it when the profile comes from the ID token", async () => {
    const result = await signIn((fetchSpy) => oidcProvider(op, { [customFetch]: fetchSpy }));
    expect(setsSession(result.callback)).toBe(true);
    expect(result.bypassed).toEqual([]);
    const paths = result.urls.map((url) => new URL(url).pathname);
    expect(paths).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks"]));
  });

  it("sends a plain OAuth 2 provider's token, JWKS and userinfo requests through it", async () => {
    const endpoints = await discover(op);
    const result = await signIn((fetchSpy) => ({
      id: "oidc",
      name: "Plain OAuth",
      type: "oauth",
      issuer: op.issuer,
      clientId: "appauth-confidential",
      clientSecret: "appauth-confidential-secret-0123456789abcdef",
      authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid email profile" } },
      token: endpoints.token_endpoint,
      userinfo: endpoints.userinfo_endpoint,
      jwks_endpoint: endpoints.jwks_uri,
      [customFetch]: fetchSpy,
    }));
    expect(setsSession(result.callback)).toBe(true);
    expect(result.bypassed).toEqual([]);
    expect(result.urls).toEqual(expect.arrayContaining([endpoints.token_endpoint, endpoints.userinfo_endpoint, endpoints.jwks_uri]));
  });

  it("hands it to a custom userinfo request as its fetch", async () => {
    const result = await signIn((fetchSpy) =>
      oidcProvider(op, {
        idToken: false,
        [customFetch]: fetchSpy,
        userinfo: {
          async request({ fetch, tokens }) {
            const response = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
            return (await response.json()) as Record<string, unknown>;
          },
        },
      }),
    );
    expect(setsSession(result.callback)).toBe(true);
    expect(result.bypassed).toEqual([]);
    expect(result.urls).toContain(`${op.issuer}/me`);
  });
});
