/**
 * A redirect proxy: one deployment (say, production) owns the redirect_uri registered at the OP and
 * hands each callback on to the deployment that started the sign-in (say, a preview), named in
 * `state` sealed with the secret both share. The preview then completes the sign-in itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN, SECRET } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  BASE_URL,
  browser,
  CALLBACK_ERROR,
  expectNoSession,
  expectSignedInAs,
  locationOf,
  oauthConfig,
  oidcProvider,
  startSignIn,
} from "./fixtures.js";

const PROXY_BASE = "https://auth-proxy.example/auth";
const PROXY_CALLBACK = `${PROXY_BASE}/callback/oidc`;

describe("signing in through a redirect proxy", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider({ clients: [{ ...CONFIDENTIAL_CLIENT, redirect_uris: [PROXY_CALLBACK] }] });
  });
  afterAll(() => op.close());

  /** The deployment that starts sign-ins (on the default origin), and the proxy that owns the redirect_uri. */
  function deployments(options: { proxySecret?: string } = {}) {
    const preview = oauthConfig([oidcProvider(op, { checks: undefined })], { redirectProxyUrl: PROXY_BASE });
    const proxy = oauthConfig([oidcProvider(op, { checks: undefined })], {
      redirectProxyUrl: PROXY_BASE,
      secret: options.proxySecret ?? SECRET,
    });
    return { preview, proxy };
  }

  it("asks the OP to send the person back to the proxy's callback, with a state even when no check asks for one", async () => {
    const { preview } = deployments();
    const authorization = new URL(locationOf(await startSignIn(browser(preview))));
    expect(authorization.searchParams.get("redirect_uri")).toBe(PROXY_CALLBACK);
    expect(authorization.searchParams.get("state")).toBeTruthy();
  });

  it("hands the callback on to the deployment named in state, which completes the sign-in", async () => {
    const { preview, proxy } = deployments();
    const person = browser(preview);
    const back = await op.authorize(locationOf(await startSignIn(person, "oidc", "/after")), { accountId: "ada" });
    expect(back.url.startsWith(`${PROXY_CALLBACK}?`)).toBe(true);

    const atProxy = await browser(proxy, PROXY_BASE).get(back.url);
    expect(atProxy.status).toBe(302);
    const handedOn = new URL(atProxy.headers.get("location")!);
    expect(`${handedOn.origin}${handedOn.pathname}`).toBe(`${BASE_URL}/callback/oidc`);
    expect(Object.fromEntries(handedOn.searchParams)).toEqual(Object.fromEntries(new URL(back.url).searchParams));
    expect(atProxy.headers.getSetCookie()).toEqual([]);

    const callback = await person.get(handedOn.href);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/after`);
    await expectSignedInAs(person, callback, "ada@example.com");
  });

  it("does not hand on a callback whose state was sealed with another secret", async () => {
    const { preview, proxy } = deployments({ proxySecret: "another-secret-0f1e2d3c4b5a69788796a5b4c3d2e1f0" });
    const back = await op.authorize(locationOf(await startSignIn(browser(preview))), { accountId: "ada" });
    const proxyBrowser = browser(proxy, PROXY_BASE);
    const atProxy = await proxyBrowser.get(back.url);
    expect(atProxy.headers.get("location")).toBe(`${PROXY_BASE}/signin?error=OAuthCallbackError`);
    await expectNoSession(proxyBrowser, atProxy);
  });

  it("refuses at the starting deployment a handed-on callback whose state was altered", async () => {
    const { preview, proxy } = deployments();
    const person = browser(preview);
    const back = await op.authorize(locationOf(await startSignIn(person)), { accountId: "ada" });
    const handedOn = new URL((await browser(proxy, PROXY_BASE).get(back.url)).headers.get("location")!);
    handedOn.searchParams.set("state", `${handedOn.searchParams.get("state")}x`);
    const callback = await person.get(handedOn.href);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(person, callback);
  });
});
