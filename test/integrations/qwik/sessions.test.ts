/**
 * "Your devices" from Qwik City server code: `listSessions` and `revokeSessions` of the server half
 * read the event's request and write cookies through Qwik's cookie API.
 */
import { describe, expect, it } from "vitest";
import Credentials from "../../../src/providers/credentials.js";
import { configOf, listSessions, registerConfig, revokeAllSessionsOf, revokeSessions, type AuthRequestEvent } from "../../../integrations/qwik/server.js";
import type { ResumableAuthConfig } from "../../../integrations/qwik/env.js";
import { TestClient } from "../../helpers/test-client.js";

const SECRET = "a-test-secret-that-is-long-enough-for-hkdf-0123456789";

/** A configuration of its own per test: its sessions are recorded in its own memory. */
const configFor = (): ResumableAuthConfig => ({
  trustHost: true,
  secret: SECRET,
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (username === "demo" && password === "demo" ? { id: "1", name: "Demo" } : null),
    }),
  ],
});
type Source = () => Promise<ResumableAuthConfig>;

function eventFor(source: Source, cookie: string | undefined) {
  const written = new Map<string, string>();
  const event = {
    request: new Request("http://localhost:3000/devices", { headers: cookie ? { cookie } : {} }),
    url: new URL("http://localhost:3000/devices"),
    env: { get: () => undefined },
    sharedMap: new Map<string, unknown>(),
    headers: new Headers(),
    clientConn: {},
    cookie: { set: (name: string, value: string) => written.set(name, value) },
  } as unknown as AuthRequestEvent;
  registerConfig(event, source);
  return { event, written };
}

/** Two browsers signed in as the demo user, through the core configuration Qwik makes of `config`. */
async function twoBrowsers(): Promise<{ source: Source; laptop: TestClient; phone: TestClient }> {
  const config = configFor();
  const source: Source = async () => config;
  const core = await configOf(eventFor(source, undefined).event, source);
  const [laptop, phone] = [new TestClient(core), new TestClient(core)];
  for (const browser of [laptop, phone]) expect((await browser.signIn("demo", "demo")).status).toBe(302);
  return { source, laptop, phone };
}

describe("the person's sessions from Qwik City server code", () => {
  it("lists both browsers with this one marked, and ends the other", async () => {
    const { source, laptop, phone } = await twoBrowsers();
    const sessions = (await listSessions(eventFor(source, laptop.cookieHeader()).event))!;
    expect(sessions.map((s) => s.current).sort()).toEqual([false, true]);
    const other = sessions.find((s) => !s.current)!;
    expect(await revokeSessions(eventFor(source, laptop.cookieHeader()).event, { sessionId: other.id })).toBe(1);
    expect(await phone.session()).toBeNull();
    expect(await laptop.session()).not.toBeNull();
  });

  it("ends all of the person's sessions with this one's cookie cleared, and lists nothing for a visitor", async () => {
    const { source, laptop, phone } = await twoBrowsers();
    const { event, written } = eventFor(source, laptop.cookieHeader());
    expect(await revokeSessions(event, { revoke: "all" })).toBe(2);
    expect(written.get("appauth.session-token")).toBe("");
    expect(await phone.session()).toBeNull();
    expect(await listSessions(eventFor(source, undefined).event)).toBeNull();
  });

  it("lets the application end every session of a user by id", async () => {
    const { source, laptop } = await twoBrowsers();
    expect(await revokeAllSessionsOf(eventFor(source, undefined).event, "1")).toBe(2);
    expect(await laptop.session()).toBeNull();
  });
});
