/**
 * A sign-out in Qwik City sticks whatever else runs in the same request. Qwik's cookie map keeps
 * one Set-Cookie per name, the last written, and after an action that navigates as a document
 * (RP-initiated logout, a `redirectTo` under the base path) Qwik City runs the page's loaders in
 * that same request: a `useSession` read there must see the cookies as the response leaves them,
 * not the incoming ones, or it re-issues the old session over the deletion. Sessions here are
 * re-issued on every read (`updateAge: 0`), so any stale read shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CookieOptions } from "@builder.io/qwik-city";
import Credentials from "../../../src/providers/credentials.js";
import { handleAuthRoute, registerConfig, sessionOf, signIn, signOut, type AuthRequestEvent } from "../../../integrations/qwik/server.js";
import type { ResumableAuthConfig } from "../../../integrations/qwik/env.js";
import { ORIGIN } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { TestClient } from "../../helpers/test-client.js";
import { browser, deliver, expectSignedInAs, locationOf, oauthConfig, oidcProvider, startSignIn } from "../../src/oauth/fixtures.js";

const SECRET = "a-test-secret-that-is-long-enough-for-hkdf-0123456789";
const SESSION_COOKIE = "appauth.session-token";

/** What Qwik City's cookie map holds for one response: the last write of each name. */
type ResponseCookies = Map<string, { value: string; options: CookieOptions }>;

/**
 * A Qwik City request event for `path` carrying `cookie`, with the plugin's `onRequest` already
 * run: a POST (an action's) unless `method` says otherwise.
 */
function requestFor(
  config: ResumableAuthConfig,
  path: string,
  options: { cookie?: string | undefined; method?: "GET" | "POST" } = {},
): { event: AuthRequestEvent; written: ResponseCookies } {
  const written: ResponseCookies = new Map();
  const url = new URL(path, ORIGIN).href;
  const event = {
    request: new Request(url, { method: options.method ?? "POST", headers: options.cookie ? { cookie: options.cookie } : {} }),
    url: new URL(url),
    env: { get: () => undefined },
    sharedMap: new Map<string, unknown>(),
    headers: new Headers(),
    cookie: {
      set: (name: string, value: string, options: CookieOptions = {}) => written.set(name, { value, options }),
    },
  } as unknown as AuthRequestEvent;
  registerConfig(event, async () => config);
  return { event, written };
}

function rollingConfig(): ResumableAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    session: { strategy: "jwt", updateAge: 0 },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) => (username === "ada" && password === "lovelace" ? { id: "1", name: username } : null),
      }),
      Credentials({
        id: "grace",
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => (username === "grace" ? { id: "2", name: username } : null),
      }),
    ],
  };
}

/** A signed-in browser's Cookie header: signs in as `username` in a request of its own. */
async function signedInCookie(config: ResumableAuthConfig, providerId = "credentials", username = "ada"): Promise<string> {
  const { event, written } = requestFor(config, "/");
  await signIn(event, { providerId, username, password: "lovelace" });
  const session = written.get(SESSION_COOKIE);
  expect(session?.value).toBeTruthy();
  return `${SESSION_COOKIE}=${session!.value}`;
}

/** Whether the response the browser gets removes the session cookie. */
const removesSession = (written: ResponseCookies) => written.get(SESSION_COOKIE)?.options.maxAge === 0;

describe("a Qwik sign-out in a request whose loaders run afterwards", () => {
  it("leaves the session cookie deleted when the page's useSession loader reads after the action", async () => {
    const config = rollingConfig();
    const { event, written } = requestFor(config, "/protected/?qaction=signout", { cookie: await signedInCookie(config) });

    const to = await signOut(event, { redirectTo: "/auth/signin" });
    expect(to).toEqual({ kind: "document", url: "/auth/signin" });
    const loader = await sessionOf(event);

    expect(loader.data).toBeNull();
    expect(loader.cookie).toEqual([]);
    expect(removesSession(written)).toBe(true);
  });

  it("leaves it deleted when a guard read (and re-issued) the session before the action", async () => {
    const config = rollingConfig();
    const { event, written } = requestFor(config, "/protected/?qaction=signout", { cookie: await signedInCookie(config) });

    const guard = await sessionOf(event);
    expect(guard.data?.user?.name).toBe("ada");
    // Re-issued (updateAge 0): the response now sets the session cookie, until the sign-out.
    expect(written.get(SESSION_COOKIE)?.value).toBeTruthy();
    await signOut(event, { redirectTo: "/auth/signin" });
    const loader = await sessionOf(event);

    expect(loader.data).toBeNull();
    expect(removesSession(written)).toBe(true);
  });

  it("does not let a read that was still running when the sign-out ended write the old session back", async () => {
    const config = rollingConfig();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The read waits in the jwt callback until the sign-out has written its deletion.
    config.callbacks = {
      jwt: async ({ token, trigger }) => {
        if (!trigger) await gate;
        return token;
      },
    };
    const { event, written } = requestFor(config, "/protected/?qaction=signout", { cookie: await signedInCookie(config) });

    const slowRead = sessionOf(event);
    await signOut(event, { redirectTo: "/auth/signin" });
    release();
    await slowRead;

    expect(removesSession(written)).toBe(true);
    expect((await sessionOf(event)).data).toBeNull();
  });

  it("shows the loaders the session a sign-in in the same request made, never the one it replaced", async () => {
    const config = rollingConfig();
    const { event, written } = requestFor(config, "/?qaction=signin", { cookie: await signedInCookie(config, "grace", "grace") });

    await signIn(event, { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: "/auth/signin" });
    const issued = written.get(SESSION_COOKIE)?.value;
    const loader = await sessionOf(event);

    expect(loader.data?.user?.name).toBe("ada");
    expect(written.get(SESSION_COOKIE)?.value).toBe(issued);
  });
});

describe("a Qwik sign-out through the OpenID Provider (RP-initiated logout)", () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({ clients: [{ ...PUBLIC_CLIENT, post_logout_redirect_uris: [`${ORIGIN}/auth/signout/oidc`] }] });
  });
  afterAll(() => op.close());

  /** The cookies the browser holds once a Qwik response with `written` arrived. */
  function receive(client: TestClient, written: ResponseCookies): void {
    for (const [name, { value, options }] of written) {
      if (options.maxAge === 0) client.deleteCookie(name);
      else client.setCookie(name, value);
    }
  }

  it("leaves for the provider's end-session page signed out, comes back signed out, and stays so", async () => {
    const core = oauthConfig(
      [oidcProvider(op, { clientId: PUBLIC_CLIENT.client_id, clientSecret: undefined, client: { token_endpoint_auth_method: "none" }, rpInitiatedLogout: true })],
      { session: { strategy: "jwt", updateAge: 0 } },
    );
    const config: ResumableAuthConfig = core;
    const client = browser(core);
    const opBrowser = op.browser();
    const authorization = locationOf(await startSignIn(client, "oidc", "/"));
    await expectSignedInAs(client, await deliver(client, await opBrowser.authorize(authorization, { accountId: "ada" })), "ada@example.com");

    // The sign-out action posted from a guarded page, then the page's loader, in one request.
    const action = requestFor(config, "/protected/?qaction=signout", { cookie: client.cookieHeader() });
    expect((await sessionOf(action.event)).data?.user?.email).toBe("ada@example.com");
    const to = await signOut(action.event, { redirectTo: "/goodbye" });
    expect(to.kind).toBe("document");
    expect((await sessionOf(action.event)).data).toBeNull();
    expect(removesSession(action.written)).toBe(true);
    receive(client, action.written);
    expect(await client.session()).toBeNull();

    // The provider ends its session and sends the browser to /auth/signout/oidc, which goes on.
    const atOp = await opBrowser.endSession(to.kind === "document" ? to.url : "");
    const back = requestFor(config, (atOp as { url: string }).url, { cookie: client.cookieHeader(), method: "GET" });
    const answer = await handleAuthRoute(back.event, async () => config);
    expect(answer?.headers.get("location")).toBe(`${ORIGIN}/goodbye`);
    receive(client, back.written);

    const home = requestFor(config, "/goodbye", { cookie: client.cookieHeader(), method: "GET" });
    expect((await sessionOf(home.event)).data).toBeNull();
    expect(home.written.size).toBe(0);
  });
});
