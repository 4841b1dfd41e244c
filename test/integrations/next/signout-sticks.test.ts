/**
 * A sign-out (or sign-in) in a Next server action sticks whatever reads the session afterwards in
 * the same request: `auth()` later in the action, or the server components Next re-renders with
 * the action's answer. Next's `cookies()` reflects the action's own writes there, and Next sends
 * one Set-Cookie per name, the last written. Served by Next's own request store (not a stand-in),
 * with sessions re-issued on every read (`updateAge: 0`), so a stale read would show.
 */
import "./next-async-storage.js";
import { describe, expect, it } from "vitest";
import AppAuth, { type AppAuthResult } from "../../../integrations/next/index.js";
import { ADA, passwordProvider } from "../../helpers/config.js";
import { appConfig, Browser, ORIGIN, SESSION_COOKIE } from "./fixtures.js";
import { NextActionRequest } from "./next-action-request.js";

const GRACE = { id: "user-grace", name: "Grace Hopper", email: "grace@example.com" };

function rollingApp(overrides: Parameters<typeof appConfig>[0] = {}): AppAuthResult {
  return AppAuth(
    appConfig({
      session: { strategy: "jwt", updateAge: 0 },
      providers: [passwordProvider(), passwordProvider({ id: "grace", authorize: ({ username }) => (username === "grace" ? { ...GRACE } : null) })],
      ...overrides,
    }),
  );
}

/** A browser signed in as Ada through the app's own routes. */
async function signedIn(app: AppAuthResult): Promise<Browser> {
  const browser = new Browser();
  await browser.signIn(app);
  return browser;
}

/** The session a browser holding these cookies has on its next request. */
async function nextSession(app: AppAuthResult, browser: Browser): Promise<unknown> {
  const request = new NextActionRequest(`${ORIGIN}/`, browser.header());
  return request.render(() => app.auth());
}

describe("a Next server action's sign-out followed by a session read in the same request", () => {
  it("reads no session with auth() after signOut({ redirect: false }) in the action, nor in the re-render, and the browser ends signed out", async () => {
    const app = rollingApp();
    const browser = await signedIn(app);
    const request = new NextActionRequest(`${ORIGIN}/account`, browser.header());

    const inAction = await request.action(async () => {
      await app.signOut({ redirect: false });
      return app.auth();
    });
    const inRender = await request.render(() => app.auth());

    expect(inAction).toBeNull();
    expect(inRender).toBeNull();
    browser.keep(request.response());
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await nextSession(app, browser)).toBeNull();
  });

  it("leaves the cookie deleted when auth() re-issued it earlier in the action", async () => {
    const app = rollingApp();
    const browser = await signedIn(app);
    const request = new NextActionRequest(`${ORIGIN}/account`, browser.header());

    await request.action(async () => {
      expect(await app.auth()).toMatchObject({ user: { email: ADA.email } });
      await app.signOut({ redirect: false });
    });

    browser.keep(request.response());
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("does not let a read still running when the sign-out ended write the old session back", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The read waits in the jwt callback until the sign-out has written its deletion.
    const app = rollingApp({
      callbacks: {
        jwt: async ({ token, trigger }) => {
          if (!trigger) await gate;
          return token;
        },
      },
    });
    const browser = await signedIn(app);
    const request = new NextActionRequest(`${ORIGIN}/account`, browser.header());

    await request.action(async () => {
      const slowRead = app.auth();
      await app.signOut({ redirect: false });
      release();
      await slowRead;
    });

    browser.keep(request.response());
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });
});

describe("a Next server action's sign-in over another user's session, followed by a read", () => {
  it("shows the new user in the action and the re-render, and the browser keeps the new user", async () => {
    const app = rollingApp();
    const browser = await signedIn(app);
    const request = new NextActionRequest(`${ORIGIN}/`, browser.header());

    const inAction = await request.action(async () => {
      await app.signIn("grace", { username: "grace", redirect: false });
      return app.auth();
    });
    const inRender = await request.render(() => app.auth());

    expect(inAction).toMatchObject({ user: { email: GRACE.email } });
    expect(inRender).toMatchObject({ user: { email: GRACE.email } });
    browser.keep(request.response());
    expect(await nextSession(app, browser)).toMatchObject({ user: { email: GRACE.email } });
  });
});
