/**
 * DESIGN §4: OAuth/OIDC endpoints must be https, except on loopback hosts, where plain http works
 * without any option. A plain-http endpoint elsewhere is a configuration fault: reported as
 * `Configuration`, logged as `InvalidEndpoints`, and never a session. No request leaves for it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { OAuthProviderConfig } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import {
  BASE_URL,
  browser,
  expectNoSession,
  expectSignedInAs,
  locationOf,
  loggedErrors,
  oauthConfig,
  oidcProvider,
  signInThroughOp,
  startSignIn,
} from "./fixtures.js";

const CONFIGURATION_ERROR = `${BASE_URL}/error?error=Configuration`;

/** The answer to a configuration fault: the 500 page, or the error page's `Configuration`. */
function reportsConfigurationFault(response: Response): boolean {
  return response.status === 500 || response.headers.get("location") === CONFIGURATION_ERROR;
}

function plainOAuth(endpoints: { authorization: string; token: string; userinfo: string }): OAuthProviderConfig {
  return { id: "oidc", name: "Remote", type: "oauth", clientId: "id", clientSecret: "secret", ...endpoints };
}

describe("plain http only on loopback", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider({ host: "localhost" });
  });
  afterAll(() => op.close());

  it("signs in against an OP on http://localhost without any option", async () => {
    expect(op.issuer).toMatch(/^http:\/\/localhost:\d+$/);
    const client = browser(oauthConfig([oidcProvider(op)]));
    await expectSignedInAs(client, await signInThroughOp(op, client), "ada@example.com");
  });

  it("refuses an http issuer that is not loopback: Configuration, logged InvalidEndpoints, nothing fetched", async () => {
    const fetchSpy = vi.fn<typeof fetch>(() => Promise.reject(new Error("must not be called")));
    const config = oauthConfig([oidcProvider(op, { issuer: "http://op.example", [customFetch]: fetchSpy })]);
    const client = browser(config);
    const signIn = await startSignIn(client);
    expect(reportsConfigurationFault(signIn)).toBe(true);
    expect(config.logger.codes("error")).toContain("InvalidEndpoints");
    expect(loggedErrors(config)).toMatch(/http:\/\/op\.example/);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(await client.session()).toBeNull();
  });

  it("answers a callback at such a provider with Configuration too, never a session", async () => {
    // No checks, so nothing refuses the callback before the provider's endpoints are needed.
    const config = oauthConfig([oidcProvider(op, { issuer: "http://op.example", checks: ["none"] })]);
    const client = browser(config);
    const callback = await client.get("/callback/oidc?code=abc&state=def&iss=http%3A%2F%2Fop.example");
    expect(reportsConfigurationFault(callback)).toBe(true);
    expect(config.logger.codes("error")).toContain("InvalidEndpoints");
    await expectNoSession(client, callback);
  });

  it("refuses explicit http endpoints on a host that is not loopback", async () => {
    const config = oauthConfig([
      plainOAuth({ authorization: "http://op.example/authorize", token: "http://op.example/token", userinfo: "http://op.example/me" }),
    ]);
    const signIn = await startSignIn(browser(config));
    expect(reportsConfigurationFault(signIn)).toBe(true);
    expect(config.logger.codes("error")).toContain("InvalidEndpoints");
  });

  it("refuses an http token endpoint on another host even when the rest is https", async () => {
    const config = oauthConfig([
      plainOAuth({ authorization: "https://op.example/authorize", token: "http://op.example/token", userinfo: "https://op.example/me" }),
    ]);
    const signIn = await startSignIn(browser(config));
    expect(reportsConfigurationFault(signIn)).toBe(true);
    expect(loggedErrors(config)).toMatch(/token endpoint/);
  });

  it("accepts https endpoints on any host: the sign-in redirects to the authorization endpoint", async () => {
    const config = oauthConfig([
      plainOAuth({ authorization: "https://op.example/authorize", token: "https://op.example/token", userinfo: "https://op.example/me" }),
    ]);
    const authorization = new URL(locationOf(await startSignIn(browser(config))));
    expect(`${authorization.origin}${authorization.pathname}`).toBe("https://op.example/authorize");
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${BASE_URL}/callback/oidc`);
    expect(config.logger.codes("error")).toEqual([]);
  });
});
