/**
 * Every catalog provider, table-driven: it works listed bare and with overrides, names itself with
 * a unique URL-safe id, points at https endpoints (or an issuer to discover them from), carries a
 * brand colour and a self-contained logo, and maps its documented profile to a user.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providerEnvDefaults, envProviderKey } from "../../../../src/config/env.js";
import { catalog, type CatalogProviderId } from "../../../../src/providers/catalog/index.js";
import { endpointUrl } from "../../../../src/providers/catalog/shared.js";
import type { OAuthProviderConfig, OAuthUserConfig, TokenSet } from "../../../../src/providers/oauth-types.js";
import { customFetch } from "../../../../src/symbols.js";
import type { Profile, ProviderConfig, User } from "../../../../src/types.js";
import { fakeFetch } from "./fake-fetch.js";
import { fixtures, samples } from "./all-fixtures.js";

type Factory = (options?: OAuthUserConfig) => OAuthProviderConfig;
const entries = Object.entries(catalog) as [CatalogProviderId, Factory][];

/**
 * OIDC providers that only exist per deployment: no default issuer, it comes from options or the
 * environment. Besides these, every provider whose fixture configures an issuer.
 */
const ISSUER_FROM_DEPLOYMENT = [
  "auth0", "okta", "keycloak", "cognito", "zitadel", "authentik", "descope", "onelogin", "azure-ad-b2c",
  "kinde", "logto", "identity-server4", "ory-hydra", "fusionauth", "frontegg", "ping-id", "passage", "united-effects",
  ...entries.map(([id]) => id).filter((id) => fixtures[id]?.facts.options?.issuer !== undefined),
];

/** OAuth providers that only exist per deployment: no endpoints bare, they follow the `issuer` (the server's URL). */
const ENDPOINTS_FROM_DEPLOYMENT = ["mattermost", "nextcloud", "osso"];

/**
 * Where Auth.js's provider id is not its module's name, the catalog is keyed (and imported) by the
 * module and the provider keeps Auth.js's id, so callback URLs and `AUTH_<ID>_*` variables stay.
 */
const AUTH_JS_IDS: Partial<Record<string, string>> = { "ory-hydra": "hydra" };

function params(endpoint: OAuthProviderConfig["authorization"]): Record<string, string | undefined> {
  return typeof endpoint === "object" ? (endpoint.params ?? {}) : {};
}

function isHttpsUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

async function profileOf(provider: OAuthProviderConfig, profile: Profile, tokens: TokenSet = {}): Promise<User> {
  if (!provider.profile) throw new Error(`${provider.id} has no profile()`);
  return await provider.profile(profile as never, tokens);
}

describe("the catalog", () => {
  it("offers at least 28 providers, among them the widely used ones", () => {
    expect(entries.length).toBeGreaterThanOrEqual(28);
    for (const id of [
      "github", "google", "apple", "microsoft-entra-id", "discord", "gitlab", "facebook", "twitter", "linkedin",
      "slack", "spotify", "twitch", "reddit", "auth0", "okta", "keycloak", "cognito", "zitadel", "authentik",
    ]) {
      expect(catalog).toHaveProperty([id]);
    }
  });

  it("gives every provider a unique, URL-safe id that matches its catalog key", () => {
    const ids = entries.map(([, factory]) => factory().id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, factory] of entries) {
      expect(factory().id).toBe(AUTH_JS_IDS[key] ?? key);
      expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(encodeURIComponent(key)).toBe(key);
    }
  });

  it("has a sample sign-in for every provider", () => {
    expect(Object.keys(samples).sort()).toEqual(entries.map(([id]) => id).sort());
  });
});

/**
 * Providers that refuse options lacking what their deployment needs (NetSuite: `accountID` and the
 * `userinfo` RESTlet, a start-up error; see bare-listing.test.ts): the contract below is checked
 * with their fixture's deployment options under every set of options.
 */
const OPTIONS_REQUIRED = ["netsuite"];

describe.each(entries)("%s", (id, bare) => {
  const sample = samples[id];
  const factory: Factory = OPTIONS_REQUIRED.includes(id) ? (options) => bare({ ...fixtures[id].facts.options, ...options }) : bare;

  it("works listed bare: called with no argument, it returns a complete provider", () => {
    const provider = bare();
    expect(provider.id).toBe(AUTH_JS_IDS[id] ?? id);
    expect(provider.name).toEqual(expect.any(String));
    expect(provider.name.length).toBeGreaterThan(0);
    expect(["oauth", "oidc"]).toContain(provider.type);
    expect(provider.profile).toEqual(expect.any(Function));
    expect(provider.options).toEqual({});
    expect(provider.clientId).toBeUndefined();
    expect(provider.clientSecret).toBeUndefined();
  });

  it("returns a fresh object on every call", () => {
    const a = factory();
    const b = factory();
    expect(a).not.toBe(b);
    if (typeof a.authorization === "object" && a.authorization.params) a.authorization.params.mutated = "yes";
    expect(params(b.authorization).mutated).toBeUndefined();
  });

  it("points at https endpoints, or at an issuer to discover them from", () => {
    const provider = factory();
    for (const endpoint of [provider.authorization, provider.token, provider.userinfo]) {
      const url = endpointUrl(endpoint);
      if (url !== undefined) expect(isHttpsUrl(url), `${id}: ${url}`).toBe(true);
    }
    if (provider.issuer !== undefined) expect(isHttpsUrl(provider.issuer)).toBe(true);
    if (provider.type === "oauth" && ENDPOINTS_FROM_DEPLOYMENT.includes(id)) {
      // A server the application names: no endpoints until its `issuer` gives them.
      expect(endpointUrl(provider.authorization)).toBeUndefined();
      const deployed = factory({ issuer: "https://server.example.com" });
      for (const endpoint of [deployed.authorization, deployed.token, deployed.userinfo]) {
        expect(endpointUrl(endpoint)).toMatch(/^https:\/\/server\.example\.com\//);
      }
    } else if (provider.type === "oauth" && ISSUER_FROM_DEPLOYMENT.includes(id)) {
      // An OAuth 2 server of its own deployment: no endpoints until the issuer names it.
      expect(provider.issuer).toBeUndefined();
      const deployed = factory({ issuer: "https://idp.example.com" });
      for (const endpoint of [deployed.authorization, deployed.token]) expect(isHttpsUrl(endpointUrl(endpoint))).toBe(true);
      expect(endpointUrl(deployed.authorization)?.startsWith("https://idp.example.com/")).toBe(true);
    } else if (provider.type === "oauth") {
      expect(isHttpsUrl(endpointUrl(provider.authorization))).toBe(true);
      expect(isHttpsUrl(endpointUrl(provider.token))).toBe(true);
      const userinfo = provider.userinfo;
      expect(isHttpsUrl(endpointUrl(userinfo)) || (typeof userinfo === "object" && typeof userinfo.request === "function")).toBe(true);
    } else if (ISSUER_FROM_DEPLOYMENT.includes(id)) {
      expect(provider.issuer).toBeUndefined();
      expect(isHttpsUrl(factory({ issuer: "https://idp.example.com" }).issuer)).toBe(true);
    } else {
      expect(isHttpsUrl(provider.issuer)).toBe(true);
    }
  });

  it("lets options win: credentials, id, name, checks and profile are replaced", () => {
    const profile = () => ({ id: "custom" });
    const provider = factory({
      clientId: "custom-client-id",
      clientSecret: "custom-secret",
      id: `${id}-custom`,
      name: "Custom",
      checks: ["state"],
      profile,
    });
    expect(provider.clientId).toBe("custom-client-id");
    expect(provider.clientSecret).toBe("custom-secret");
    expect(provider.id).toBe(`${id}-custom`);
    expect(provider.name).toBe("Custom");
    expect(provider.checks).toEqual(["state"]);
    expect(provider.profile).toBe(profile);
    expect(provider.type).toBe(factory().type);
    expect(provider.options).toMatchObject({ clientId: "custom-client-id", id: `${id}-custom` });
  });

  it("merges authorization params key by key, keeping the defaults not overridden", () => {
    const defaults = params(factory().authorization);
    const merged = factory({ authorization: { params: { prompt: "login" } } });
    expect(params(merged.authorization)).toEqual({ ...defaults, prompt: "login" });
    expect(endpointUrl(merged.authorization)).toBe(endpointUrl(factory().authorization));

    const scoped = factory({ authorization: { params: { scope: "custom scope" } } });
    expect(params(scoped.authorization)).toEqual({ ...defaults, scope: "custom scope" });

    const removed = factory({ authorization: { params: { scope: undefined } } });
    expect(params(removed.authorization)).not.toHaveProperty("scope");
  });

  it("takes a string authorization override as the URL, keeping the default params", () => {
    const provider = factory({ authorization: "https://proxy.example.com/authorize" });
    expect(endpointUrl(provider.authorization)).toBe("https://proxy.example.com/authorize");
    expect(params(provider.authorization)).toEqual(params(factory().authorization));
  });

  it("keeps its userinfo request when only the userinfo URL is overridden", () => {
    const base = factory().userinfo;
    const provider = factory({ userinfo: { url: "https://api.example.com/me" } });
    expect(endpointUrl(provider.userinfo)).toBe("https://api.example.com/me");
    if (typeof base === "object" && base.request) expect((provider.userinfo as { request?: unknown }).request).toBe(base.request);
  });

  it("never lets an undefined option erase a default", () => {
    const provider = factory({ issuer: undefined, authorization: undefined, style: undefined });
    expect(provider.issuer).toBe(factory().issuer);
    expect(provider.authorization).toEqual(factory().authorization);
    expect(provider.style).toEqual(factory().style);
  });

  it("merges style overrides, keeping the logo", () => {
    const provider = factory({ style: { brandColor: "#123456" } });
    expect(provider.style).toEqual({ brandColor: "#123456", logo: factory().style?.logo });
  });

  it("carries a [customFetch] given in the options", () => {
    const fetch = fakeFetch({});
    expect(factory({ [customFetch]: fetch })[customFetch]).toBe(fetch);
  });

  it("has a #rrggbb brand colour", () => {
    expect(factory().style?.brandColor).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it("has a self-contained SVG logo as a data: URI under 2 KB", () => {
    const logo = factory().style?.logo ?? "";
    expect(logo.startsWith("data:image/svg+xml,")).toBe(true);
    expect(logo.length).toBeLessThan(2048);
    const svg = decodeURIComponent(logo.slice("data:image/svg+xml,".length));
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    // The namespace is an identifier, not a reference; nothing else may point outside.
    const rest = svg.replace("xmlns='http://www.w3.org/2000/svg'", "");
    expect(rest).not.toMatch(/http/i);
    expect(rest).not.toMatch(/href|url\(|<script|<image|<foreignObject|on\w+=/i);
    expect(svg).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg'/);
  });

  it("serves its documented profile through the userinfo step or the ID token", async () => {
    // Configured as the fixture's deployment (an issuer some providers build their endpoints from).
    const provider = factory(fixtures[id].facts.options as OAuthUserConfig | undefined);
    if (sample.source === "id_token") {
      expect(provider.type).toBe("oidc");
      expect((provider as { idToken?: boolean }).idToken).not.toBe(false);
      expect(sample.profile).toMatchObject(sample.claims ?? {});
      return;
    }
    const userinfo = provider.userinfo;
    if (typeof userinfo === "object" && userinfo.request) {
      const fetch = fakeFetch(sample.responses ?? {});
      const profile = await userinfo.request({ provider, fetch, tokens: sample.tokenResponse });
      expect(profile).toEqual(sample.profile);
    } else if (provider.type === "oauth") {
      const url = endpointUrl(userinfo);
      expect(url && sample.responses?.[url]).toEqual(sample.profile);
    } else {
      // OIDC with `idToken: false`: the discovered userinfo endpoint answers the profile.
      expect((provider as { idToken?: boolean }).idToken).toBe(false);
      expect(Object.values(sample.responses ?? {})).toContainEqual(sample.profile);
    }
  });

  it("maps its documented profile to { id, name, email, image }", async () => {
    const user = await profileOf(factory(fixtures[id].facts.options ?? {}), sample.profile as Profile, sample.tokenResponse);
    expect(user).toEqual(sample.user);
    expect(Object.keys(user).sort()).toEqual(["email", "id", "image", "name"]);
    expect(typeof user.id).toBe("string");
  });

  it("does not throw on a profile missing every optional field", async () => {
    const user = await profileOf(factory(), {} as Profile);
    expect(user.id).toBeUndefined();
    expect(user.name ?? null).toBeNull();
    expect(user.email ?? null).toBeNull();
    expect(user.image ?? null).toBeNull();
  });

  it("never throws, and answers only strings or nulls, whatever JSON the provider sends", async () => {
    const provider = factory();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.object(), fc.constant(sample.profile), mangled(sample.profile)), async (profile) => {
        const user = await profileOf(provider, profile as Profile);
        for (const key of ["name", "email", "image"] as const) expect([null, "string"]).toContain(user[key] === null ? null : typeof user[key]);
        expect(user.id === undefined || typeof user.id === "string").toBe(true);
        if (typeof user.image === "string") expect(user.image).toMatch(/^(https:|data:image\/)/);
      }),
      { numRuns: 50 },
    );
  });

  if (factory().issuer === undefined && factory().type === "oidc") {
    it(`takes its issuer from AUTH_${envProviderKey(AUTH_JS_IDS[id] ?? id)}_ISSUER when listed bare`, () => {
      const env = { [`AUTH_${envProviderKey(AUTH_JS_IDS[id] ?? id)}_ISSUER`]: "https://idp.example.com/tenant" };
      expect(providerEnvDefaults(env, factory() as unknown as ProviderConfig)).toEqual({ issuer: "https://idp.example.com/tenant" });
    });
  }
});

/** The sample with each field in turn replaced by something of the wrong type. */
function mangled(profile: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(profile);
  return fc
    .record({
      key: fc.constantFrom(...(keys.length ? keys : ["id"])),
      value: fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.array(fc.anything()), fc.object()),
    })
    .map(({ key, value }) => ({ ...profile, [key]: value }));
}
