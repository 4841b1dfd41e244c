/**
 * The server actions: `signIn`, `signOut` and `unstable_update` called from a server action, as a
 * form would call them. Cookies go through Next's cookie API (here the stand-in store), redirects
 * through Next's real `redirect`, whose thrown signal names the target.
 */
import { describe, expect, it, vi } from "vitest";
import AppAuth, { AuthError, CredentialsSignin, type AppAuthResult } from "../../../integrations/next/index.js";
import { RateLimited } from "../../../src/errors.js";
import { ADA_PASSWORD, ADA_USERNAME } from "../../helpers/config.js";
import { appConfig, ORIGIN, SESSION_COOKIE, signedIn } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

/** Where Next's `redirect()` was told to go, from the signal it throws; fails if it did not throw one. */
async function redirectedTo(work: Promise<unknown>): Promise<string> {
  const thrown = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  const digest = (thrown as { digest?: unknown } | undefined)?.digest;
  if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT;")) throw new Error(`expected a redirect, got ${String(thrown)}`);
  return digest.split(";")[2]!;
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  // What Next adds to a form bound to a server action: never sign-in input.
  data.append("$ACTION_ID_0123abcd", "");
  return data;
}

const OAUTH_PROVIDER = {
  id: "acme",
  name: "Acme",
  type: "oauth" as const,
  clientId: "appauth-test",
  clientSecret: "acme-secret",
  authorization: "https://acme.example/authorize",
  token: "https://acme.example/token",
  userinfo: "https://acme.example/userinfo",
};

async function action<T>(app: AppAuthResult, scope: RequestScope, work: (app: AppAuthResult) => Promise<T>): Promise<T> {
  return inRequest(scope, () => work(app));
}

describe("signIn from a server action", () => {
  it("signs in with credentials from a submitted form, sets the session cookie through Next, and redirects to redirectTo", async () => {
    const app = AppAuth(appConfig());
    const scope = new RequestScope({ url: `${ORIGIN}/login` });
    const target = await redirectedTo(
      action(app, scope, (a) => a.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, redirectTo: "/dashboard" }))),
    );
    expect(target).toBe(`${ORIGIN}/dashboard`);
    const cookie = scope.written(SESSION_COOKIE);
    expect(cookie?.value).toMatch(/^ey/);
    expect(cookie?.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" });
    // The cookie it set is a working session.
    const session = await inRequest(new RequestScope({ cookies: scope.cookiesAfter() }), () => app.auth());
    expect(session?.user?.name).toBe("Ada Lovelace");
  });

  it("comes back to the page the action was called from when no redirectTo is given", async () => {
    const app = AppAuth(appConfig());
    const scope = new RequestScope({ url: `${ORIGIN}/pricing?plan=team` });
    const target = await redirectedTo(action(app, scope, (a) => a.signIn("credentials", { username: ADA_USERNAME, password: ADA_PASSWORD })));
    expect(target).toBe(`${ORIGIN}/pricing?plan=team`);
  });

  it("throws CredentialsSignin with its code to the calling action for a wrong password, and sets no session", async () => {
    const app = AppAuth(appConfig());
    const scope = new RequestScope({ url: `${ORIGIN}/login` });
    const error = await action(app, scope, (a) => a.signIn("credentials", form({ username: ADA_USERNAME, password: "wrong" }))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CredentialsSignin);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as CredentialsSignin).code).toBe("credentials");
    expect(scope.written(SESSION_COOKIE)).toBeUndefined();
  });

  it("returns the URL instead of redirecting with redirect: false", async () => {
    const app = AppAuth(appConfig());
    const scope = new RequestScope({ url: `${ORIGIN}/login` });
    const url = await action(app, scope, (a) =>
      a.signIn("credentials", { username: ADA_USERNAME, password: ADA_PASSWORD, redirect: false, redirectTo: "/welcome" }),
    );
    expect(url).toBe(`${ORIGIN}/welcome`);
    expect(scope.written(SESSION_COOKIE)).toBeDefined();
  });

  it("sends the browser to the sign-in page when no provider is named", async () => {
    const app = AppAuth(appConfig());
    const scope = new RequestScope({ url: `${ORIGIN}/settings` });
    const target = new URL(await redirectedTo(action(app, scope, (a) => a.signIn())));
    expect(target.pathname).toBe("/api/auth/signin");
    expect(target.searchParams.get("callbackUrl")).toBe("/settings");
  });

  it("redirects to an OAuth provider with the authorization parameters, keeping its checks in cookies", async () => {
    const app = AppAuth(appConfig({ providers: [OAUTH_PROVIDER] }));
    const scope = new RequestScope({ url: `${ORIGIN}/` });
    const target = new URL(await redirectedTo(action(app, scope, (a) => a.signIn("acme", { redirectTo: "/after" }, { prompt: "login" }))));
    expect(`${target.origin}${target.pathname}`).toBe("https://acme.example/authorize");
    expect(target.searchParams.get("prompt")).toBe("login");
    expect(target.searchParams.get("client_id")).toBe("appauth-test");
    expect(target.searchParams.get("code_challenge_method")).toBe("S256");
    expect(scope.written("appauth.pkce.code_verifier")?.value).toBeTruthy();
    expect(scope.written("appauth.callback-url")?.value).toBe(`${ORIGIN}/after`);
  });

  it("throws InvalidProvider for a provider id that is not configured", async () => {
    const app = AppAuth(appConfig());
    const error = await action(app, new RequestScope(), (a) => a.signIn("github")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).type).toBe("InvalidProvider");
  });

  it("throws AccessDenied when the signIn callback refuses", async () => {
    const app = AppAuth(appConfig({ callbacks: { signIn: () => false } }));
    const scope = new RequestScope();
    const error = await action(app, scope, (a) => a.signIn("credentials", { username: ADA_USERNAME, password: ADA_PASSWORD })).catch(
      (e: unknown) => e,
    );
    expect((error as AuthError).type).toBe("AccessDenied");
    expect(scope.written(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("signIn from a server action, per client address", () => {
  it("counts each visitor X-Forwarded-For names behind a trusted proxy, and throws RateLimited past the ceiling", async () => {
    const app = AppAuth(appConfig({ rateLimit: { trustProxy: true, requests: { perClient: 3, window: 60 } } }));
    const from = (address: string) => new RequestScope({ url: `${ORIGIN}/login`, headers: { "x-forwarded-for": address } });
    const signIn = (scope: RequestScope) =>
      action(app, scope, (a) => a.signIn("credentials", { username: ADA_USERNAME, password: ADA_PASSWORD, redirect: false }));
    for (let i = 0; i < 3; i++) expect(await signIn(from("203.0.113.7"))).toBe(`${ORIGIN}/login`);
    const refused = await signIn(from("203.0.113.7")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfter).toBeGreaterThan(0);
    expect(await signIn(from("198.51.100.2"))).toBe(`${ORIGIN}/login`);
  });
});

describe("signOut from a server action", () => {
  it("expires the session cookie through Next and redirects to redirectTo", async () => {
    const { app, browser } = await signedIn();
    const scope = new RequestScope({ url: `${ORIGIN}/account`, cookies: browser.record() });
    const target = await redirectedTo(action(app, scope, (a) => a.signOut({ redirectTo: "/goodbye" })));
    expect(target).toBe(`${ORIGIN}/goodbye`);
    expect(scope.written(SESSION_COOKIE)?.options).toMatchObject({ maxAge: 0 });
    expect(await inRequest(new RequestScope({ cookies: scope.cookiesAfter() }), () => app.auth())).toBeNull();
  });

  it("returns the URL (default: the current page) with redirect: false", async () => {
    const { app, browser } = await signedIn();
    const scope = new RequestScope({ url: `${ORIGIN}/account`, cookies: browser.record() });
    expect(await action(app, scope, (a) => a.signOut({ redirect: false }))).toBe(`${ORIGIN}/account`);
    expect(scope.cookiesAfter()[SESSION_COOKIE]).toBeUndefined();
  });
});

describe("unstable_update from a server action", () => {
  const renaming = appConfig({
    callbacks: {
      jwt({ token, trigger, session }) {
        const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name;
        if (trigger === "update" && typeof name === "string") token.name = name;
        return token;
      },
    },
  });

  it("runs the jwt callback with trigger update, returns the new session and writes its cookie", async () => {
    const { app, browser } = await signedIn(renaming);
    const scope = new RequestScope({ cookies: browser.record() });
    const session = await action(app, scope, (a) => a.unstable_update({ user: { name: "Countess of Lovelace" } }));
    expect(session?.user?.name).toBe("Countess of Lovelace");
    expect(scope.written(SESSION_COOKIE)?.value).toMatch(/^ey/);
    const after = await inRequest(new RequestScope({ cookies: scope.cookiesAfter() }), () => app.auth());
    expect(after?.user?.name).toBe("Countess of Lovelace");
  });

  it("returns null for a visitor without a session", async () => {
    const app = AppAuth(renaming);
    expect(await action(app, new RequestScope(), (a) => a.unstable_update({ user: { name: "Nobody" } }))).toBeNull();
  });
});

describe("a lazy config in server actions and server components", () => {
  it("runs once per signIn, signOut and auth() call, though signIn and signOut make two internal calls each", async () => {
    const config = appConfig();
    const lazy = vi.fn(() => config);
    const app = AppAuth(lazy);
    const scope = new RequestScope();
    await redirectedTo(action(app, scope, (a) => a.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, redirectTo: "/" }))));
    expect(lazy).toHaveBeenCalledTimes(1);
    const signedInScope = new RequestScope({ cookies: scope.cookiesAfter(), canSetCookies: false });
    expect(await inRequest(signedInScope, () => app.auth())).toMatchObject({ user: { name: "Ada Lovelace" } });
    expect(lazy).toHaveBeenCalledTimes(2);
    await redirectedTo(action(app, new RequestScope({ cookies: scope.cookiesAfter() }), (a) => a.signOut()));
    expect(lazy).toHaveBeenCalledTimes(3);
  });
});
