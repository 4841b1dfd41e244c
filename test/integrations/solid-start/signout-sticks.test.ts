/**
 * A sign-out (or sign-in) in SolidStart sticks whatever else runs in the same request. The browser
 * keeps the last Set-Cookie of a name, and server code often reads the session after the action in
 * the same request: the app's own server function (`signOut({ redirect: false })`, then
 * `auth()`), or the page's queries SolidStart runs on a copy of the event to answer in one round
 * trip (single flight). A read there must see the cookies as the response leaves them, not the
 * incoming ones, or it re-issues the old session after the deletion. Sessions here are re-issued
 * on every read (`updateAge: 0`), so any stale read shows.
 */
import { describe, expect, it } from "vitest";
import ReactiveAuth, { getSession, type AuthRequestEvent, type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, ORIGIN, passwordProvider, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { event, form, Jar, SAME_ORIGIN, serving, thrownBy, visitor, type TestEvent } from "./fixtures.js";

const GRACE = { id: "user-grace", name: "Grace Hopper", email: "grace@example.com" };

function rollingConfig(overrides: Partial<ReactiveAuthConfig> = {}): ReactiveAuthConfig {
  return testConfig({
    session: { strategy: "jwt", updateAge: 0 },
    providers: [passwordProvider(), passwordProvider({ id: "grace", authorize: ({ username }) => (username === "grace" ? { ...GRACE } : null) })],
    ...overrides,
  } as Parameters<typeof testConfig>[0]) as ReactiveAuthConfig;
}

type Auth = ReturnType<typeof ReactiveAuth>;

/** A browser signed in with `provider`, holding its session and CSRF cookies, and the form's token. */
async function signedIn(auth: Auth, provider = "credentials"): Promise<{ jar: Jar; token: string }> {
  const { jar, token } = await visitor(auth);
  const call = event("/_server", { jar, method: "POST", headers: SAME_ORIGIN });
  await thrownBy(serving(call, () => auth.signIn(provider, form({ username: provider === "grace" ? "grace" : ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token }))));
  jar.keep(call.response.headers);
  expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
  return { jar, token };
}

/** The server function's request: a same-origin POST carrying the browser's cookies, with the middleware run. */
async function action(auth: Auth, jar: Jar): Promise<TestEvent> {
  const call = event("/_server", { jar, method: "POST", headers: SAME_ORIGIN });
  expect(await auth.middleware()(call)).toBeUndefined();
  return call;
}

/** What the middleware put on `locals`: the request's lazy session reader. */
const localsAuth = (call: AuthRequestEvent) => (call.locals as { auth: () => Promise<unknown> }).auth();

/** The session a browser holding `jar` has on its next request. */
async function nextSession(auth: Auth, jar: Jar): Promise<unknown> {
  return serving(event("/", { jar }), () => auth.auth());
}

/**
 * The copy of `call` SolidStart makes to render the page's queries after a server function (single
 * flight): the same `locals` and response, a request for `page` with the cookies as the response
 * left them.
 */
function singleFlight(call: TestEvent, page: string): TestEvent {
  const jar = new Jar();
  for (const pair of (call.request.headers.get("cookie") ?? "").split("; ").filter(Boolean)) {
    const at = pair.indexOf("=");
    jar.cookies.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)));
  }
  jar.keep(call.response.headers);
  return { ...call, request: new Request(new URL(page, ORIGIN), { headers: { cookie: jar.header() } }) };
}

describe("a SolidStart sign-out followed by a session read in the same request", () => {
  it("reads no session after signOut({ redirect: false }) in the same server function, and the browser ends signed out", async () => {
    const auth = ReactiveAuth(rollingConfig());
    const { jar, token } = await signedIn(auth);
    const call = await action(auth, jar);

    const after = await serving(call, async () => {
      await auth.signOut({ csrfToken: token, redirect: false });
      return auth.auth();
    });

    expect(after).toBeNull();
    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await nextSession(auth, jar)).toBeNull();
  });

  it("leaves the cookie deleted when the middleware's reader re-issued it before the sign-out and is asked again after", async () => {
    const auth = ReactiveAuth(rollingConfig());
    const { jar, token } = await signedIn(auth);
    const call = await action(auth, jar);

    expect(await localsAuth(call)).toMatchObject({ user: { email: ADA.email } });
    // Re-issued (updateAge 0): the response sets the session cookie, until the sign-out.
    expect(call.response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=ey`))).toBe(true);
    await thrownBy(serving(call, () => auth.signOut(form({ csrfToken: token }))));
    expect(await localsAuth(call)).toBeNull();

    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("does not let a read still running when the sign-out ended write the old session back", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The read waits in the jwt callback until the sign-out has written its deletion.
    const auth = ReactiveAuth(
      rollingConfig({
        callbacks: {
          jwt: async ({ token, trigger }) => {
            if (!trigger) await gate;
            return token;
          },
        },
      }),
    );
    const { jar, token } = await signedIn(auth);
    const call = await action(auth, jar);

    const slowRead = localsAuth(call);
    await thrownBy(serving(call, () => auth.signOut(form({ csrfToken: token }))));
    release();
    await slowRead;

    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("shows the page's queries rendered in the same response (single flight) no session, through the middleware's reader too", async () => {
    const auth = ReactiveAuth(rollingConfig());
    const { jar, token } = await signedIn(auth);
    const call = await action(auth, jar);

    await serving(call, () => auth.signOut({ csrfToken: token, redirect: false }));
    const page = singleFlight(call, "/protected");
    expect(await serving(page, () => auth.auth())).toBeNull();
    expect(await serving(page, () => localsAuth(page))).toBeNull();

    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("getSession(request, config) after a sign-out in the same request reads no session and writes nothing after the deletion", async () => {
    const options = rollingConfig();
    const auth = ReactiveAuth(options);
    const { jar, token } = await signedIn(auth);
    const call = await action(auth, jar);

    const after = await serving(call, async () => {
      await auth.signOut({ csrfToken: token, redirect: false });
      return getSession(call.request, options);
    });

    expect(after).toBeNull();
    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("reads no session after the catch-all route signed out in the same event, and writes no session cookie beside the route's", async () => {
    const auth = ReactiveAuth(rollingConfig());
    const { jar, token } = await signedIn(auth);
    const call = event("/api/auth/signout", { jar, headers: SAME_ORIGIN, form: { csrfToken: token } });

    const response = await auth.POST(call);
    expect(response?.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect(await auth.auth(call)).toBeNull();
    expect(call.response.headers.getSetCookie()).toEqual([]);
  });
});

describe("a SolidStart sign-in over another user's session, followed by a read in the same request", () => {
  it("shows the new user, and never re-issues the previous user's cookie over the new one", async () => {
    const auth = ReactiveAuth(rollingConfig());
    const { jar, token } = await signedIn(auth, "grace");
    const call = await action(auth, jar);

    expect(await localsAuth(call)).toMatchObject({ user: { email: GRACE.email } });
    const after = await serving(call, async () => {
      await auth.signIn("credentials", { username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token, redirect: false });
      return auth.auth();
    });

    expect(after).toMatchObject({ user: { email: ADA.email } });
    jar.keep(call.response.headers);
    expect(await nextSession(auth, jar)).toMatchObject({ user: { email: ADA.email } });
  });
});
