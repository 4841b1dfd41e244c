/**
 * "Your devices" from a Next server component and server action: `listSessions`, `revokeSession`,
 * `revokeOtherSessions` and `revokeAllSessions` of `AppAuth(config)` read the request through
 * `next/headers` and write cookies through Next's cookie store.
 */
import { describe, expect, it, vi } from "vitest";
import AppAuth from "../../../integrations/next/index.js";
import { appConfig, Browser, SESSION_COOKIE } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

/** Two browsers signed in as Ada to one app. */
async function twoBrowsers() {
  const app = AppAuth(appConfig());
  const [laptop, phone] = [new Browser(), new Browser()];
  await laptop.signIn(app);
  await phone.signIn(app);
  const as = <T>(browser: Browser, work: () => Promise<T>) => inRequest(new RequestScope({ url: "http://localhost:3000/devices", cookies: browser.record() }), work);
  const signedIn = async (browser: Browser) => (await as(browser, () => app.auth())) !== null;
  return { app, laptop, phone, as, signedIn };
}

describe("the person's sessions from Next server code", () => {
  it("lists both browsers, the current one marked, and ends the other from a server action", async () => {
    const { app, laptop, phone, as, signedIn } = await twoBrowsers();
    const sessions = (await as(laptop, () => app.listSessions()))!;
    expect(sessions.map((s) => s.current).sort()).toEqual([false, true]);

    const other = sessions.find((s) => !s.current)!;
    expect(await as(laptop, () => app.revokeSession(other.id))).toBe(true);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    // The same id again, or a made-up one: not one of theirs.
    expect(await as(laptop, () => app.revokeSession(other.id))).toBe(false);
  });

  it("ends every other session, or all of them with this one's cookie cleared", async () => {
    const { app, laptop, phone, as, signedIn } = await twoBrowsers();
    expect(await as(laptop, () => app.revokeOtherSessions())).toBe(1);
    expect(await signedIn(phone)).toBe(false);

    const scope = new RequestScope({ url: "http://localhost:3000/devices", cookies: laptop.record() });
    expect(await inRequest(scope, () => app.revokeAllSessions())).toBe(1);
    expect(scope.written(SESSION_COOKIE)?.value).toBe("");
  });

  it("lists nothing for a visitor who is not signed in", async () => {
    const { app, as } = await twoBrowsers();
    expect(await as(new Browser(), () => app.listSessions())).toBeNull();
  });

  it("lets the application end every session of a user by id", async () => {
    const { app, laptop, phone, signedIn } = await twoBrowsers();
    expect(await app.revokeAllSessions("user-ada")).toBe(2);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(phone)).toBe(false);
  });
});
