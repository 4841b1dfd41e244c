/**
 * How user options are laid over a provider's defaults, and the defensive readers profiles use.
 */
import { optionsMerged } from "../../../../src/symbols.js";
import { describe, expect, it } from "vitest";
import {
  endpointUrl,
  httpsUrl,
  idOf,
  joinName,
  mergeEndpoint,
  record,
  text,
  withTrailingSlash,
  withUserOptions,
  withoutTrailingSlash,
} from "../../../../src/providers/catalog/shared.js";
import type { AuthorizationEndpoint, OAuth2Config } from "../../../../src/providers/oauth-types.js";

const request = async () => ({ sub: "x" });
const defaults: OAuth2Config = {
  id: "example",
  name: "Example",
  type: "oauth",
  authorization: { url: "https://idp.example.com/authorize", params: { scope: "openid", prompt: "consent" } },
  token: { url: "https://idp.example.com/token" },
  userinfo: { url: "https://idp.example.com/userinfo", request },
  client: { token_endpoint_auth_method: "client_secret_post" },
  checks: ["pkce", "state"],
  style: { brandColor: "#000000", logo: "data:image/svg+xml,x" },
};

describe("withUserOptions", () => {
  it("returns the defaults, with the options recorded, when there are none", () => {
    expect(withUserOptions(defaults, {})).toEqual({ ...defaults, options: {}, [optionsMerged]: true });
  });

  it("merges endpoint params and replaces URLs and requests that are given", () => {
    const other = async () => ({ sub: "y" });
    const merged = withUserOptions(defaults, {
      authorization: { params: { prompt: "login", login_hint: "ada@example.com" } },
      token: "https://proxy.example.com/token",
      userinfo: { request: other },
    });
    expect(merged.authorization).toEqual({
      url: "https://idp.example.com/authorize",
      params: { scope: "openid", prompt: "login", login_hint: "ada@example.com" },
    });
    expect(merged.token).toEqual({ url: "https://proxy.example.com/token" });
    expect(merged.userinfo).toEqual({ url: "https://idp.example.com/userinfo", request: other });
  });

  it("removes a default param set to undefined", () => {
    const merged = withUserOptions(defaults, { authorization: { params: { prompt: undefined } } });
    expect(merged.authorization).toEqual({ url: "https://idp.example.com/authorize", params: { scope: "openid" } });
  });

  it("merges client and style shallowly and replaces checks", () => {
    const merged = withUserOptions(defaults, {
      client: { id_token_signed_response_alg: "ES256" },
      style: { brandColor: "#ff0000" },
      checks: ["state"],
    });
    expect(merged.client).toEqual({ token_endpoint_auth_method: "client_secret_post", id_token_signed_response_alg: "ES256" });
    expect(merged.style).toEqual({ brandColor: "#ff0000", logo: "data:image/svg+xml,x" });
    expect(merged.checks).toEqual(["state"]);
  });

  it("keeps the type and does not share the defaults' objects with the options", () => {
    const options = { authorization: { params: { prompt: "none" } } };
    const merged = withUserOptions(defaults, options);
    expect(merged.type).toBe("oauth");
    expect(merged.options).toBe(options);
    expect(defaults.authorization).toEqual({ url: "https://idp.example.com/authorize", params: { scope: "openid", prompt: "consent" } });
  });
});

describe("mergeEndpoint", () => {
  it("keeps the base without an override and takes the override without a base", () => {
    expect(mergeEndpoint("https://a.example.com", undefined)).toBe("https://a.example.com");
    expect(mergeEndpoint(undefined, { url: "https://b.example.com" })).toEqual({ url: "https://b.example.com" });
  });

  it("turns a string base into an object when params are merged onto it", () => {
    expect(mergeEndpoint<AuthorizationEndpoint>("https://a.example.com", { params: { x: "1" } })).toEqual({ url: "https://a.example.com", params: { x: "1" } });
  });
});

describe("readers", () => {
  it("text keeps non-empty strings only", () => {
    expect(text("Ada")).toBe("Ada");
    for (const value of ["", "   ", 1, null, undefined, {}, []]) expect(text(value)).toBeNull();
  });

  it("httpsUrl keeps https URLs only", () => {
    expect(httpsUrl("https://img.example.com/a.png")).toBe("https://img.example.com/a.png");
    for (const value of ["http://img.example.com/a.png", "javascript:alert(1)", "data:image/png;base64,AA", "//x", 3]) {
      expect(httpsUrl(value)).toBeNull();
    }
  });

  it("idOf turns numbers and strings into ids, and nothing else", () => {
    expect(idOf(1)).toBe("1");
    expect(idOf("abc")).toBe("abc");
    expect(idOf(12n)).toBe("12");
    for (const value of ["", Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, true]) expect(idOf(value)).toBeUndefined();
  });

  it("record and joinName never throw", () => {
    expect(record(null)).toEqual({});
    expect(record([1])).toEqual({});
    expect(joinName("Ada", null, "Lovelace")).toBe("Ada Lovelace");
    expect(joinName(undefined, 3)).toBeNull();
  });

  it("normalises trailing slashes", () => {
    expect(withoutTrailingSlash("https://a.example.com//")).toBe("https://a.example.com");
    expect(withTrailingSlash("https://a.example.com")).toBe("https://a.example.com/");
    expect(withTrailingSlash(undefined)).toBeUndefined();
  });

  it("endpointUrl reads both endpoint forms", () => {
    expect(endpointUrl("https://a.example.com")).toBe("https://a.example.com");
    expect(endpointUrl({ url: "https://b.example.com" })).toBe("https://b.example.com");
    expect(endpointUrl({})).toBeUndefined();
    expect(endpointUrl(undefined)).toBeUndefined();
  });
});
