/**
 * Which checks a plain OAuth 2 provider runs when it names none (RFC 9700 §2.1.1): PKCE alone only
 * where the server's metadata says it supports PKCE `S256`; a server with no metadata, or metadata
 * without S256, may ignore the code challenge, so `state` guards the callback too. Against the real
 * OP, reached with explicit endpoints (no metadata) or through its discovery document (`wellKnown`),
 * once as published (S256 listed) and once with `code_challenge_methods_supported` taken out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthProviderConfig, ProviderFetch } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  browser,
  CALLBACK_ERROR,
  CHECK_COOKIES,
  deliver,
  discover,
  expectNoSession,
  expectSignedInAs,
  locationOf,
  oauthConfig,
  startSignIn,
} from "./fixtures.js";

let op: TestProvider;
let endpoints: Awaited<ReturnType<typeof discover>>;

beforeAll(async () => {
  op = await startTestProvider();
  endpoints = await discover(op);
});
afterAll(() => op.close());

const DISCOVERY = "/.well-known/openid-configuration";

/** A plain OAuth 2 provider at the OP (type `oauth`), as the confidential client, naming no checks. */
function plainOAuth(overrides: Partial<OAuthProviderConfig> = {}): OAuthProviderConfig {
  return {
    id: "oidc",
    name: "Plain OAuth",
    type: "oauth",
    issuer: op.issuer,
    clientId: CONFIDENTIAL_CLIENT.client_id,
    clientSecret: CONFIDENTIAL_CLIENT.client_secret!,
    authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid email profile" } },
    token: endpoints.token_endpoint,
    userinfo: endpoints.userinfo_endpoint,
    jwks_endpoint: endpoints.jwks_uri,
    ...overrides,
  };
}

/** The OP's discovery document without `code_challenge_methods_supported`; every other request goes to the OP. */
const withoutPkceMetadata: ProviderFetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  if (new URL(request.url).pathname !== DISCOVERY) return response;
  const { code_challenge_methods_supported: _dropped, ...metadata } = (await response.json()) as Record<string, unknown>;
  return Response.json(metadata);
};

/** Starts a sign-in; the authorization URL's check parameters and the check cookies the browser got. */
async function checksSent(provider: OAuthProviderConfig) {
  const config = oauthConfig([provider]);
  const client = browser(config);
  const authorization = new URL(locationOf(await startSignIn(client)));
  return { client, authorization, state: authorization.searchParams.get("state"), cookies: client.cookieNames() };
}

describe("a plain OAuth 2 provider that names no checks", () => {
  it("sends state as well as PKCE when it has no metadata, and refuses a callback without it", async () => {
    const { client, authorization, state, cookies } = await checksSent(plainOAuth());
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(state).toBeTruthy();
    expect(cookies).toEqual(expect.arrayContaining([CHECK_COOKIES.pkce, CHECK_COOKIES.state]));

    const back = await op.authorize(authorization.href, { accountId: "ada" });
    const stripped = new URL(back.url);
    stripped.searchParams.delete("state");
    const refused = await client.get(stripped.href);
    expect(refused.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, refused);
  });

  it("signs in with state and PKCE when it has no metadata", async () => {
    const { client, authorization } = await checksSent(plainOAuth());
    await expectSignedInAs(client, await deliver(client, await op.authorize(authorization.href, { accountId: "ada" })), "ada@example.com");
  });

  it("sends state as well when its metadata does not list PKCE S256, and signs in", async () => {
    const provider = plainOAuth({ wellKnown: `${op.issuer}${DISCOVERY}`, [customFetch]: withoutPkceMetadata });
    const { client, authorization, state, cookies } = await checksSent(provider);
    expect(state).toBeTruthy();
    expect(cookies).toContain(CHECK_COOKIES.state);
    await expectSignedInAs(client, await deliver(client, await op.authorize(authorization.href, { accountId: "ada" })), "ada@example.com");
  });

  it("relies on PKCE alone when its metadata lists S256", async () => {
    const { client, authorization, state, cookies } = await checksSent(plainOAuth({ wellKnown: `${op.issuer}${DISCOVERY}` }));
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(state).toBeNull();
    expect(cookies).not.toContain(CHECK_COOKIES.state);
    await expectSignedInAs(client, await deliver(client, await op.authorize(authorization.href, { accountId: "ada" })), "ada@example.com");
  });

  it("keeps the checks a provider names, even without metadata", async () => {
    const { state, cookies } = await checksSent(plainOAuth({ checks: ["pkce"] }));
    expect(state).toBeNull();
    expect(cookies).not.toContain(CHECK_COOKIES.state);
  });
});
