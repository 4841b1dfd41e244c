/**
 * GET and POST /sessions ("Your devices"), for JWT sessions (records in this configuration's memory,
 * and in an adapter) and database sessions: a person sees and ends their own sessions, and only
 * theirs — another person's session id, guessed or learned, is "not found" like a made-up one, and a
 * cross-site post without the CSRF token ends nothing — while the person keeps everything.
 */
import { describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import Credentials from "../../../src/providers/credentials.js";
import { listSessionsAction, revokeAllSessions, revokeSessionsAction, type SessionInfo } from "../../../src/server/sessions.js";
import type { AuthConfig, SessionRevokedMessage, User } from "../../../src/types.js";
import { testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const PEOPLE: Record<string, User & { id: string; email: string }> = {
  ada: { id: "user-ada", name: "Ada", email: "ada@example.com" },
  bob: { id: "user-bob", name: "Bob", email: "bob@example.com" },
};

interface Setup {
  config: AuthConfig;
  revoked: SessionRevokedMessage[];
  signIn(name: "ada" | "bob", userAgent: string): Promise<TestClient>;
}

/** A configuration that records what `events.sessionRevoked` reports, and how a person signs in to it (ending in a 302). */
function setupOf(overrides: Partial<AuthConfig>, signIn: (client: TestClient, name: "ada" | "bob", headers: Record<string, string>) => Promise<Response>): Setup {
  const revoked: SessionRevokedMessage[] = [];
  const config = testConfig({ ...overrides, events: { sessionRevoked: (message) => void revoked.push(message) } });
  return {
    config,
    revoked,
    async signIn(name, userAgent) {
      const client = new TestClient(config);
      expect((await signIn(client, name, { "user-agent": userAgent })).status).toBe(302);
      return client;
    },
  };
}

/**
 * Credentials for Ada and Bob, JWT sessions. With an adapter, Ada is a user there (its sessions table
 * keeps her records); Bob is not (the application keeps him elsewhere: his stay in this process).
 */
function jwtSetup(withAdapter: boolean): () => Promise<Setup> {
  return async () => {
    const adapter = withAdapter ? MemoryAdapter() : undefined;
    await adapter?.createUser({ ...PEOPLE.ada!, image: null, emailVerified: null });
    const authorize = (c: Partial<Record<string, unknown>>) => (c.password === "pw" && PEOPLE[String(c.username)]) || null;
    return setupOf(
      { ...(adapter ? { adapter } : {}), session: { strategy: "jwt" }, providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })] },
      (client, name, headers) => client.signIn(name, "pw", { headers }),
    );
  };
}

/** Database sessions in the memory adapter, Ada and Bob signed in by email link. */
async function databaseSetup(): Promise<Setup> {
  const links: string[] = [];
  const adapter = MemoryAdapter();
  for (const user of Object.values(PEOPLE)) await adapter.createUser({ ...user, image: null, emailVerified: new Date() });
  const mail = { id: "mail", name: "Email", type: "email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) };
  return setupOf({ adapter, providers: [mail as never] }, async (client, name, headers) => {
    await client.post("/signin/mail", { csrfToken: await client.csrf(), email: PEOPLE[name]!.email }, { headers });
    return client.get(links.pop()!, { headers });
  });
}

async function list(client: TestClient): Promise<SessionInfo[]> {
  const response = await client.get("/sessions");
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: SessionInfo[] }).sessions;
}

async function revoke(client: TestClient, body: Record<string, string>): Promise<Response> {
  return client.postJson("/sessions", { csrfToken: await client.csrf(), ...body });
}

async function signedIn(client: TestClient): Promise<boolean> {
  return (await client.session()) !== null;
}

describe.each([
  ["JWT sessions, recorded in this configuration's memory", jwtSetup(false), "credentials"],
  ["JWT sessions, recorded in the adapter (Ada) or, for a user it does not hold, in memory (Bob)", jwtSetup(true), "credentials"],
  ["database sessions", databaseSetup, "mail"],
] as const)("a person's sessions (%s)", (_title, setup, method) => {
  it("lists the person's sessions from two browsers, this one marked, with how and from what they signed in", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const phone = await signIn("ada", SAFARI_IPHONE);

    const seen = await list(laptop);
    expect(seen).toHaveLength(2);
    expect(seen.find((s) => s.current)).toMatchObject({ device: "Firefox on Windows", signInMethod: method });
    expect(seen.find((s) => !s.current)).toMatchObject({ device: "Safari on iOS", signInMethod: method });
    for (const session of seen) expect(Date.parse(session.createdAt!)).toBeGreaterThan(0);
    // The same two, seen from the phone, marked the other way round.
    const fromPhone = await list(phone);
    expect(fromPhone.find((s) => s.current)?.id).toBe(seen.find((s) => !s.current)?.id);
  });

  it("moves 'last seen' on when the session is renewed, and not on every read", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const [signedInAs] = await list(laptop);
    expect(signedInAs!.lastSeenAt).toBe(signedInAs!.createdAt);
    await laptop.session();
    expect((await list(laptop))[0]!.lastSeenAt).toBe(signedInAs!.createdAt);

    // Two days on, past `updateAge` (a day): the next read renews the session.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 86_400_000 });
    try {
      expect(await signedIn(laptop)).toBe(true);
      const [renewed] = await list(laptop);
      expect(Date.parse(renewed!.lastSeenAt!)).toBeGreaterThan(Date.parse(signedInAs!.lastSeenAt!));
      expect(renewed!.createdAt).toBe(signedInAs!.createdAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never shows a session's token, only its id", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const body = await (await laptop.get("/sessions")).text();
    const cookie = laptop.cookie("appauth.session-token")!;
    expect(body).not.toContain(cookie);
  });

  it("answers 401 to a request signed in as nobody, for listing and for ending", async () => {
    const { config } = await setup();
    const stranger = new TestClient(config);
    expect((await stranger.get("/sessions")).status).toBe(401);
    expect((await revoke(stranger, { revoke: "all" })).status).toBe(401);
  });

  it("ends another of the person's sessions: that browser is signed out on its next request, this one stays", async () => {
    const { signIn, revoked } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const phone = await signIn("ada", SAFARI_IPHONE);
    const other = (await list(laptop)).find((s) => !s.current)!;

    const response = await revoke(laptop, { sessionId: other.id });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revoked: 1 });
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    expect((await list(laptop)).map((s) => s.id)).not.toContain(other.id);
    expect(revoked).toContainEqual(expect.objectContaining({ userId: "user-ada", sessionId: other.id }));
  });

  it("answers 'not found' for another person's session id, as for a made-up one, and that session stays", async () => {
    const { signIn } = await setup();
    const ada = await signIn("ada", FIREFOX);
    const bob = await signIn("bob", SAFARI_IPHONE);
    const bobsId = (await list(bob))[0]!.id;

    // Ada never sees Bob's session in her list.
    expect((await list(ada)).map((s) => s.id)).not.toContain(bobsId);
    const guessed = await revoke(ada, { sessionId: bobsId });
    const madeUp = await revoke(ada, { sessionId: "0123456789abcdef0123456789abcdef" });
    expect(guessed.status).toBe(404);
    expect(madeUp.status).toBe(404);
    expect(await guessed.json()).toEqual(await madeUp.json());
    expect(await signedIn(bob)).toBe(true);
    expect(await list(bob)).toHaveLength(1);
  });

  it("ends nothing for a cross-site post without the CSRF token, and the person keeps every session", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const phone = await signIn("ada", SAFARI_IPHONE);
    const other = (await list(laptop)).find((s) => !s.current)!;

    // What a hostile page can make the browser send: its cookies, but no token.
    const bodies: Record<string, string>[] = [{ revoke: "all" }, { revoke: "others" }, { sessionId: other.id }];
    for (const body of bodies) {
      const forged = await laptop.post("/sessions", body, { headers: { origin: "https://evil.example" } });
      expect(forged.status).toBe(400);
    }
    expect(await signedIn(laptop)).toBe(true);
    expect(await signedIn(phone)).toBe(true);
    expect(await list(laptop)).toHaveLength(2);
  });

  it("ends every other session and keeps this one", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const others = [await signIn("ada", SAFARI_IPHONE), await signIn("ada", FIREFOX)];
    const bob = await signIn("bob", FIREFOX);

    expect(await (await revoke(laptop, { revoke: "others" })).json()).toEqual({ revoked: 2 });
    for (const client of others) expect(await signedIn(client)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    expect(await signedIn(bob)).toBe(true);
    expect((await list(laptop)).map((s) => s.current)).toEqual([true]);
  });

  it("ends every session, this one too, and clears its cookie", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    const phone = await signIn("ada", SAFARI_IPHONE);

    const response = await revoke(laptop, { revoke: "all" });
    expect(await response.json()).toEqual({ revoked: 2 });
    expect(laptop.cookie("appauth.session-token")).toBeUndefined();
    expect(await signedIn(phone)).toBe(false);
    // Signing in again works as ever.
    const again = await signIn("ada", FIREFOX);
    expect(await list(again)).toHaveLength(1);
  });

  it("refuses a post that asks for nothing it knows, ending nothing", async () => {
    const { signIn } = await setup();
    const laptop = await signIn("ada", FIREFOX);
    expect((await revoke(laptop, { revoke: "everyone" })).status).toBe(400);
    expect((await revoke(laptop, {})).status).toBe(400);
    expect(await signedIn(laptop)).toBe(true);
  });

  it("serves the same to server code: the helpers act for the request's person, on their own sessions only", async () => {
    const { signIn, config } = await setup();
    const ada = await signIn("ada", FIREFOX);
    const phone = await signIn("ada", SAFARI_IPHONE);
    const bob = await signIn("bob", FIREFOX);
    const requestOf = (client: TestClient) => new Request("http://localhost:3000/account", { headers: { cookie: client.cookieHeader()! } });

    const mine = (await listSessionsAction(requestOf(ada), config))!;
    expect(mine.map((s) => s.current).sort()).toEqual([false, true]);
    const bobsId = (await listSessionsAction(requestOf(bob), config))![0]!.id;
    expect(await revokeSessionsAction(requestOf(ada), config, { sessionId: bobsId })).toBeNull();
    expect(await signedIn(bob)).toBe(true);
    expect(await listSessionsAction(new Request("http://localhost:3000/account"), config)).toBeNull();

    const ended = await revokeSessionsAction(requestOf(ada), config, { revoke: "others" });
    expect(ended).toEqual({ revoked: 1, cookies: [] });
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(ada)).toBe(true);
  });

  it("lets the application end every session of a user in one call, and no one else's", async () => {
    const { signIn, config, revoked } = await setup();
    const sessions = [await signIn("ada", FIREFOX), await signIn("ada", SAFARI_IPHONE)];
    const bob = await signIn("bob", FIREFOX);

    expect(await revokeAllSessions(config, "user-ada")).toBe(2);
    for (const client of sessions) expect(await signedIn(client)).toBe(false);
    expect(await signedIn(bob)).toBe(true);
    expect(revoked).toContainEqual(expect.objectContaining({ userId: "user-ada" }));
  });
});

describe("JWT session records kept in memory", () => {
  it("keeps a person's 100 newest sessions: signing in again and again neither grows memory nor drops the newest", async () => {
    const setup = await jwtSetup(false)();
    const first = await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
    for (let i = 0; i < 105; i++) await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
    const newest = await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
    const listed = await list(newest);
    expect(listed).toHaveLength(100);
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    // The first browser's record went first; its cookie still opens (a record is for the list, not the session).
    expect((await list(first)).some((session) => session.current)).toBe(false);
  });
});

describe("JWT session records kept in memory, at the cap", () => {
  it("lets the session seen least recently go first: one renewed since keeps its record", async () => {
    const setup = await jwtSetup(false)();
    const kept = await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
    const dropped = await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0");
    // Two days on, past `updateAge`: reading renews the first session, which moves its record last in line.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 86_400_000 });
    try {
      expect((await kept.session()) as unknown).not.toBeNull();
      for (let i = 0; i < 99; i++) await setup.signIn("bob", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
      expect((await list(kept)).some((session) => session.current)).toBe(true);
      expect((await list(dropped)).some((session) => session.current)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
