/**
 * What individual providers do beyond the shared contract: how issuers are built and normalised,
 * Apple's once-only name and form_post, and the provider-specific image rules.
 */
import { describe, expect, it } from "vitest";
import {
  Apple,
  Auth0,
  Authentik,
  Cognito,
  Descope,
  Discord,
  GitHub,
  GitLab,
  Keycloak,
  Kakao,
  MicrosoftEntraID,
  Okta,
  OneLogin,
  Reddit,
  Strava,
  Twitter,
  X,
  Zitadel,
  discordAvatarUrl,
  entraIssuerForTenant,
  isMultiTenantIssuer,
} from "../../../../src/providers/catalog/index.js";
import { samples } from "./all-fixtures.js";

describe("issuers", () => {
  it("keeps the trailing slash Auth0 and authentik issuers have", () => {
    expect(Auth0({ issuer: "https://dev-abc123.us.auth0.com" }).issuer).toBe("https://dev-abc123.us.auth0.com/");
    expect(Auth0({ issuer: "https://dev-abc123.us.auth0.com/" }).issuer).toBe("https://dev-abc123.us.auth0.com/");
    expect(Authentik({ issuer: "https://auth.example.com/application/o/appauth" }).issuer).toBe(
      "https://auth.example.com/application/o/appauth/",
    );
  });

  it("takes a self-managed GitLab from Auth.js's baseUrl, and lets issuer win over it", () => {
    expect(GitLab().issuer).toBe("https://gitlab.com");
    expect(GitLab({ baseUrl: "https://gitlab.example.com/" }).issuer).toBe("https://gitlab.example.com");
    expect(GitLab({ baseUrl: new URL("https://gitlab.example.com") }).issuer).toBe("https://gitlab.example.com");
    expect(GitLab({ baseUrl: "https://a.example", issuer: "https://b.example" }).issuer).toBe("https://b.example");
    expect(GitLab({ baseUrl: "https://gitlab.example.com" })).not.toHaveProperty("baseUrl");
  });

  it("drops the trailing slash the other issuers do not have", () => {
    expect(Okta({ issuer: "https://dev-123456.okta.com/oauth2/default/" }).issuer).toBe("https://dev-123456.okta.com/oauth2/default");
    expect(Keycloak({ issuer: "https://sso.example.com/realms/acme/" }).issuer).toBe("https://sso.example.com/realms/acme");
    expect(Cognito({ issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example1/" }).issuer).toBe(
      "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example1",
    );
    expect(Zitadel({ issuer: "https://acme.zitadel.cloud/" }).issuer).toBe("https://acme.zitadel.cloud");
  });

  it("keeps the user's own issuer option as given in `options`", () => {
    expect(Auth0({ issuer: "https://dev-abc123.us.auth0.com" }).options).toEqual({ issuer: "https://dev-abc123.us.auth0.com" });
  });

  it("completes a OneLogin account URL to its OIDC issuer", () => {
    expect(OneLogin({ issuer: "https://acme.onelogin.com" }).issuer).toBe("https://acme.onelogin.com/oidc/2");
    expect(OneLogin({ issuer: "https://acme.onelogin.com/oidc/2" }).issuer).toBe("https://acme.onelogin.com/oidc/2");
  });

  it("builds the Descope issuer from the project id, or from the client id that is the project id", () => {
    expect(Descope({ projectId: "P2abc" }).issuer).toBe("https://api.descope.com/P2abc");
    expect(Descope({ clientId: "P2xyz" }).issuer).toBe("https://api.descope.com/P2xyz");
    expect(Descope({ clientId: "P2xyz", issuer: "https://auth.example.com/P2xyz" }).issuer).toBe("https://auth.example.com/P2xyz");
    expect(Descope().issuer).toBeUndefined();
    expect(Descope({ projectId: "P2abc" })).not.toHaveProperty("projectId");
  });
});

describe("Microsoft Entra ID", () => {
  it("defaults to the common (multi-tenant) endpoint", () => {
    const provider = MicrosoftEntraID();
    expect(provider.issuer).toBe("https://login.microsoftonline.com/common/v2.0");
    expect(isMultiTenantIssuer(provider.issuer)).toBe(true);
    expect(provider.idToken).toBeUndefined();
  });

  it("builds a single-tenant issuer from tenantId", () => {
    const provider = MicrosoftEntraID({ tenantId: "9122040d-6c67-4c5b-b112-36a304b66dad" });
    expect(provider.issuer).toBe("https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0");
    expect(isMultiTenantIssuer(provider.issuer)).toBe(false);
    expect(provider).not.toHaveProperty("tenantId");
    expect(provider.options).toEqual({ tenantId: "9122040d-6c67-4c5b-b112-36a304b66dad" });
  });

  it("prefers an explicit issuer over tenantId", () => {
    const issuer = "https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0";
    expect(MicrosoftEntraID({ tenantId: "organizations", issuer }).issuer).toBe(issuer);
  });

  it("tells multi-tenant aliases and the discovery template from tenants", () => {
    for (const tenant of ["common", "organizations", "consumers", "{tenantid}"]) {
      expect(isMultiTenantIssuer(entraIssuerForTenant(tenant))).toBe(true);
    }
    expect(entraIssuerForTenant("{tenantid}")).toBe("https://login.microsoftonline.com/{tenantid}/v2.0");
    expect(isMultiTenantIssuer("https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0")).toBe(false);
    expect(isMultiTenantIssuer("https://evil.example.com/common/v2.0")).toBe(false);
    expect(isMultiTenantIssuer(undefined)).toBe(false);
  });

  it("never takes the unverified preferred_username as the email", async () => {
    const { email: _email, ...claims } = samples["microsoft-entra-id"].claims ?? {};
    const user = await MicrosoftEntraID().profile!(claims as never, {});
    expect(user.email).toBeNull();
  });
});

describe("Apple", () => {
  it("asks for name and email with response_mode=form_post and posts its client secret", () => {
    const provider = Apple();
    expect(provider.authorization).toEqual({ params: { scope: "name email", response_mode: "form_post" } });
    expect(provider.client).toEqual({ token_endpoint_auth_method: "client_secret_post" });
    expect(provider.checks).toEqual(expect.arrayContaining(["state", "nonce"]));
  });

  it("has the name on the first sign-in only", async () => {
    const { user: _user, ...claims } = samples.apple.profile;
    expect(await Apple().profile!(samples.apple.profile as never, {})).toMatchObject({ name: "Jane Appleseed" });
    expect(await Apple().profile!(claims as never, {})).toEqual({ ...samples.apple.user, name: null });
  });

  it("takes the email from the signed ID token only, never from the unsigned user field", async () => {
    const { email: _email, ...claims } = samples.apple.claims ?? {};
    const forged = { ...claims, user: { name: { firstName: "Eve" }, email: "victim@example.com" } };
    expect((await Apple().profile!(forged as never, {})).email).toBeNull();
  });
});

describe("plain OAuth providers", () => {
  it("name GitHub's RFC 9207 issuer so its iss callback parameter can be checked", () => {
    expect(GitHub().issuer).toBe("https://github.com/login/oauth");
  });

  it("use Basic client authentication where the provider demands it", () => {
    expect(Reddit().client?.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(Twitter().client?.token_endpoint_auth_method).toBe("client_secret_basic");
  });

  it("ask X for the profile image with users/me", () => {
    expect(Twitter().userinfo).toEqual({ url: "https://api.x.com/2/users/me?user.fields=profile_image_url" });
    expect(Twitter().checks).toContain("pkce");
    expect(X).toBe(Twitter);
  });

  it("protect the providers without documented PKCE with state", () => {
    for (const provider of [Reddit(), Discord(), Kakao(), Strava()]) expect(provider.checks).toContain("state");
  });
});

describe("images", () => {
  it("uses Discord's default avatar when the user has none", () => {
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "0" })).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    );
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "1337" })).toBe(
      "https://cdn.discordapp.com/embed/avatars/2.png",
    );
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: "a_1269e74af4df7417b13759eae50c83dc", discriminator: "0" })).toBe(
      "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif",
    );
    expect(discordAvatarUrl({ id: "not-a-snowflake", avatar: null })).toBeNull();
  });

  it("ignores Strava's relative placeholder photo", async () => {
    const user = await Strava().profile!({ ...samples.strava.profile, profile: "avatar/athlete/large.png", profile_medium: "avatar/athlete/medium.png" } as never, {});
    expect(user.image).toBeNull();
  });

  it("ignores Kakao's default image", async () => {
    const profile = structuredClone(samples.kakao.profile) as { kakao_account: { profile: { is_default_image: boolean } } };
    profile.kakao_account.profile.is_default_image = true;
    expect((await Kakao().profile!(profile as never, {})).image).toBeNull();
  });

  it("never uses a non-https URL as an image", async () => {
    const user = await GitHub().profile!({ id: 1 as never, login: "x", avatar_url: "javascript:alert(1)" } as never, {});
    expect(user.image).toBeNull();
    const http = await GitHub().profile!({ id: 1 as never, login: "x", avatar_url: "http://example.com/a.png" } as never, {});
    expect(http.image).toBeNull();
  });
});
