/**
 * `auth()` under Next's staged prerendering (`cacheComponents`, create-next-app 16's default): it
 * reads the request (headers, cookies), then waits for `connection()` before anything reads the
 * clock. Next reports a `Date.now()` read in a prerender stage as an error of the page that called
 * `auth()` (issue 26). `next/headers` and `next/server`'s `connection` are replaced by recorders; the
 * rest of Next is real.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { appConfig, signedIn } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

const events: string[] = [];
let recording = false;
const record = (event: string) => {
  if (recording) events.push(event);
};
let connectionAnswer: () => Promise<void> = async () => {};

vi.mock("next/headers.js", async () => {
  const real = (await import("./next-request-scope.js")).nextHeaders;
  return {
    headers: async () => (record("headers"), real.headers()),
    cookies: async () => (record("cookies"), real.cookies()),
  };
});
vi.mock("next/server.js", async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  connection: () => {
    record("connection");
    return connectionAnswer().then(() => record("connected"));
  },
}));

/** Runs `auth()` in a request with the browser's cookies, recording what it asks of Next and when it reads the clock. */
async function authRecorded(): Promise<{ session: unknown; events: string[] }> {
  const { app, browser } = await signedIn(appConfig());
  const now = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => (record("clock"), now()));
  events.length = 0;
  recording = true;
  try {
    const session = await inRequest(new RequestScope({ cookies: browser.record(), canSetCookies: false }), () => app.auth());
    return { session, events: [...events] };
  } finally {
    recording = false;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  connectionAnswer = async () => {};
});

describe("auth() in a server component reads the clock only at request time", () => {
  it("asks for the headers and cookies, then waits for connection(), before its first clock read", async () => {
    const { session, events: seen } = await authRecorded();
    expect(session).toMatchObject({ user: { email: "ada@example.com" } });
    const firstClock = seen.indexOf("clock");
    expect(firstClock).toBeGreaterThan(-1);
    expect(seen.slice(0, firstClock)).toEqual(["headers", "cookies", "connection", "connected"]);
  });

  it("still reads the session where connection() refuses to run (inside after())", async () => {
    connectionAnswer = () => Promise.reject(new Error('Route / used "connection" inside "after(...)".'));
    const { session, events: seen } = await authRecorded();
    expect(session).toMatchObject({ user: { email: "ada@example.com" } });
    expect(seen).toContain("clock");
    expect(seen).not.toContain("connected");
  });

  it("reads nothing of the session while connection() has not answered (a prerender)", async () => {
    let answer!: () => void;
    connectionAnswer = () => new Promise<void>((resolve) => (answer = resolve));
    const { app, browser } = await signedIn(appConfig());
    const now = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => (record("clock"), now()));
    events.length = 0;
    recording = true;
    try {
      const pending = inRequest(new RequestScope({ cookies: browser.record(), canSetCookies: false }), () => app.auth());
      await vi.waitFor(() => expect(events).toContain("connection"));
      // Let every settled promise run: nothing may go on while connection() holds the render.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(events).not.toContain("clock");
      answer();
      expect(await pending).toMatchObject({ user: { email: "ada@example.com" } });
      expect(events.indexOf("clock")).toBeGreaterThan(events.indexOf("connected"));
    } finally {
      recording = false;
    }
  });
});
