import { describe, expect, it } from "vitest";
import type { AuthConfig } from "../../../../src/types.js";
import type { OAuthUserConfig } from "../../../../src/providers/oauth-types.js";
import { catalog, GitHub, Google } from "../../../../src/providers/catalog/index.js";
import { getRuntime } from "../../../../src/config/runtime.js";

describe("catalog providers in a configuration", () => {
  it("can be listed bare or called with overrides, and type-check as providers", () => {
    const config: AuthConfig = { secret: "s".repeat(32), providers: [GitHub, Google({ clientId: "from-code" })] };
    const rt = getRuntime(config, { AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" });
    expect(rt.providerById.get("github")).toMatchObject({ clientId: "gh-id", clientSecret: "gh-secret" });
    expect(rt.providerById.get("google")).toMatchObject({ clientId: "from-code" });
  });

  it("takes AUTH_<ID>_ISSUER over a factory's default issuer when listed bare", () => {
    const config: AuthConfig = { secret: "s".repeat(32), providers: [catalog.gitlab!] };
    const rt = getRuntime(config, { AUTH_GITLAB_ISSUER: "https://gitlab.example.com" });
    expect((rt.providerById.get("gitlab") as { issuer?: string }).issuer).toMatch(/^https:\/\/gitlab\.example\.com/);
  });

  it("refuses a NetSuite configuration without its account id and RESTlet at start-up, naming them", () => {
    const NetSuite = catalog.netsuite!;
    const listed = (providers: () => AuthConfig["providers"]) => () =>
      getRuntime({ secret: "s".repeat(32), providers: providers() }, { AUTH_NETSUITE_ID: "ns-id", AUTH_NETSUITE_SECRET: "ns-secret" });
    expect(listed(() => [NetSuite])).toThrow(/netsuite: the options accountID and userinfo are required/);
    expect(listed(() => [NetSuite({ clientId: "ns-id", accountID: "1234567" } as OAuthUserConfig)])).toThrow(/netsuite: the option userinfo is required/);
    const restlet = "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1";
    const rt = getRuntime(
      { secret: "s".repeat(32), providers: [NetSuite({ accountID: "1234567", userinfo: restlet } as OAuthUserConfig)] },
      { AUTH_NETSUITE_ID: "ns-id", AUTH_NETSUITE_SECRET: "ns-secret" },
    );
    expect(rt.providerById.get("netsuite")).toMatchObject({ clientId: "ns-id", token: { url: "https://1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token" } });
  });
});
