/**
 * A fault of the server's configuration stays visible: the request that meets it answers 500 with
 * the Configuration page and the fault is logged in full. The error page itself, asked for
 * `?error=Configuration` by any link, answers 400: only the server's own fault is a 5xx.
 */
import { describe, expect, it } from "vitest";
import { BASE_URL } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { loggedErrors, oauthConfig, startSignIn } from "../oauth/fixtures.js";
import type { OAuthProviderConfig } from "../../../src/providers/oauth-types.js";
import type { AuthConfig } from "../../../src/types.js";

/** A provider whose issuer is plain http on a host that is not loopback: refused before any request leaves. */
function misconfigured(overrides: Partial<AuthConfig> = {}) {
  const provider: OAuthProviderConfig = { id: "oidc", name: "Misconfigured", type: "oidc", issuer: "http://op.example", clientId: "id", clientSecret: "secret" };
  return oauthConfig([provider], overrides);
}

describe("a configuration fault met in a flow", () => {
  it("answers 500 with the Configuration page on the request that met it, and logs it in full", async () => {
    const config = misconfigured();
    const client = new TestClient(config);
    const response = await startSignIn(client);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain('data-error-type="Configuration"');
    expect(html).not.toContain("op.example");
    expect(config.logger.codes("error")).toEqual(["InvalidEndpoints"]);
    expect(loggedErrors(config)).toMatch(/issuer must use https.*http:\/\/op\.example/);
  });

  it("still gives a fetch client the error page's URL, as X-Auth-Return-Redirect asks", async () => {
    const client = new TestClient(misconfigured());
    const csrfToken = await client.csrf();
    const response = await client.post("/signin/oidc", { csrfToken }, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(await response.json()).toEqual({ url: `${BASE_URL}/error?error=Configuration` });
  });

  it("sends the browser to the application's own error page when it has one", async () => {
    const response = await startSignIn(new TestClient(misconfigured({ pages: { error: "/oops" } })));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://localhost:3000/oops?error=Configuration");
  });
});
