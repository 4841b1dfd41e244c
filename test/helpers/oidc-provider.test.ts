/**
 * The test OP (oidc-provider on loopback) does what the OAuth/OIDC tests rely on: discovery with
 * RFC 9207 `iss` and form_post, code flow with PKCE driven without a browser, refusals, refresh
 * tokens for offline_access, single-use codes. Then its sessions: a browser that keeps one, refresh
 * token rotation and revocation, access-token lifetime, RP-initiated and back-channel logout. Then
 * the demo's OP, signed into with Chromium.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoProvider, type DemoProvider } from "../../demo/op/index.js";
import { ORIGIN } from "./config.js";
import {
  authenticateClient,
  CONFIDENTIAL_CLIENT,
  FAPI2_FEATURES,
  PUBLIC_CLIENT,
  startTestProvider,
  TEST_ACCOUNTS,
  type AuthorizationOutcome,
  type TestBrowser,
  type TestClient,
  type TestProvider,
} from "./oidc-provider.js";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.js";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  [key: string]: unknown;
}

interface Pkce {
  verifier: string;
  challenge: string;
}

function pkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizationUrl(
  endpoint: string,
  client: TestClient,
  params: { scope?: string; state?: string; nonce?: string; challenge?: string; [param: string]: string | undefined },
): string {
  const { challenge, ...rest } = params;
  const url = new URL(endpoint);
  const all: Record<string, string | undefined> = {
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    response_type: "code",
    scope: "openid email profile",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
    ...rest,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The token request of RFC 6749 §4.1.3, client authentication as the client registered it. */
function exchangeCode(tokenEndpoint: string, client: TestClient, code: string, verifier?: string): Promise<Response> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0] ?? "" });
  if (verifier) body.set("code_verifier", verifier);
  return tokenRequest(tokenEndpoint, client, body);
}

function tokenRequest(tokenEndpoint: string, client: TestClient, body: URLSearchParams): Promise<Response> {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  authenticateClient(client, headers, body);
  return fetch(tokenEndpoint, { method: "POST", headers, body });
}

function redirectParams(outcome: AuthorizationOutcome): URLSearchParams {
  expect(outcome.method).toBe("GET");
  return new URL(outcome.url).searchParams;
}

describe("the test OpenID Provider", () => {
  let op: TestProvider;
  let discovery: Discovery;

  beforeAll(async () => {
    op = await startTestProvider();
    const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
    discovery = (await response.json()) as Discovery;
  });
  afterAll(() => op.close());

  it("serves discovery on loopback http, announcing iss in authorization responses and form_post", () => {
    expect(op.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(discovery.issuer).toBe(op.issuer);
    expect(discovery).toMatchObject({
      authorization_response_iss_parameter_supported: true,
      code_challenge_methods_supported: ["S256"],
      backchannel_logout_supported: true,
      claims_parameter_supported: true,
    });
    expect(discovery.response_modes_supported).toEqual(expect.arrayContaining(["query", "form_post"]));
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    for (const endpoint of ["userinfo_endpoint", "revocation_endpoint", "introspection_endpoint", "end_session_endpoint"]) {
      expect(discovery[endpoint]).toMatch(new RegExp(`^${op.issuer}/`));
    }
  });

  it("runs the code flow with PKCE: redirect with code, state and iss, then an ID token signed by its RS256 key", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "s-1", nonce: "n-1", challenge });
    const params = redirectParams(await op.authorize(url, { accountId: "ada" }));
    expect(params.get("state")).toBe("s-1");
    expect(params.get("iss")).toBe(op.issuer);
    const code = params.get("code");
    expect(code).toEqual(expect.any(String));

    const before = op.grants.authorization_code ?? 0;
    const response = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "", verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: "Bearer", access_token: expect.any(String), id_token: expect.any(String) });
    expect(tokens.refresh_token).toBeUndefined();
    expect(op.grants.authorization_code).toBe(before + 1);

    const { payload, protectedHeader } = await jwtVerify(String(tokens.id_token), createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: op.issuer,
      audience: CONFIDENTIAL_CLIENT.client_id,
    });
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: op.signingKeys[0]?.kid });
    expect(payload).toMatchObject({ sub: "ada", nonce: "n-1", email: "ada@example.com", email_verified: true, name: "Ada Lovelace" });
  });

  it("lets a confidential client leave PKCE out", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "s-2" });
    const code = redirectParams(await op.authorize(url)).get("code");
    const response = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "");
    expect(response.status).toBe(200);
  });

  it("runs a public client's flow with PKCE, and refuses one without it", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, PUBLIC_CLIENT, { state: "p-1", challenge });
    const code = redirectParams(await op.authorize(url, { accountId: "grace" })).get("code");
    const response = await exchangeCode(discovery.token_endpoint, PUBLIC_CLIENT, code ?? "", verifier);
    expect(response.status).toBe(200);
    const { id_token } = (await response.json()) as { id_token: string };
    const claims = JSON.parse(Buffer.from(id_token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: "grace", email_verified: false });

    const withoutPkce = authorizationUrl(discovery.authorization_endpoint, PUBLIC_CLIENT, { state: "p-2" });
    const refused = redirectParams(await op.authorize(withoutPkce));
    expect(refused.get("error")).toBe("invalid_request");
    expect(refused.get("code")).toBeNull();
  });

  it("sends access_denied back to the client when the user denies", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "d-1", challenge: pkce().challenge });
    const outcome = await op.authorize(url, { deny: true });
    expect(outcome.url.startsWith(`${CONFIDENTIAL_CLIENT.redirect_uris[0]}?`)).toBe(true);
    const params = redirectParams(outcome);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("d-1");
    expect(params.get("iss")).toBe(op.issuer);
    expect(params.get("code")).toBeNull();
  });

  it("answers response_mode=form_post with the form the browser would post to the redirect_uri", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, {
      state: "f-1",
      challenge: pkce().challenge,
      response_mode: "form_post",
    });
    const outcome = await op.authorize(url);
    expect(outcome).toMatchObject({ method: "POST", url: CONFIDENTIAL_CLIENT.redirect_uris[0] });
    if (outcome.method !== "POST") throw new Error("unreachable");
    expect(outcome.form).toEqual({ code: expect.any(String), state: "f-1", iss: op.issuer });
  });

  it("issues a refresh token for offline_access with prompt=consent, and refreshes with it", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, {
      scope: "openid email offline_access",
      prompt: "consent",
      state: "r-1",
      challenge,
    });
    const code = redirectParams(await op.authorize(url)).get("code");
    const tokens = (await (await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "", verifier)).json()) as Record<string, string>;
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(" ")).toContain("offline_access");

    const before = op.grants.refresh_token ?? 0;
    const refreshed = await tokenRequest(
      discovery.token_endpoint,
      CONFIDENTIAL_CLIENT,
      new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "" }),
    );
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) });
    expect(op.grants.refresh_token).toBe(before + 1);
  });

  it("refuses a second use of the same code with invalid_grant", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "c-1", challenge });
    const code = redirectParams(await op.authorize(url)).get("code") ?? "";
    expect((await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code, verifier)).status).toBe(200);
    const replay = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps profile claims out of the ID token with claimsInIdToken: false, and serves them from UserInfo", async () => {
    const strict = await startTestProvider({ features: { claimsInIdToken: false } });
    try {
      const { verifier, challenge } = pkce();
      const url = authorizationUrl(`${strict.issuer}/auth`, CONFIDENTIAL_CLIENT, { state: "u-1", challenge });
      const code = redirectParams(await strict.authorize(url)).get("code") ?? "";
      const tokens = (await (await exchangeCode(`${strict.issuer}/token`, CONFIDENTIAL_CLIENT, code, verifier)).json()) as Record<string, string>;
      const claims = JSON.parse(Buffer.from(tokens.id_token?.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
      expect(claims.sub).toBe("ada");
      expect(claims.email).toBeUndefined();
      const userinfo = await fetch(`${strict.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(await userinfo.json()).toEqual({ sub: "ada", ...TEST_ACCOUNTS.ada });
    } finally {
      await strict.close();
    }
  });

  it("rejects, rather than redirects, a request it cannot send back to the client", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, { ...CONFIDENTIAL_CLIENT, redirect_uris: ["http://evil.example/cb"] }, {});
    await expect(op.authorize(url)).rejects.toThrow(/redirect_uri/);
  });
});

/** A stand-in for RPs' back-channel logout endpoints: records every POST; `/backchannel/failing` answers 500. */
interface LogoutReceiver {
  url: string;
  received: { path: string; contentType: string | undefined; logoutToken: string | null }[];
  close(): Promise<void>;
}

async function startLogoutReceiver(): Promise<LogoutReceiver> {
  const received: LogoutReceiver["received"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      received.push({ path: req.url ?? "", contentType: req.headers["content-type"], logoutToken: body.get("logout_token") });
      res.writeHead(req.url === "/backchannel/failing" ? 500 : 200, { "cache-control": "no-store" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
}

const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
const SIGNED_OUT_URI = `${ORIGIN}/signed-out`;
/** What `signIn` asks for; a `prompt=none` request for more would need consent (`consent_required`). */
const SCOPE = "openid email";

describe("the test OP set up for FAPI 2.0", () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({ features: FAPI2_FEATURES });
  });
  afterAll(() => op.close());

  it("advertises required PAR, request objects and the JWT response modes", async () => {
    const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Discovery;
    expect(discovery).toMatchObject({
      require_pushed_authorization_requests: true,
      pushed_authorization_request_endpoint: `${op.issuer}/request`,
      request_parameter_supported: true,
    });
    expect(discovery.response_modes_supported).toEqual(expect.arrayContaining(["jwt", "query.jwt", "form_post.jwt"]));
    expect(discovery.token_endpoint_auth_methods_supported).toContain("private_key_jwt");
  });

  it("refuses an authorization request that was not pushed", async () => {
    const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Discovery;
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { challenge: pkce().challenge, state: "s" });
    const outcome = await op.authorize(url).catch((error: unknown) => ({ url: String(error), method: "GET" as const }));
    expect(outcome.url).toMatch(/invalid_request|pushed authorization request/i);
  });
});

describe("the test OP's sessions: a browser that keeps one, refresh, revocation, logout", () => {
  let op: TestProvider;
  let receiver: LogoutReceiver;
  /** A public client that asks for `sid` and back-channel logout, and may be sent back after logout. */
  let spa: TestClient;
  /** A confidential client with back-channel logout but without `backchannel_logout_session_required`. */
  let web: TestClient;
  /** A client whose back-channel endpoint answers 500. */
  let broken: TestClient;

  beforeAll(async () => {
    receiver = await startLogoutReceiver();
    spa = {
      ...PUBLIC_CLIENT,
      client_id: "appauth-spa",
      post_logout_redirect_uris: [SIGNED_OUT_URI],
      backchannel_logout_uri: `${receiver.url}/backchannel/spa`,
      backchannel_logout_session_required: true,
    };
    web = { ...CONFIDENTIAL_CLIENT, client_id: "appauth-web", backchannel_logout_uri: `${receiver.url}/backchannel/web` };
    broken = {
      ...PUBLIC_CLIENT,
      client_id: "appauth-broken",
      backchannel_logout_uri: `${receiver.url}/backchannel/failing`,
      backchannel_logout_session_required: true,
    };
    op = await startTestProvider({ clients: [spa, web, broken] });
  });
  afterAll(async () => {
    await op?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    op.backchannelDeliveries.length = 0;
    receiver.received.length = 0;
  });

  /** The code flow in `browser` for `client`, with PKCE; the token response. */
  async function signIn(browser: TestBrowser, client: TestClient, params: Record<string, string> = {}): Promise<Tokens> {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(`${op.issuer}/auth`, client, { scope: SCOPE, state: "in-1", challenge, ...params });
    const code = redirectParams(await browser.authorize(url, { accountId: "ada" })).get("code");
    expect(code).toEqual(expect.any(String));
    const response = await exchangeCode(`${op.issuer}/token`, client, code ?? "", verifier);
    expect(response.status).toBe(200);
    return (await response.json()) as Tokens;
  }

  function refresh(client: TestClient, refreshToken: string | undefined, issuer = op.issuer): Promise<Response> {
    return tokenRequest(`${issuer}/token`, client, new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken ?? "" }));
  }

  function silently(browser: TestBrowser, client: TestClient): Promise<URLSearchParams> {
    const url = authorizationUrl(`${op.issuer}/auth`, client, { scope: SCOPE, prompt: "none", state: "pn", challenge: pkce().challenge });
    return browser.authorize(url).then(redirectParams);
  }

  function userinfoStatus(accessToken: string): Promise<number> {
    return fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then(async (response) => {
      await response.body?.cancel();
      return response.status;
    });
  }

  it("serves a public client playing the RP with oauth4webapi: PKCE, offline_access with prompt=consent, refreshes that rotate", async () => {
    const insecure = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(op.issuer);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    const client: oauth.Client = { client_id: spa.client_id };
    const redirectUri = spa.redirect_uris[0] ?? "";
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint ?? "");
    for (const [name, value] of Object.entries({
      client_id: spa.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid offline_access",
      prompt: "consent",
      state: "o4w-state",
      nonce: "o4w-nonce",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    })) {
      url.searchParams.set(name, value);
    }

    const back = await op.authorize(url.href);
    const params = oauth.validateAuthResponse(as, client, new URL(back.url), "o4w-state");
    const code = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, code, { expectedNonce: "o4w-nonce", requireIdToken: true });
    expect(tokens.scope?.split(" ")).toEqual(expect.arrayContaining(["openid", "offline_access"]));
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const first = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? "", insecure),
    );
    expect(first.refresh_token).toEqual(expect.any(String));
    expect(first.refresh_token).not.toBe(tokens.refresh_token);
    expect(first.access_token).not.toBe(tokens.access_token);
    expect(oauth.getValidatedIdTokenClaims(first)?.sub).toBe("ada");
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token ?? "", insecure),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // A rotated-out refresh token is refused, and oidc-provider takes it for theft: the grant is
    // revoked, so the newest refresh token fails as well.
    const reused = await refresh(spa, first.refresh_token);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    expect(await (await refresh(spa, second.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses, in revokeRefreshToken, to let another client revoke a refresh token, which then still works", async () => {
    const tokens = await signIn(op.browser(), spa, { scope: "openid offline_access", prompt: "consent" });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await userinfoStatus(tokens.access_token)).toBe(200);

    await expect(op.revokeRefreshToken(tokens.refresh_token ?? "", web)).rejects.toThrow(/does not belong to you/);
    expect((await refresh(spa, tokens.refresh_token)).status).toBe(200);
  });

  it("revokes a public client's refresh token with its client_id alone: then invalid_grant, and the grant's access tokens are dead too", async () => {
    const tokens = await signIn(op.browser(), spa, { scope: "openid offline_access", prompt: "consent" });
    await op.revokeRefreshToken(tokens.refresh_token ?? "", spa);
    const refused = await refresh(spa, tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });

  it("answers expires_in with features.ttl.AccessToken, for the code grant and for refreshes (default 300)", async () => {
    const tokens = await signIn(op.browser(), spa, { scope: "openid offline_access", prompt: "consent" });
    expect(tokens.expires_in).toBe(300);

    const shortLived = await startTestProvider({ features: { ttl: { AccessToken: 42 } } });
    try {
      const { verifier, challenge } = pkce();
      const url = authorizationUrl(`${shortLived.issuer}/auth`, PUBLIC_CLIENT, { scope: "openid offline_access", prompt: "consent", challenge });
      const code = redirectParams(await shortLived.authorize(url)).get("code") ?? "";
      const issued = (await (await exchangeCode(`${shortLived.issuer}/token`, PUBLIC_CLIENT, code, verifier)).json()) as Tokens;
      expect(issued.expires_in).toBe(42);
      const refreshed = (await (await refresh(PUBLIC_CLIENT, issued.refresh_token, shortLived.issuer)).json()) as Tokens;
      expect(refreshed.expires_in).toBe(42);
    } finally {
      await shortLived.close();
    }
  });

  it("keeps the OP session in a browser: prompt=none is answered at once, without asking who; a fresh browser gets login_required", async () => {
    const browser = op.browser();
    const first = await signIn(browser, spa);

    const { verifier, challenge } = pkce();
    const url = authorizationUrl(`${op.issuer}/auth`, spa, { scope: SCOPE, prompt: "none", state: "pn-1", challenge });
    // Grace is not asked for: the OP has Ada's session and logs nobody in.
    const params = redirectParams(await browser.authorize(url, { accountId: "grace" }));
    expect(params.get("state")).toBe("pn-1");
    const again = (await (await exchangeCode(`${op.issuer}/token`, spa, params.get("code") ?? "", verifier)).json()) as Tokens;
    expect(decodeJwt(again.id_token)).toMatchObject({ sub: "ada", sid: decodeJwt(first.id_token).sid });

    expect((await silently(op.browser(), spa)).get("error")).toBe("login_required");
    expect(redirectParams(await op.authorize(url)).get("error")).toBe("login_required");
  });

  it("ends the OP session at RP-initiated logout: back to post_logout_redirect_uri with state, then prompt=none gets login_required", async () => {
    const browser = op.browser();
    const tokens = await signIn(browser, spa);
    expect((await silently(browser, spa)).get("code")).toEqual(expect.any(String));

    const url = new URL(`${op.issuer}/session/end`);
    url.searchParams.set("id_token_hint", tokens.id_token);
    url.searchParams.set("post_logout_redirect_uri", SIGNED_OUT_URI);
    url.searchParams.set("state", "bye-1");
    url.searchParams.set("client_id", spa.client_id);
    expect(await browser.endSession(url.href)).toEqual({ url: `${SIGNED_OUT_URI}?state=bye-1` });

    expect((await silently(browser, spa)).get("error")).toBe("login_required");
    // Without offline_access the tokens were bound to the session, so they ended with it.
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    expect(op.backchannelDeliveries).toEqual([expect.objectContaining({ clientId: spa.client_id, outcome: "delivered" })]);
  });

  it("keeps an offline_access refresh token working after the OP session ended", async () => {
    const browser = op.browser();
    const tokens = await signIn(browser, spa, { scope: "openid offline_access", prompt: "consent" });
    expect(await browser.signOutAtProvider()).toEqual({ page: "signed-out" });
    expect((await silently(browser, spa)).get("error")).toBe("login_required");
    expect((await refresh(spa, tokens.refresh_token)).status).toBe(200);
  });

  it("rejects an end_session request the OP refuses, with its message, and the session lives on", async () => {
    const browser = op.browser();
    const tokens = await signIn(browser, spa);
    const url = new URL(`${op.issuer}/session/end`);
    url.searchParams.set("id_token_hint", tokens.id_token);
    url.searchParams.set("post_logout_redirect_uri", "https://evil.example/bye");
    await expect(browser.endSession(url.href)).rejects.toThrow(/invalid_request \(post_logout_redirect_uri not registered\)/);
    expect((await silently(browser, spa)).get("code")).toEqual(expect.any(String));
  });

  it("signs a browser without a session out too, through the OP's self-submitting form", async () => {
    const url = new URL(`${op.issuer}/session/end`);
    url.searchParams.set("client_id", spa.client_id);
    url.searchParams.set("post_logout_redirect_uri", SIGNED_OUT_URI);
    url.searchParams.set("state", "bye-2");
    expect(await op.browser().endSession(url.href)).toEqual({ url: `${SIGNED_OUT_URI}?state=bye-2` });
    expect(await op.browser().signOutAtProvider()).toEqual({ page: "signed-out" });
    expect(op.backchannelDeliveries).toEqual([]);
  });

  it("POSTs a logout token to each client of the session when the user signs out at the OP; with session_required its sid is the ID token's", async () => {
    const browser = op.browser();
    const spaTokens = await signIn(browser, spa);
    const webTokens = await signIn(browser, web);
    const sid = decodeJwt(spaTokens.id_token).sid;
    expect(sid).toEqual(expect.any(String));
    expect(decodeJwt(webTokens.id_token).sid).toBeUndefined();

    expect(await browser.signOutAtProvider()).toEqual({ page: "signed-out" });

    const toSpa = op.backchannelDeliveries.find((delivery) => delivery.clientId === spa.client_id);
    const toWeb = op.backchannelDeliveries.find((delivery) => delivery.clientId === web.client_id);
    expect(op.backchannelDeliveries).toHaveLength(2);
    expect(toSpa).toMatchObject({ uri: spa.backchannel_logout_uri, sub: "ada", sid, outcome: "delivered" });
    expect(toWeb).toMatchObject({ uri: web.backchannel_logout_uri, sub: "ada", outcome: "delivered" });
    expect(toWeb?.sid).toBeUndefined();
    expect(receiver.received).toEqual(
      expect.arrayContaining([
        { path: "/backchannel/spa", contentType: "application/x-www-form-urlencoded", logoutToken: toSpa?.logoutToken },
        { path: "/backchannel/web", contentType: "application/x-www-form-urlencoded", logoutToken: toWeb?.logoutToken },
      ]),
    );

    const { payload, protectedHeader } = await jwtVerify(toSpa?.logoutToken ?? "", createRemoteJWKSet(new URL(`${op.issuer}/jwks`)), {
      issuer: op.issuer,
      audience: spa.client_id,
      typ: "logout+jwt",
    });
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: op.signingKeys[0]?.kid });
    expect(payload).toMatchObject({ sub: "ada", sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, jti: expect.any(String) });
    expect(payload.nonce).toBeUndefined();
    expect(decodeJwt(toWeb?.logoutToken ?? "")).toMatchObject({ sub: "ada", aud: web.client_id, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(decodeJwt(toWeb?.logoutToken ?? "").sid).toBeUndefined();
  });

  it("records a back-channel delivery the client refused, and signs out regardless", async () => {
    const browser = op.browser();
    await signIn(browser, broken);
    expect(await browser.signOutAtProvider()).toEqual({ page: "signed-out" });
    expect(op.backchannelDeliveries).toEqual([
      expect.objectContaining({ clientId: broken.client_id, outcome: "failed", status: 500, error: expect.stringMatching(/500/) }),
    ]);
    expect(op.backchannelDeliveries[0]?.logoutToken).toBe(receiver.received[0]?.logoutToken);
    expect((await silently(browser, broken)).get("error")).toBe("login_required");
  });
});

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/", import.meta.url));
const hasChromium = existsSync(CHROMIUM);
const MISSING = `Chromium is not installed at ${CHROMIUM}: the demo OP's browser test needs it (apt-get install chromium).`;

if (!hasChromium && process.env.CI !== "true") console.warn(`\n⚠️  SKIPPING the demo OP's Chromium test. ${MISSING}\n`);
if (!hasChromium && process.env.CI === "true") {
  describe("the demo OP's browser environment", () => {
    it("has Chromium installed, because CI=true does not allow skipping the browser tests", () => {
      expect.fail(MISSING);
    });
  });
}

describe.runIf(hasChromium)("the demo OpenID Provider in Chromium", () => {
  let op: DemoProvider;
  let browser: Browser;
  let dataDir: string;
  /** A stand-in for the demo app: it records the callback requests it gets. */
  let app: Server;
  let redirectUri: string;
  const callbacks: URL[] = [];

  beforeAll(async () => {
    app = createServer((req, res) => {
      callbacks.push(new URL(req.url ?? "/", redirectUri));
      res.writeHead(200, { "content-type": "text/plain" }).end("back at the app");
    });
    await new Promise<void>((resolve) => app.listen(0, "localhost", resolve));
    redirectUri = `http://localhost:${(app.address() as AddressInfo).port}/api/auth/callback/demo-id`;
    dataDir = await mkdtemp(join(tmpdir(), "appauth-demo-op-"));
    op = await startDemoProvider({ port: 0, redirectUris: [redirectUri], dataDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await op?.close();
    app?.closeAllConnections();
    await new Promise((resolve) => app?.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("signs a demo person in through its login and consent pages and redirects with a code", async () => {
    const { verifier, challenge } = pkce();
    const client: TestClient = { client_id: op.clientId, token_endpoint_auth_method: "client_secret_basic", redirect_uris: [redirectUri] };
    const url = authorizationUrl(`${op.issuer}/auth`, client, { state: "demo-1", nonce: "demo-n", challenge });

    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.getByText("appauth demo identity provider").count()).toBe(1);
    expect(await page.getByText("no real account needed").count()).toBe(1);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "op-login.png"), fullPage: true });

    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("heading", { name: /wants to/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "op-consent.png"), fullPage: true });
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${redirectUri}?**`);
    expect(await page.textContent("body")).toContain("back at the app");

    const landedAt = callbacks.find((callback) => callback.pathname === new URL(redirectUri).pathname);
    expect(landedAt?.searchParams.get("state")).toBe("demo-1");
    expect(landedAt?.searchParams.get("iss")).toBe(op.issuer);
    const code = landedAt?.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const response = await exchangeCode(`${op.issuer}/token`, { ...client, client_secret: op.clientSecret }, code, verifier);
    expect(response.status).toBe(200);
    const { id_token } = (await response.json()) as { id_token: string };
    const claims = JSON.parse(Buffer.from(id_token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: "demo-ada", email: "ada@example.test", email_verified: true, name: "Ada Lovelace", nonce: "demo-n" });
    await page.close();
  });

  it("keeps its keys and client secret in the data folder, so a restart changes neither", async () => {
    const stored = JSON.parse(await readFile(join(dataDir, "op-keys.json"), "utf8")) as { clientSecrets: Record<string, string> };
    expect(stored.clientSecrets[op.clientId]).toBe(op.clientSecret);
    const jwks: unknown = await (await fetch(`${op.issuer}/jwks`)).json();
    const again = await startDemoProvider({ port: 0, redirectUris: [redirectUri], dataDir });
    try {
      expect(again.clientSecret).toBe(op.clientSecret);
      expect(await (await fetch(`${again.issuer}/jwks`)).json()).toEqual(jwks);
    } finally {
      await again.close();
    }
  });
});
