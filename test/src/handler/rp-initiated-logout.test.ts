/**
 * OpenID Connect RP-Initiated Logout through `Auth`, against a real OpenID Provider: signing out of
 * a session that came from a provider with `rpInitiatedLogout` ends it here first, then sends the
 * browser to the provider's end_session_endpoint; GET /signout/:provider takes it on to the callback
 * URL only when it comes back with the state this sign-out minted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BASE_URL, ORIGIN, SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { isDeletion, setCookieNamed } from "../../helpers/set-cookie.js";
import type { TestClient } from "../../helpers/test-client.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { encode } from "../../../src/jwt/index.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import type { AuthConfig, SessionAccount } from "../../../src/types.js";
import {
  browser,
  CALLBACK_ERROR,
  deliver,
  expectNoSession,
  expectSignedInAs,
  locationOf as signInLocationOf,
  oauthConfig,
  oidcProvider,
  signInThroughOp,
  startSignIn,
} from "../oauth/fixtures.js";

/** The cookie that remembers a logout's state and callback URL while the browser is at the provider. */
const LOGOUT_COOKIE = "appauth.state.logout";
const RETURN_URI = `${BASE_URL}/signout/oidc`;

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({
    clients: [
      { ...PUBLIC_CLIENT, post_logout_redirect_uris: [RETURN_URI] },
      // Registered for sign-in but not for logout: the provider without the option signs in as this one.
      CONFIDENTIAL_CLIENT,
    ],
  });
});
afterAll(() => op.close());
afterEach(() => {
  vi.useRealTimers();
});

/** The `oidc` provider at the test OP as the public client, ending the OP's session on sign-out. */
function loggingOut(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return oidcProvider(op, {
    clientId: PUBLIC_CLIENT.client_id,
    clientSecret: undefined,
    client: { token_endpoint_auth_method: "none" },
    rpInitiatedLogout: true,
    ...overrides,
  });
}

/** A configuration that records the ID token of every sign-in (events.signIn sees the account). */
function recording(providers: OIDCConfig[], overrides: Partial<AuthConfig> = {}) {
  const idTokens: string[] = [];
  const config = oauthConfig(providers, {
    ...overrides,
    events: {
      signIn: ({ account }) => {
        if (typeof account?.id_token === "string") idTokens.push(account.id_token);
      },
    },
  });
  return { config, idTokens };
}

async function signedIn(config: ReturnType<typeof recording>["config"]): Promise<TestClient> {
  const client = browser(config);
  await expectSignedInAs(client, await signInThroughOp(op, client, { callbackUrl: "/after" }), "ada@example.com");
  return client;
}

/** The end_session_endpoint the OP's discovery document names. */
async function endSessionEndpoint(): Promise<string> {
  const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
  return ((await response.json()) as { end_session_endpoint: string }).end_session_endpoint;
}

function locationOf(response: Response): URL {
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

describe("POST /signout with RP-initiated logout (JWT sessions)", () => {
  it("ends the session here and sends the browser to the OP's end_session_endpoint with the sign-in's ID token", async () => {
    const { config, idTokens } = recording([loggingOut()]);
    const client = await signedIn(config);
    const response = await client.signOut("/goodbye");

    const out = locationOf(response);
    expect(`${out.origin}${out.pathname}`).toBe(await endSessionEndpoint());
    expect([...out.searchParams.keys()].sort()).toEqual(["client_id", "id_token_hint", "post_logout_redirect_uri", "state"]);
    expect(out.searchParams.get("id_token_hint")).toBe(idTokens[0]);
    expect(out.searchParams.get("client_id")).toBe(PUBLIC_CLIENT.client_id);
    expect(out.searchParams.get("post_logout_redirect_uri")).toBe(RETURN_URI);
    expect(out.searchParams.get("state")).toMatch(/^[\w-]{32,}$/);

    // Signed out here before leaving.
    expect(isDeletion(setCookieNamed(response, SESSION_COOKIE)!)).toBe(true);
    expect(await client.session()).toBeNull();
    const ticket = setCookieNamed(response, LOGOUT_COOKIE)!;
    expect(ticket).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(ticket.maxAge).toBeGreaterThan(0);
    expect(ticket.maxAge).toBeLessThanOrEqual(15 * 60);
    // Encrypted: neither the state nor the callback URL can be read from it.
    expect(ticket.value).not.toContain(out.searchParams.get("state"));
    expect(ticket.value).not.toContain("goodbye");
  });

  it("builds an end-session request the real OP accepts (its logout form, not an error page)", async () => {
    const { config } = recording([loggingOut()]);
    const client = await signedIn(config);
    const out = locationOf(await client.signOut("/goodbye"));
    const atOp = await fetch(out, { redirect: "manual" });
    const page = await atOp.text();
    expect(atOp.status, page).toBe(200);
    expect(page).toContain(`action="${op.issuer}/session/end/confirm"`);
  });

  it("mints a new state for every sign-out and hints each with its own sign-in's ID token", async () => {
    const { config, idTokens } = recording([loggingOut()]);
    const first = locationOf(await (await signedIn(config)).signOut("/goodbye"));
    const second = locationOf(await (await signedIn(config)).signOut("/goodbye"));
    expect(first.searchParams.get("state")).not.toBe(second.searchParams.get("state"));
    expect(idTokens).toHaveLength(2);
    expect(first.searchParams.get("id_token_hint")).toBe(idTokens[0]);
    expect(second.searchParams.get("id_token_hint")).toBe(idTokens[1]);
  });

  it("answers 200 { url } with the end-session URL to a fetch client (X-Auth-Return-Redirect: 1)", async () => {
    const { config } = recording([loggingOut()]);
    const client = await signedIn(config);
    const csrfToken = await client.csrf();
    const response = await client.post("/signout", { csrfToken, callbackUrl: "/out" }, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(url.startsWith(await endSessionEndpoint())).toBe(true);
    expect(new URL(url).searchParams.get("post_logout_redirect_uri")).toBe(RETURN_URI);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(client.cookie(LOGOUT_COOKIE)).toBeDefined();
  });

  it("signs out locally only when the provider does not have the option", async () => {
    const { config } = recording([oidcProvider(op)]);
    const client = await signedIn(config);
    const response = await client.signOut("/goodbye");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
    expect(setCookieNamed(response, LOGOUT_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("signs out locally only when the session kept no ID token, or names a provider without the option", async () => {
    const { config } = recording([loggingOut(), { ...oidcProvider(op), id: "other" }]);
    const kept: SessionAccount[] = [
      { provider: "oidc", providerAccountId: "ada", type: "oidc" },
      { provider: "other", providerAccountId: "ada", type: "oidc", id_token: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln" },
    ];
    for (const account of kept) {
      const client = browser(config);
      client.setCookie(SESSION_COOKIE, await encode({ token: { sub: "ada", account }, secret: SECRET, salt: SESSION_COOKIE }));
      const response = await client.signOut("/goodbye");
      expect(response.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
      expect(setCookieNamed(response, LOGOUT_COOKIE)).toBeUndefined();
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    }
  });

  it("uses the endpoint the provider option names over the discovered one, keeping its own parameters", async () => {
    const { config, idTokens } = recording([loggingOut({ rpInitiatedLogout: { endSessionEndpoint: "https://logout.example/end?tenant=t1" } })]);
    const client = await signedIn(config);
    const out = locationOf(await client.signOut("/goodbye"));
    expect(`${out.origin}${out.pathname}`).toBe("https://logout.example/end");
    expect(out.searchParams.get("tenant")).toBe("t1");
    expect(out.searchParams.get("id_token_hint")).toBe(idTokens[0]);
  });

  it("refuses at start-up an explicit end-session endpoint on plain http off loopback", () => {
    const { config } = recording([loggingOut({ rpInitiatedLogout: { endSessionEndpoint: "http://logout.example/end" } })]);
    expect(() => getRuntime(config, {})).toThrow(/rpInitiatedLogout\.endSessionEndpoint must use https/);
  });
});

describe("POST /signout with RP-initiated logout (database sessions)", () => {
  it("ends the session record, then hints the OP with the ID token the linked account holds", async () => {
    const adapter = MemoryAdapter();
    const signOut = vi.fn();
    const { config, idTokens } = recording([loggingOut()], { adapter });
    config.events!.signOut = signOut;
    const client = await signedIn(config);
    const account = await adapter.getAccount("ada", "oidc");
    expect(account?.id_token).toBe(idTokens[0]);

    const out = locationOf(await client.signOut("/goodbye"));
    expect(`${out.origin}${out.pathname}`).toBe(await endSessionEndpoint());
    expect(out.searchParams.get("id_token_hint")).toBe(idTokens[0]);
    expect(out.searchParams.get("post_logout_redirect_uri")).toBe(RETURN_URI);
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ provider: "oidc", providerAccountId: "ada" }) });
    const { sessionToken } = signOut.mock.calls[0]![0].session as { sessionToken: string };
    expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
    expect(await client.session()).toBeNull();

    const back = await client.get(`/signout/oidc?state=${out.searchParams.get("state")}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
  });

  it("signs out locally only when the provider does not have the option", async () => {
    const { config } = recording([oidcProvider(op)], { adapter: MemoryAdapter() });
    const client = await signedIn(config);
    const response = await client.signOut("/goodbye");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
    expect(setCookieNamed(response, LOGOUT_COOKIE)).toBeUndefined();
  });
});

describe("GET /signout/:provider, where the OP sends the browser back", () => {
  async function signedOutAtOp(callbackUrl = "/goodbye", providers?: OIDCConfig[]) {
    const { config } = recording(providers ?? [loggingOut()]);
    const client = await signedIn(config);
    const out = locationOf(await client.signOut(callbackUrl));
    return { client, config, state: out.searchParams.get("state")! };
  }

  it("goes on to the callback URL when the state is the one this sign-out minted, and clears the cookie", async () => {
    const { client, state } = await signedOutAtOp("/goodbye?from=menu");
    const back = await client.get(`/signout/oidc?state=${state}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/goodbye?from=menu`);
    expect(isDeletion(setCookieNamed(back, LOGOUT_COOKIE)!)).toBe(true);
    expect(client.cookie(LOGOUT_COOKIE)).toBeUndefined();
    expect(await client.session()).toBeNull();
  });

  it("ends a session cookie the browser got back while it was at the OP (a request answered after it left)", async () => {
    const { config } = recording([loggingOut()]);
    const client = await signedIn(config);
    const resurrected = client.cookie(SESSION_COOKIE)!;
    const state = locationOf(await client.signOut("/goodbye")).searchParams.get("state")!;
    client.setCookie(SESSION_COOKIE, encodeURIComponent(resurrected));
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });

    const back = await client.get(`/signout/oidc?state=${state}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
    expect(isDeletion(setCookieNamed(back, SESSION_COOKIE)!)).toBe(true);
    expect(await client.session()).toBeNull();
  });

  it("touches no session cookie on a return that is not this browser's sign-out: a link cannot sign anyone out", async () => {
    const { config } = recording([loggingOut()]);
    const client = await signedIn(config);
    for (const path of ["/signout/oidc?state=not-the-state", "/signout/oidc"]) {
      const back = await client.get(path);
      expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
      expect(setCookieNamed(back, SESSION_COOKIE)).toBeUndefined();
    }
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("sends a replayed return to the origin", async () => {
    const { client, state } = await signedOutAtOp();
    await client.get(`/signout/oidc?state=${state}`);
    const again = await client.get(`/signout/oidc?state=${state}`);
    expect(again.headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("sends a return with a wrong or missing state to the origin, and clears the cookie", async () => {
    const wrong = [
      () => "?state=not-the-state",
      () => "",
      () => "?state=",
      (state: string) => `?state=${state.slice(0, -1)}`,
      (state: string) => `?state=not-the-state&state=${state}`,
    ];
    for (const query of wrong) {
      const { client, state } = await signedOutAtOp();
      const back = await client.get(`/signout/oidc${query(state)}`);
      expect(back.status).toBe(302);
      expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
      expect(client.cookie(LOGOUT_COOKIE)).toBeUndefined();
    }
  });

  it("sends a return without the cookie, or with a tampered one, to the origin", async () => {
    const { client, state } = await signedOutAtOp();
    const sealed = client.cookie(LOGOUT_COOKIE)!;
    client.deleteCookie(LOGOUT_COOKIE);
    expect((await client.get(`/signout/oidc?state=${state}`)).headers.get("location")).toBe(`${ORIGIN}/`);

    for (const tampered of [`${sealed.slice(0, -4)}AAAA`, "garbage", ""]) {
      client.setCookie(LOGOUT_COOKIE, tampered);
      const back = await client.get(`/signout/oidc?state=${state}`);
      expect(back.status).toBe(302);
      expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
    }
  });

  it("sends a return to the origin once the cookie's 15 minutes are over, even if a browser still sends it", async () => {
    const { client, state } = await signedOutAtOp();
    const raw = client.cookie(LOGOUT_COOKIE)!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    client.setCookie(LOGOUT_COOKIE, encodeURIComponent(raw));
    const back = await client.get(`/signout/oidc?state=${state}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("sends a return to another provider's route to the origin: the cookie is bound to the provider that minted it", async () => {
    const other = { ...loggingOut(), id: "oidc-b" };
    const { client, state } = await signedOutAtOp("/goodbye", [loggingOut(), other]);
    const back = await client.get(`/signout/oidc-b?state=${state}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(client.cookie(LOGOUT_COOKIE)).toBeUndefined();
  });

  it("keeps a hostile callbackUrl refused: the return goes to the origin, never off-site", async () => {
    const { client, state } = await signedOutAtOp("https://evil.example/phish");
    const back = await client.get(`/signout/oidc?state=${state}&callbackUrl=${encodeURIComponent("https://evil.example/x")}`);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("never answers 500 nor redirects off-site, whatever the route names", async () => {
    const { client, state } = await signedOutAtOp();
    for (const path of [`/signout/nope?state=${state}`, `/signout/%E0%A4%A?state=${state}`, "/signout/oidc?state=%00"]) {
      const response = await client.get(path);
      expect(response.status, path).toBeLessThan(500);
      const location = response.headers.get("location");
      if (location) expect(new URL(location).origin).toBe(ORIGIN);
    }
    const post = await client.post(`/signout/oidc`, { state });
    expect(post.status).toBe(400);
  });
});

describe.each([
  ["JWT sessions", () => ({})],
  ["database sessions", () => ({ adapter: MemoryAdapter() })],
])("signing out of the OP too, end to end in one OP browser (%s)", (_, options) => {
  /** Starts a sign-in at appauth and asks the OP, in `opBrowser`, to answer without any interaction. */
  async function silentAuthorization(client: TestClient, opBrowser: ReturnType<TestProvider["browser"]>) {
    const authorization = new URL(signInLocationOf(await startSignIn(client, "oidc", "/again")));
    authorization.searchParams.set("prompt", "none");
    return opBrowser.authorize(authorization.href);
  }

  it("ends the OP session: back at /signout/oidc, on to the callback URL, and prompt=none then needs a login", async () => {
    const { config } = recording([loggingOut()], options());
    const client = browser(config);
    const opBrowser = op.browser();

    // Signed in through the OP in this browser, whose OP session then answers prompt=none by itself.
    const authorization = signInLocationOf(await startSignIn(client, "oidc", "/after"));
    await expectSignedInAs(client, await deliver(client, await opBrowser.authorize(authorization, { accountId: "ada" })), "ada@example.com");
    const silent = await silentAuthorization(client, opBrowser);
    expect(new URL(silent.url).searchParams.get("code")).toBeTruthy();

    // Signed out through appauth, then through the OP's logout confirmation.
    const out = locationOf(await client.signOut("/goodbye"));
    expect(await client.session()).toBeNull();
    const atOp = await opBrowser.endSession(out.href);
    expect(atOp).toEqual({ url: `${RETURN_URI}?state=${out.searchParams.get("state")}` });

    const back = await client.get((atOp as { url: string }).url);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
    expect(client.cookie(LOGOUT_COOKIE)).toBeUndefined();

    // The OP session is over: a silent request is refused, and appauth signs nobody in with it.
    const refused = await silentAuthorization(client, opBrowser);
    expect(new URL(refused.url).searchParams.get("error")).toBe("login_required");
    const callback = await deliver(client, refused);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
  });
});
