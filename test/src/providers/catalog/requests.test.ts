/**
 * The providers whose userinfo or token step is a `request` function: each is run against a fake
 * `fetch` serving the provider's documented answers, and the calls it makes are checked (URL,
 * method, Authorization and the other headers the provider requires, body).
 */
import { describe, expect, it } from "vitest";
import {
  Bitbucket,
  Dropbox,
  GitHub,
  MicrosoftEntraID,
  Notion,
  Reddit,
  Twitch,
  WorkOS,
  Yandex,
  pickGitHubEmail,
} from "../../../../src/providers/catalog/index.js";
import type { OAuth2Config, OAuthProviderConfig, OIDCConfig, TokenSet } from "../../../../src/providers/oauth-types.js";
import type { Profile } from "../../../../src/types.js";
import { fakeFetch, Reply, type FakeFetch } from "./fake-fetch.js";
import { samples } from "./all-fixtures.js";
import { githubPrivateEmail } from "./fixtures/github.js";
import { notionTokenResponse } from "./fixtures/notion.js";
import { workosAuthenticateResponse } from "./fixtures/workos.js";

/** A catalog provider as the flow sees it (a provider typed for its own profile is one for any profile). */
type CatalogProvider<P extends Profile> = OAuth2Config<P> | OIDCConfig<P>;
const asFlowSees = <P extends Profile>(provider: CatalogProvider<P>) => provider as unknown as OAuthProviderConfig;

async function userinfo<P extends Profile>(catalogProvider: CatalogProvider<P>, fetch: FakeFetch, tokens: TokenSet): Promise<Profile> {
  const provider = asFlowSees(catalogProvider);
  const endpoint = provider.userinfo;
  if (typeof endpoint !== "object" || !endpoint.request) throw new Error(`${provider.id} has no userinfo.request`);
  return await endpoint.request({ provider, fetch, tokens });
}

async function token<P extends Profile>(catalogProvider: CatalogProvider<P>, fetch: FakeFetch, codeVerifier?: string): Promise<TokenSet> {
  const provider = asFlowSees(catalogProvider);
  const endpoint = provider.token;
  if (typeof endpoint !== "object" || !endpoint.request) throw new Error(`${provider.id} has no token.request`);
  const params = new URLSearchParams({ code: "the-authorization-code", state: "the-state" });
  const result = await endpoint.request({ provider, fetch, params, codeVerifier, redirectUri: "https://app.example.com/auth/callback/x" });
  return result.tokens;
}

const GITHUB_TOKENS: TokenSet = { access_token: "gho_abc123", token_type: "bearer", scope: "read:user,user:email" };

describe("GitHub userinfo", () => {
  it("reads /user once, with the token, a User-Agent and the API version, when the email is public", async () => {
    const fetch = fakeFetch(samples.github.responses ?? {});
    const profile = await userinfo(GitHub(), fetch, GITHUB_TOKENS);
    expect(profile.email).toBe("octocat@github.com");
    expect(fetch.calls).toHaveLength(1);
    const [call] = fetch.calls;
    expect(call?.url).toBe("https://api.github.com/user");
    expect(call?.method).toBe("GET");
    expect(call?.headers.get("authorization")).toBe("Bearer gho_abc123");
    expect(call?.headers.get("user-agent")).toBeTruthy();
    expect(call?.headers.get("accept")).toBe("application/vnd.github+json");
    expect(call?.headers.get("x-github-api-version")).toBe("2022-11-28");
  });

  it("falls back to /user/emails for a private email and keeps the primary verified address", async () => {
    const fetch = fakeFetch({
      "https://api.github.com/user": githubPrivateEmail.user,
      "https://api.github.com/user/emails": githubPrivateEmail.emails,
    });
    const provider = GitHub();
    const profile = await userinfo(provider, fetch, GITHUB_TOKENS);
    expect(profile.email).toBe("monalisa@example.com");
    expect(profile.email_verified).toBe(true);
    expect(fetch.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "GET https://api.github.com/user",
      "GET https://api.github.com/user/emails",
    ]);
    for (const call of fetch.calls) {
      expect(call.headers.get("authorization")).toBe("Bearer gho_abc123");
      expect(call.headers.get("user-agent")).toBeTruthy();
    }
    expect(await provider.profile!(profile as never, GITHUB_TOKENS)).toMatchObject({ id: "1", email: "monalisa@example.com" });
  });

  it("signs the user in without an email when /user/emails is refused", async () => {
    const fetch = fakeFetch({
      "https://api.github.com/user": githubPrivateEmail.user,
      "https://api.github.com/user/emails": Reply.json(403, { message: "Resource not accessible by integration" }),
    });
    const profile = await userinfo(GitHub(), fetch, GITHUB_TOKENS);
    expect(profile.email).toBeNull();
    expect(profile).not.toHaveProperty("email_verified");
  });

  it("never picks an unverified address", () => {
    expect(pickGitHubEmail([{ email: "a@example.com", primary: true, verified: false, visibility: "private" }])).toBeNull();
    expect(
      pickGitHubEmail([
        { email: "a@example.com", primary: true, verified: false, visibility: "private" },
        { email: "b@example.com", primary: false, verified: true, visibility: null },
      ]),
    ).toBe("b@example.com");
    expect(pickGitHubEmail({ message: "Bad credentials" })).toBeNull();
    expect(pickGitHubEmail([null, 42, { email: 7, verified: true }])).toBeNull();
  });

  it("fails the sign-in when /user itself fails", async () => {
    const fetch = fakeFetch({ "https://api.github.com/user": Reply.json(401, { message: "Bad credentials" }) });
    await expect(userinfo(GitHub(), fetch, GITHUB_TOKENS)).rejects.toThrow(/401/);
  });

  it("refuses to call without an access token", async () => {
    await expect(userinfo(GitHub(), fakeFetch({}), { token_type: "bearer" })).rejects.toThrow(TypeError);
  });

  it("moves every URL to a GitHub Enterprise Server instance", async () => {
    const provider = GitHub({ enterprise: { baseUrl: "https://github.example.com/" } });
    expect(provider.issuer).toBe("https://github.example.com/login/oauth");
    expect(provider.authorization).toMatchObject({ url: "https://github.example.com/login/oauth/authorize" });
    expect(provider.token).toMatchObject({ url: "https://github.example.com/login/oauth/access_token" });
    expect(provider.userinfo).toMatchObject({ url: "https://github.example.com/api/v3/user" });
    expect(provider.options).toEqual({ enterprise: { baseUrl: "https://github.example.com/" } });
    expect(provider).not.toHaveProperty("enterprise");
    const fetch = fakeFetch({
      "https://github.example.com/api/v3/user": githubPrivateEmail.user,
      "https://github.example.com/api/v3/user/emails": githubPrivateEmail.emails,
    });
    expect((await userinfo(provider, fetch, GITHUB_TOKENS)).email).toBe("monalisa@example.com");
  });
});

describe("Bitbucket userinfo", () => {
  it("reads the user and their emails with the token, keeping the primary confirmed address", async () => {
    const fetch = fakeFetch(samples.bitbucket.responses ?? {});
    const profile = await userinfo(Bitbucket(), fetch, { access_token: "bb-token" });
    expect(profile).toMatchObject({ email: "erik@example.com", email_verified: true });
    expect(fetch.calls.map((c) => `${c.method} ${c.url} ${c.headers.get("authorization")}`)).toEqual([
      "GET https://api.bitbucket.org/2.0/user Bearer bb-token",
      "GET https://api.bitbucket.org/2.0/user/emails Bearer bb-token",
    ]);
  });

  it("has no email when none is confirmed or the emails call fails", async () => {
    const unconfirmed = fakeFetch({
      "https://api.bitbucket.org/2.0/user": { uuid: "{u}" },
      "https://api.bitbucket.org/2.0/user/emails": { values: [{ email: "x@example.com", is_primary: true, is_confirmed: false }] },
    });
    expect((await userinfo(Bitbucket(), unconfirmed, { access_token: "t" })).email).toBeUndefined();
    const failing = fakeFetch({ "https://api.bitbucket.org/2.0/user": { uuid: "{u}" } });
    expect((await userinfo(Bitbucket(), failing, { access_token: "t" })).email).toBeUndefined();
  });
});

describe("Reddit userinfo", () => {
  it("sends the token and a descriptive User-Agent, as Reddit requires", async () => {
    const fetch = fakeFetch(samples.reddit.responses ?? {});
    await userinfo(Reddit(), fetch, { access_token: "reddit-token" });
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0]?.url).toBe("https://oauth.reddit.com/api/v1/me");
    expect(fetch.calls[0]?.method).toBe("GET");
    expect(fetch.calls[0]?.headers.get("authorization")).toBe("Bearer reddit-token");
    expect(fetch.calls[0]?.headers.get("user-agent")).toMatch(/appauth/);
  });
});

describe("Dropbox userinfo", () => {
  it("POSTs to get_current_account with no body, and names the user by display name", async () => {
    const fetch = fakeFetch(samples.dropbox.responses ?? {});
    const profile = await userinfo(Dropbox(), fetch, { access_token: "sl.token" });
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0]).toMatchObject({ url: "https://api.dropboxapi.com/2/users/get_current_account", method: "POST", body: null });
    expect(fetch.calls[0]?.headers.get("authorization")).toBe("Bearer sl.token");
    expect(fetch.calls[0]?.headers.get("content-type")).toBeNull();
    expect(profile.name).toBe("Franz Ferdinand (Personal)");
    expect(profile.name_parts).toMatchObject({ given_name: "Franz", surname: "Ferdinand" });
  });
});

describe("Yandex userinfo", () => {
  it("sends the token with Yandex's OAuth scheme", async () => {
    const fetch = fakeFetch(samples.yandex.responses ?? {});
    await userinfo(Yandex(), fetch, { access_token: "y0_token" });
    expect(fetch.calls[0]?.url).toBe("https://login.yandex.ru/info?format=json");
    expect(fetch.calls[0]?.headers.get("authorization")).toBe("OAuth y0_token");
  });

  it("has no image when the avatar is Yandex's placeholder", async () => {
    const user = await Yandex().profile!({ id: "1", login: "ivan", default_avatar_id: "0/0-0", is_avatar_empty: true } as never, {});
    expect(user.image).toBeNull();
  });
});

describe("Notion token and userinfo", () => {
  const provider = Notion({ clientId: "463558a3-725e-4f37-b6d3-0889894f68de", clientSecret: "secret_abc" });

  it("exchanges the code with a JSON body and HTTP Basic credentials", async () => {
    const fetch = fakeFetch(samples.notion.responses ?? {});
    const tokens = await token(provider, fetch);
    expect(tokens).toEqual(notionTokenResponse);
    expect(fetch.calls).toHaveLength(1);
    const [call] = fetch.calls;
    expect(call?.url).toBe("https://api.notion.com/v1/oauth/token");
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("authorization")).toBe(`Basic ${btoa("463558a3-725e-4f37-b6d3-0889894f68de:secret_abc")}`);
    expect(call?.headers.get("content-type")).toBe("application/json");
    expect(call?.headers.get("notion-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(JSON.parse(call?.body ?? "")).toEqual({
      grant_type: "authorization_code",
      code: "the-authorization-code",
      redirect_uri: "https://app.example.com/auth/callback/x",
    });
  });

  it("reports a refused exchange as an error", async () => {
    const fetch = fakeFetch({ "POST https://api.notion.com/v1/oauth/token": Reply.json(400, { error: "invalid_grant" }) });
    await expect(token(provider, fetch)).rejects.toThrow(/400/);
  });

  it("needs the client credentials", async () => {
    await expect(token(Notion(), fakeFetch({}))).rejects.toThrow(/clientId and clientSecret/);
  });

  it("takes the user from the token answer without another call", async () => {
    const fetch = fakeFetch({});
    const profile = await userinfo(provider, fetch, notionTokenResponse);
    expect(profile).toEqual(samples.notion.profile);
    expect(fetch.calls).toHaveLength(0);
  });

  it("asks /v1/users/me when the token answer names no user", async () => {
    const fetch = fakeFetch({
      "https://api.notion.com/v1/users/me": {
        object: "user",
        id: "bot-id",
        type: "bot",
        bot: { owner: { type: "user", user: samples.notion.profile } },
      },
    });
    const profile = await userinfo(provider, fetch, { access_token: "ntn_x", token_type: "bearer" });
    expect(profile).toEqual(samples.notion.profile);
    expect(fetch.calls[0]?.headers.get("authorization")).toBe("Bearer ntn_x");
    expect(fetch.calls[0]?.headers.get("notion-version")).toBeTruthy();
  });
});

describe("WorkOS token and userinfo", () => {
  it("authenticates the code with a JSON body carrying the client credentials and the PKCE verifier", async () => {
    const fetch = fakeFetch(samples.workos.responses ?? {});
    const provider = WorkOS({ clientId: "client_123456789", clientSecret: "sk_example_123456789" });
    const tokens = await token(provider, fetch, "the-code-verifier");
    expect(tokens).toMatchObject({ access_token: workosAuthenticateResponse.access_token, token_type: "bearer" });
    const [call] = fetch.calls;
    expect(call?.url).toBe("https://api.workos.com/user_management/authenticate");
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("authorization")).toBeNull();
    expect(JSON.parse(call?.body ?? "")).toEqual({
      client_id: "client_123456789",
      client_secret: "sk_example_123456789",
      grant_type: "authorization_code",
      code: "the-authorization-code",
      code_verifier: "the-code-verifier",
    });
    expect(await userinfo(provider, fakeFetch({}), tokens)).toEqual(samples.workos.profile);
  });

  it("works as a public client with PKCE only", async () => {
    const fetch = fakeFetch(samples.workos.responses ?? {});
    await token(WorkOS({ clientId: "client_123456789" }), fetch, "verifier");
    expect(JSON.parse(fetch.calls[0]?.body ?? "")).not.toHaveProperty("client_secret");
  });

  it("fails when the answer carries no user", async () => {
    await expect(userinfo(WorkOS(), fakeFetch({}), { access_token: "x" })).rejects.toThrow(/no user/);
  });
});

describe("Twitch token", () => {
  const provider = Twitch({ clientId: "hof5gwx0su6owfnys0nyan9c87zr6t", clientSecret: "41vpdji4e9gif29md0ouet6fktd2" });

  it("exchanges the code with the credentials in the form body and joins Twitch's scope array", async () => {
    const fetch = fakeFetch({ "POST https://id.twitch.tv/oauth2/token": { ...samples.twitch.tokenResponse, id_token: "eyJ.twitch.jwt" } });
    const tokens = await token(provider, fetch);
    expect(tokens.scope).toBe("openid user:read:email");
    expect(tokens.id_token).toBe("eyJ.twitch.jwt");
    const [call] = fetch.calls;
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("authorization")).toBeNull();
    expect(call?.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(call?.body ?? ""))).toEqual({
      client_id: "hof5gwx0su6owfnys0nyan9c87zr6t",
      client_secret: "41vpdji4e9gif29md0ouet6fktd2",
      code: "the-authorization-code",
      grant_type: "authorization_code",
      redirect_uri: "https://app.example.com/auth/callback/x",
    });
  });

  it("reports Twitch's refusal as an error", async () => {
    const fetch = fakeFetch({
      "POST https://id.twitch.tv/oauth2/token": Reply.json(400, { status: 400, message: "Invalid authorization code" }),
    });
    await expect(token(provider, fetch)).rejects.toThrow(/400/);
  });
});

describe("Microsoft Entra ID profile photo", () => {
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

  it("reads Graph's userinfo and inlines the photo as a data: URL", async () => {
    const provider = MicrosoftEntraID({ profilePhotoSize: 48 });
    expect(provider.idToken).toBe(false);
    const fetch = fakeFetch({
      "https://graph.microsoft.com/oidc/userinfo": {
        sub: "OLu859SGc2Sr9ZsqbkG-QbeLgJlb41KcdiPoLYNpSFA",
        name: "Mikah Ollenburg",
        family_name: "Ollenburg",
        given_name: "Mikah",
        picture: "https://graph.microsoft.com/v1.0/me/photo/$value",
        email: "mikoll@contoso.com",
      },
      "https://graph.microsoft.com/v1.0/me/photos/48x48/$value": new Reply(200, JPEG, { "content-type": "image/jpeg" }),
    });
    const profile = await userinfo(provider, fetch, { access_token: "eyJ0eXAi" });
    expect(profile.picture).toBe(`data:image/jpeg;base64,${btoa(String.fromCharCode(...JPEG))}`);
    for (const call of fetch.calls) expect(call.headers.get("authorization")).toBe("Bearer eyJ0eXAi");
    const user = await provider.profile!(profile as never, {});
    expect(user).toEqual({
      id: "OLu859SGc2Sr9ZsqbkG-QbeLgJlb41KcdiPoLYNpSFA",
      name: "Mikah Ollenburg",
      email: "mikoll@contoso.com",
      image: profile.picture,
    });
  });

  it("signs the user in without an image when they have no photo", async () => {
    const fetch = fakeFetch({
      "https://graph.microsoft.com/oidc/userinfo": { sub: "s", picture: "https://graph.microsoft.com/v1.0/me/photo/$value" },
      "https://graph.microsoft.com/v1.0/me/photos/64x64/$value": Reply.json(404, { error: { code: "ImageNotFound" } }),
    });
    const provider = MicrosoftEntraID({ profilePhotoSize: 64 });
    const profile = await userinfo(provider, fetch, { access_token: "t" });
    expect(profile).not.toHaveProperty("picture");
    expect((await provider.profile!(profile as never, {})).image).toBeNull();
  });
});
