/**
 * The authorization code flow against a real OpenID Provider, end to end: the sign-in button's
 * redirect, the OP's login and consent, the callback, and the session that comes out of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  authorizeAt,
  browser,
  CALLBACK_ERROR,
  CHECK_COOKIES,
  deliver,
  discover,
  expectNoSession,
  expectSignedInAs,
  locationOf,
  oauthConfig,
  oidcProvider,
  recordingFetch,
  signInThroughOp,
  startSignIn,
} from "./fixtures.js";
import { customFetch } from "../../../src/symbols.js";

describe("signing in with OpenID Connect against a real OP", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("runs the code flow with PKCE, state and nonce and signs the person in", async () => {
    const client = browser(oauthConfig([oidcProvider(op)]));
    const signIn = await startSignIn(client, "oidc", "/after");
    const authorization = new URL(locationOf(signIn));
    expect(authorization.origin).toBe(op.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "appauth-confidential",
      redirect_uri: `${ORIGIN}/auth/callback/oidc`,
      code_challenge_method: "S256",
      scope: "openid profile email",
    });
    for (const param of ["code_challenge", "state", "nonce"]) expect(authorization.searchParams.get(param)).toBeTruthy();
    expect(client.cookieNames()).toEqual(expect.arrayContaining(Object.values(CHECK_COOKIES)));

    const back = await op.authorize(authorization.href, { accountId: "ada" });
    const callback = await deliver(client, back);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/after`);
    await expectSignedInAs(client, callback, "ada@example.com");
    expect(await client.session()).toMatchObject({
      user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://img.example/ada.png" },
    });
  });

  it("uses PKCE and nonce, without state, when an OIDC provider names no checks", async () => {
    const client = browser(oauthConfig([oidcProvider(op, { checks: undefined })]));
    const authorization = new URL(locationOf(await startSignIn(client)));
    expect(authorization.searchParams.get("code_challenge")).toBeTruthy();
    expect(authorization.searchParams.get("nonce")).toBeTruthy();
    expect(authorization.searchParams.has("state")).toBe(false);
    expect(client.cookieNames()).toEqual(expect.arrayContaining([CHECK_COOKIES.pkce, CHECK_COOKIES.nonce]));
    expect(client.cookieNames()).not.toContain(CHECK_COOKIES.state);

    const callback = await deliver(client, await op.authorize(authorization.href, { accountId: "ada" }));
    await expectSignedInAs(client, callback, "ada@example.com");
  });

  it("signs in with checks: ['none'] as a confidential client the OP does not hold to PKCE", async () => {
    const client = browser(oauthConfig([oidcProvider(op, { checks: ["none"] })]));
    const authorization = new URL(locationOf(await startSignIn(client)));
    for (const param of ["code_challenge", "state", "nonce"]) expect(authorization.searchParams.has(param)).toBe(false);
    expect(client.cookieNames()).not.toEqual(expect.arrayContaining([CHECK_COOKIES.pkce]));

    const callback = await deliver(client, await op.authorize(authorization.href, { accountId: "ada" }));
    await expectSignedInAs(client, callback, "ada@example.com");
  });

  it("signs in as a public client (no secret, token_endpoint_auth_method none) with PKCE", async () => {
    const provider = oidcProvider(op, {
      clientId: PUBLIC_CLIENT.client_id,
      clientSecret: undefined,
      client: { token_endpoint_auth_method: "none" },
    });
    const client = browser(oauthConfig([provider]));
    const callback = await signInThroughOp(op, client, { accountId: "grace" });
    await expectSignedInAs(client, callback, "grace@example.com");
  });

  it("refuses, without a session, when a public client skips PKCE and the OP answers with an error", async () => {
    const provider = oidcProvider(op, { clientId: PUBLIC_CLIENT.client_id, clientSecret: undefined, checks: ["state"] });
    const client = browser(oauthConfig([provider]));
    const back = await authorizeAt(op, client);
    expect(new URL(back.url).searchParams.get("error")).toBe("invalid_request");
    const callback = await deliver(client, back);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
  });

  it("signs in with response_mode=form_post, the OP's form posted to the callback without a CSRF token", async () => {
    const provider = oidcProvider(op, { authorization: { params: { response_mode: "form_post" } } });
    const client = browser(oauthConfig([provider]));
    const back = await authorizeAt(op, client);
    expect(back.method).toBe("POST");
    if (back.method !== "POST") return;
    expect(back.url).toBe(`${ORIGIN}/auth/callback/oidc`);
    expect(Object.keys(back.form)).toEqual(expect.arrayContaining(["code", "state", "iss"]));
    const callback = await client.post(back.url, back.form);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/after`);
    await expectSignedInAs(client, callback, "ada@example.com");
  });

  it("marks the form_post flow's cookies SameSite=None; Secure, so the OP's cross-site POST carries them", async () => {
    const provider = oidcProvider(op, { authorization: { params: { response_mode: "form_post" } } });
    const client = browser(oauthConfig([provider]));
    await startSignIn(client);
    const checks = client.lastSetCookies.filter((c) => (Object.values(CHECK_COOKIES) as string[]).includes(c.name));
    expect(checks).toHaveLength(3);
    for (const cookie of checks) expect(cookie).toMatchObject({ sameSite: "None", secure: true, httpOnly: true });
  });

  it("signs in through a plain OAuth 2 provider given the OP's endpoints and issuer explicitly", async () => {
    const endpoints = await discover(op);
    const fetchSpy = recordingFetch();
    const client = browser(
      oauthConfig([
        {
          id: "oidc",
          name: "Plain OAuth",
          type: "oauth",
          issuer: op.issuer,
          clientId: "appauth-confidential",
          clientSecret: "appauth-confidential-secret-0123456789abcdef",
          authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid email profile" } },
          token: endpoints.token_endpoint,
          userinfo: endpoints.userinfo_endpoint,
          // With scope openid the OP returns an ID token, whose signature is checked against this JWKS.
          jwks_endpoint: endpoints.jwks_uri,
          [customFetch]: fetchSpy,
        },
      ]),
    );
    const signIn = await startSignIn(client);
    const authorization = new URL(locationOf(signIn));
    expect(`${authorization.origin}${authorization.pathname}`).toBe(endpoints.authorization_endpoint);
    expect(authorization.searchParams.get("code_challenge")).toBeTruthy();
    expect(authorization.searchParams.has("nonce")).toBe(false);

    const callback = await deliver(client, await op.authorize(authorization.href, { accountId: "ada" }));
    await expectSignedInAs(client, callback, "ada@example.com");
    // No discovery for a plain OAuth 2 provider: its endpoints were given.
    expect(fetchSpy.urls.some((url) => url.includes("/.well-known/"))).toBe(false);
    expect(fetchSpy.urls).toContain(endpoints.userinfo_endpoint);
  });
});
