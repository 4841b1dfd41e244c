import { describe, expect, it } from "vitest";
import type { AuthConfig } from "../../../../src/types.js";
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
});
