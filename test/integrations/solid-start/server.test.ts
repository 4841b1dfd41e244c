/**
 * The server side of `appauth/solid-start`, called as SolidStart calls it: inside a request event
 * provided the way SolidStart provides it (`provideRequestEvent` from solid-js), with the response
 * headers the page or server function sends. Sign-in and sign-out actions keep the CSRF check and
 * refuse other sites; cookies keep every attribute; the catch-all route honours `prefix`.
 */
import { describe, expect, it } from "vitest";
import ReactiveAuth, { CredentialsSignin, getSession, MissingCSRF, type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { RateLimited } from "../../../src/errors.js";
import { Email } from "../../../src/providers/email.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, ORIGIN, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";
import { event, form, SAME_ORIGIN, serving, thrownBy, visitor, type Jar } from "./fixtures.js";

const THIRTY_DAYS = 30 * 24 * 60 * 60;

function config(overrides: Partial<ReactiveAuthConfig> = {}): ReactiveAuthConfig {
  return testConfig(overrides as Parameters<typeof testConfig>[0]) as ReactiveAuthConfig;
}

/** A persistent cookie: its `Expires` is the session's end, 30 days away (a browser-session cookie has none). */
function expectThirtyDays(expires: Date | undefined): void {
  expect(expires).toBeInstanceOf(Date);
  expect(Math.abs(expires!.getTime() - (Date.now() + THIRTY_DAYS * 1000))).toBeLessThan(60_000);
}

describe("ReactiveAuth's sign-in action", () => {
  it("signs in with the form's CSRF token: a redirect to redirectTo, and a persistent session cookie (Expires in 30 days)", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
    const thrown = await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token, redirectTo: "/welcome" }))));
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("location")).toBe(`${ORIGIN}/welcome`);
    const session = setCookiesOf(new Response(null, { headers: call.response.headers })).find((c) => c.name === SESSION_COOKIE);
    expectThirtyDays(session?.expires);
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    jar.keep(call.response.headers);
    const next = event("/", { jar });
    expect(await serving(next, () => auth.auth())).toMatchObject({ user: { name: ADA.name, email: ADA.email } });
  });

  it("refuses a form without the CSRF token, or with another one, and sets no session", async () => {
    const auth = ReactiveAuth(config());
    const { jar } = await visitor(auth);
    for (const csrfToken of [undefined, "guessed", ""]) {
      const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
      const fields = { username: ADA_USERNAME, password: ADA_PASSWORD, ...(csrfToken !== undefined ? { csrfToken } : {}) };
      expect(await thrownBy(serving(call, () => auth.signIn("credentials", form(fields))))).toBeInstanceOf(MissingCSRF);
      expect(call.response.headers.getSetCookie()).toEqual([]);
    }
  });

  it("refuses another site's post even with a valid token (Origin or Sec-Fetch-Site), and sets no session", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await visitor(auth);
    const crossSite: Array<Record<string, string>> = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { origin: "null" }];
    for (const headers of crossSite) {
      const call = event("/_server?id=signin", { jar, method: "POST", headers });
      const fields = form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token });
      expect(await thrownBy(serving(call, () => auth.signIn("credentials", fields)))).toBeInstanceOf(MissingCSRF);
      expect(call.response.headers.getSetCookie()).toEqual([]);
    }
  });

  it("throws CredentialsSignin with its code for a wrong password, and sets no session", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
    const thrown = await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: "wrong", csrfToken: token }))));
    expect(thrown).toBeInstanceOf(CredentialsSignin);
    expect((thrown as CredentialsSignin).code).toBe("credentials");
    expect(call.response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("with redirect: false returns the URL, and without a provider it is the sign-in page under the prefix", async () => {
    const auth = ReactiveAuth(config({ prefix: "/custom/auth" }));
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
    const target = await serving(call, () => auth.signIn(undefined, { csrfToken: token, redirect: false, redirectTo: "/after" }));
    expect(target).toBe(`${ORIGIN}/custom/auth/signin?callbackUrl=%2Fafter`);
  });
});

describe("ReactiveAuth's sign-out action", () => {
  async function signedIn(auth: ReturnType<typeof ReactiveAuth>): Promise<{ jar: Jar; token: string }> {
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
    await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token }))));
    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
    return { jar, token };
  }

  it("ends the session with the form's token and redirects to redirectTo", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await signedIn(auth);
    const call = event("/_server?id=signout", { jar, method: "POST", headers: SAME_ORIGIN });
    const thrown = await thrownBy(serving(call, () => auth.signOut(form({ csrfToken: token, redirectTo: "/bye" }))));
    expect((thrown as Response).headers.get("location")).toBe(`${ORIGIN}/bye`);
    jar.keep(call.response.headers);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("refuses another site's post and a missing token: the session goes on", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await signedIn(auth);
    const attempts: Array<[Record<string, string>, Record<string, string>]> = [
      [{ origin: "https://evil.example" }, { csrfToken: token }],
      [SAME_ORIGIN, {}],
    ];
    for (const [headers, fields] of attempts) {
      const call = event("/_server?id=signout", { jar, method: "POST", headers });
      expect(await thrownBy(serving(call, () => auth.signOut(form(fields))))).toBeInstanceOf(MissingCSRF);
      expect(call.response.headers.getSetCookie()).toEqual([]);
    }
    expect(await serving(event("/", { jar }), () => auth.auth())).toMatchObject({ user: { email: ADA.email } });
  });
});

describe("ReactiveAuth's update", () => {
  it("updates the session from a form with its token, and refuses another site's form", async () => {
    const auth = ReactiveAuth(config({ callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token) } }));
    const { jar, token } = await visitor(auth);
    const signIn = event("/_server", { jar, method: "POST", headers: SAME_ORIGIN });
    await thrownBy(serving(signIn, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token }))));
    jar.keep(signIn.response.headers);

    const refused = event("/_server", { jar, method: "POST", headers: { origin: "https://evil.example" } });
    expect(await thrownBy(serving(refused, () => auth.update({ name: "Mallory" }, form({ csrfToken: token }))))).toBeInstanceOf(MissingCSRF);
    expect(refused.response.headers.getSetCookie()).toEqual([]);

    const accepted = event("/_server", { jar, method: "POST", headers: SAME_ORIGIN });
    expect(await serving(accepted, () => auth.update({ name: "Ada King" }, form({ csrfToken: token })))).toMatchObject({ user: { name: "Ada King" } });
    jar.keep(accepted.response.headers);
    expect(await serving(event("/", { jar }), () => auth.auth())).toMatchObject({ user: { name: "Ada King" } });
  });
});

describe("ReactiveAuth's catch-all route", () => {
  it("answers the library's routes under prefix, and nothing outside it", async () => {
    const auth = ReactiveAuth(config({ prefix: "/custom/auth/" }));
    const providers = await auth.GET(event("/custom/auth/providers"));
    expect(providers?.status).toBe(200);
    expect(Object.keys((await providers!.json()) as object)).toEqual(["credentials"]);
    expect(await auth.GET(event("/api/auth/providers"))).toBeUndefined();
  });

  it("refuses a cross-site credentials post without the CSRF token: no session cookie", async () => {
    const auth = ReactiveAuth(config());
    const response = await auth.POST(
      event("/api/auth/callback/credentials", { headers: { origin: "https://evil.example" }, form: { username: ADA_USERNAME, password: ADA_PASSWORD } }),
    );
    expect(response?.status).toBe(302);
    expect(new URL(response!.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect(response!.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("rejects a prefix that is not a path", () => {
    expect(() => ReactiveAuth(config({ prefix: "api/auth" }))).toThrow(TypeError);
  });
});

describe("reading the session", () => {
  async function signedInJar(options: ReactiveAuthConfig) {
    const auth = ReactiveAuth(options);
    const { jar, token } = await visitor(auth);
    const call = event("/_server", { jar, method: "POST", headers: SAME_ORIGIN });
    await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token }))));
    jar.keep(call.response.headers);
    return { auth, jar };
  }

  it("getSession(req, config) honours the prefix and writes the rolled cookie, with its Expires, to the response being served", async () => {
    // updateAge 0: every read re-issues the token, as a read after updateAge does.
    const options = config({ prefix: "/custom/auth", session: { strategy: "jwt", updateAge: 0 } });
    const { jar } = await signedInJar(options);
    const page = event("/dashboard", { jar });
    const session = await serving(page, () => getSession(page.request, options));
    expect(session).toMatchObject({ user: { name: ADA.name } });
    const rolled = setCookiesOf(new Response(null, { headers: page.response.headers })).find((c) => c.name === SESSION_COOKIE);
    expectThirtyDays(rolled?.expires);
  });

  it("getSession is null without a session, and for a request of another visitor writes nothing into this response", async () => {
    const options = config({ session: { strategy: "jwt", updateAge: 0 } });
    const { jar } = await signedInJar(options);
    const page = event("/", {});
    const elsewhere = event("/", { jar }).request;
    expect(await serving(page, () => getSession(page.request, options))).toBeNull();
    expect(await serving(page, () => getSession(elsewhere, options))).toMatchObject({ user: { email: ADA.email } });
    expect(page.response.headers.getSetCookie()).toEqual([]);
  });

  it("the middleware puts a lazy reader on locals: nothing is read until asked, then once per request", async () => {
    let reads = 0;
    const options = config({ callbacks: { session: ({ session }) => (reads++, session) } });
    const { auth, jar } = await signedInJar(options);
    reads = 0;
    const page = event("/", { jar });
    expect(await auth.middleware()(page)).toBeUndefined();
    expect(reads).toBe(0);
    const locals = page.locals as { auth: () => Promise<unknown> };
    const [first, second] = await Promise.all([locals.auth(), locals.auth()]);
    expect(first).toMatchObject({ user: { email: ADA.email } });
    expect(second).toBe(first);
    expect(reads).toBe(1);
  });

  it("the middleware sends a visitor of a protected page to sign in with the full URL, lets a signed-in one through, and never guards the sign-in page", async () => {
    const options = config();
    const { auth, jar } = await signedInJar(options);
    const guard = auth.middleware({ protect: ["/"] });
    const denied = await guard(event("/account/settings?tab=2"));
    expect(denied?.status).toBe(302);
    const target = new URL(denied!.headers.get("location")!);
    expect(target.pathname).toBe("/api/auth/signin");
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/account/settings?tab=2`);
    expect(await guard(event("/api/auth/signin?callbackUrl=%2F"))).toBeUndefined();
    expect(await guard(event("/account/settings", { jar }))).toBeUndefined();
  });

  it("requireSession returns the session, or throws a redirect to sign in that comes back to the given path (never another origin)", async () => {
    const options = config();
    const { auth, jar } = await signedInJar(options);
    expect(await serving(event("/_server", { jar }), () => auth.requireSession("/protected"))).toMatchObject({ user: { email: ADA.email } });
    for (const [path, back] of [
      ["/protected?x=1", `${ORIGIN}/protected?x=1`],
      ["//evil.example/", `${ORIGIN}/`],
    ]) {
      const thrown = await thrownBy(serving(event("/_server"), () => auth.requireSession(path)));
      expect((thrown as Response).status).toBe(302);
      expect(new URL((thrown as Response).headers.get("location")!).searchParams.get("callbackUrl")).toBe(back);
    }
  });
});

describe("ReactiveAuth's sign-in action, per client address", () => {
  /** An email sign-in setup that records the addresses links were sent to. */
  function linkAuth(extra: Partial<ReactiveAuthConfig> = {}) {
    const sent: string[] = [];
    const providers = [Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) })];
    return { auth: ReactiveAuth(config({ adapter: MemoryAdapter(), providers, ...extra })), sent };
  }

  /** A visitor at `clientAddress` asks for a link from the sign-in form's action; what the action threw. */
  async function askForLink(auth: ReturnType<typeof ReactiveAuth>, n: number, from: { clientAddress: string; headers?: Record<string, string> }) {
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: { ...SAME_ORIGIN, ...from.headers }, clientAddress: from.clientAddress });
    return thrownBy(serving(call, () => auth.signIn("email", form({ email: `visitor${n}@example.test`, csrfToken: token }))));
  }

  it("counts link requests by the event's clientAddress: the 21st from one address is refused, 25 addresses get 25 links", async () => {
    const { auth, sent } = linkAuth();
    for (let n = 0; n < 20; n++) expect(await askForLink(auth, n, { clientAddress: "203.0.113.7" })).toBeInstanceOf(Response);
    expect(await askForLink(auth, 20, { clientAddress: "203.0.113.7" })).toBeInstanceOf(RateLimited);
    expect(sent).toHaveLength(20);

    const other = linkAuth();
    for (let n = 0; n < 25; n++) await askForLink(other.auth, n, { clientAddress: `198.51.100.${n + 1}` });
    expect(other.sent).toHaveLength(25);
  });

  it("behind a proxy with trustProxy, counts the visitor X-Forwarded-For names, not the proxy's clientAddress", async () => {
    const { auth, sent } = linkAuth({ rateLimit: { trustProxy: true } });
    for (let n = 0; n < 25; n++) await askForLink(auth, n, { clientAddress: "10.0.0.2", headers: { "x-forwarded-for": `198.51.100.${n + 1}` } });
    expect(sent).toHaveLength(25);
  });
});
