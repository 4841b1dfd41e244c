/**
 * Revocable JWT sessions in one process (src/session/revocation.ts): every session has an id that
 * survives re-issue; revoking a user's sessions, one session, or all but one refuses exactly those
 * cookies and keeps everyone else's; `events.sessionRevoked` reports it. Across processes:
 * test/src/data/revocation-multi-instance.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sqliteAdapter } from "../../../src/adapters/sql/sqlite.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { encode, getToken } from "../../../src/jwt/index.js";
import Credentials from "../../../src/providers/credentials.js";
import { revokeSessions, SESSION_ID_CLAIM, SIGNED_IN_AT_CLAIM, type RevocationTarget } from "../../../src/session/revocation.js";
import type { AuthConfig, JWT, SessionRevokedMessage } from "../../../src/types.js";
import { SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const PASSWORD = "correct horse battery staple";
const PEOPLE: Record<string, { id: string; name: string; email: string }> = {
  ada: { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" },
  grace: { id: "user-grace", name: "Grace Hopper", email: "grace@example.com" },
};

function setup(overrides: Partial<AuthConfig> = {}) {
  const revoked: SessionRevokedMessage[] = [];
  const config = testConfig({
    session: { strategy: "jwt" },
    rateLimit: false,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (password === PASSWORD && typeof username === "string" ? (PEOPLE[username] ?? null) : null),
      }),
    ],
    events: { sessionRevoked: (message) => void revoked.push(message) },
    ...overrides,
  });
  return { config, revoked, revoke: (target: RevocationTarget) => revokeSessions(getRuntime(config), target) };
}

/** A browser signed in as `who`. */
async function signedIn(config: AuthConfig, who: keyof typeof PEOPLE): Promise<TestClient> {
  const client = new TestClient(config);
  const response = await client.signIn(who, PASSWORD);
  expect(response.status).toBe(302);
  expect(client.cookie(SESSION_COOKIE)).toBeDefined();
  return client;
}

async function tokenOf(client: TestClient): Promise<JWT | null> {
  const req = new Request("http://localhost:3000/", { headers: { cookie: client.cookieHeader() ?? "" } });
  return (await getToken({ req, secret: SECRET, salt: SESSION_COOKIE })) as JWT | null;
}

async function emailOf(client: TestClient): Promise<string | null> {
  return ((await client.session()) as { user?: { email?: string } } | null)?.user?.email ?? null;
}

describe("a JWT session", () => {
  it("gets an id and its sign-in time at sign-in, and keeps both when re-issued, whatever the jwt callback returns", async () => {
    const { config } = setup({ callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email, name: token.name }) } });
    const before = Date.now();
    const ada = await signedIn(config, "ada");
    const issued = await tokenOf(ada);
    expect(issued?.[SESSION_ID_CLAIM]).toMatch(/^[0-9a-f-]{36}$/);
    expect(issued?.[SIGNED_IN_AT_CLAIM]).toBeGreaterThanOrEqual(before);

    const update = await ada.postJson("/session", { csrfToken: await ada.csrf(), data: { theme: "dark" } });
    expect(update.status).toBe(200);
    const reissued = await tokenOf(ada);
    expect(reissued?.[SESSION_ID_CLAIM]).toBe(issued?.[SESSION_ID_CLAIM]);
    expect(reissued?.[SIGNED_IN_AT_CLAIM]).toBe(issued?.[SIGNED_IN_AT_CLAIM]);
  });

  it("of each sign-in is a session of its own", async () => {
    const { config } = setup();
    const [phone, laptop] = [await signedIn(config, "ada"), await signedIn(config, "ada")];
    expect((await tokenOf(phone))?.[SESSION_ID_CLAIM]).not.toBe((await tokenOf(laptop))?.[SESSION_ID_CLAIM]);
  });
});

describe("revoking JWT sessions", () => {
  it("of a user refuses every cookie of theirs issued before, and keeps other people's and their later ones", async () => {
    const { config, revoke, revoked } = setup();
    const [phone, laptop, grace] = [await signedIn(config, "ada"), await signedIn(config, "ada"), await signedIn(config, "grace")];
    expect(await emailOf(phone)).toBe("ada@example.com");

    await revoke({ userId: "user-ada" });

    expect(await emailOf(phone)).toBeNull();
    expect(phone.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await emailOf(laptop)).toBeNull();
    expect(await emailOf(grace)).toBe("grace@example.com");
    const later = await signedIn(config, "ada");
    expect(await emailOf(later)).toBe("ada@example.com");
    expect(revoked).toEqual([{ userId: "user-ada", strategy: "jwt" }]);
  });

  it("by id ends that session only", async () => {
    const { config, revoke, revoked } = setup();
    const [phone, laptop] = [await signedIn(config, "ada"), await signedIn(config, "ada")];
    const sessionId = (await tokenOf(phone))![SESSION_ID_CLAIM] as string;

    await revoke({ userId: "user-ada", sessionId });

    expect(await emailOf(phone)).toBeNull();
    expect(await emailOf(laptop)).toBe("ada@example.com");
    expect(revoked).toEqual([{ userId: "user-ada", sessionId, strategy: "jwt" }]);
  });

  it("of a user but one keeps that one (sign out everywhere else)", async () => {
    const { config, revoke } = setup();
    const [phone, laptop] = [await signedIn(config, "ada"), await signedIn(config, "ada")];
    const kept = (await tokenOf(laptop))![SESSION_ID_CLAIM] as string;

    await revoke({ userId: "user-ada", exceptSessionId: kept });

    expect(await emailOf(phone)).toBeNull();
    expect(await emailOf(laptop)).toBe("ada@example.com");
  });

  it("of a user refuses a token made before session ids (Auth.js's, or ours before), which gets an id when re-issued", async () => {
    const { config, revoke } = setup();
    const old = await encode({ token: { sub: "user-ada", email: "ada@example.com" }, secret: SECRET, salt: SESSION_COOKIE });
    const [kept, refused] = [new TestClient(config), new TestClient(config)];
    for (const client of [kept, refused]) client.setCookie(SESSION_COOKIE, old);
    const issuedAt = (await tokenOf(kept))!.iat!;
    expect(await tokenOf(kept)).not.toHaveProperty(SESSION_ID_CLAIM);

    const update = await kept.postJson("/session", { csrfToken: await kept.csrf(), data: {} });
    expect(update.status).toBe(200);
    const reissued = await tokenOf(kept);
    expect(reissued?.[SESSION_ID_CLAIM]).toEqual(expect.any(String));
    expect(reissued?.[SIGNED_IN_AT_CLAIM]).toBe(issuedAt * 1000);

    await revoke({ userId: "user-ada" });
    expect(await emailOf(refused)).toBeNull();
    expect(await emailOf(kept)).toBeNull();
  });

  it("holds for every configuration sharing an adapter, and never leaks into one without a store", async () => {
    const adapter = MemoryAdapter();
    const first = setup({ adapter });
    const second = setup({ adapter });
    const storeless = setup();
    const [one, two, alone] = [await signedIn(first.config, "ada"), await signedIn(second.config, "ada"), await signedIn(storeless.config, "ada")];
    expect(await emailOf(two)).toBe("ada@example.com");

    await first.revoke({ userId: "user-ada" });

    expect(await emailOf(one)).toBeNull();
    expect(await emailOf(two)).toBeNull();
    expect(await emailOf(alone)).toBe("ada@example.com");
  });

  it("through a store that cannot notify (SQLite) reaches another adapter on the same database within about a second", async () => {
    const dir = await mkdtemp(join(tmpdir(), "appauth-revocation-"));
    const [here, there] = [sqliteAdapter(join(dir, "store.sqlite")), sqliteAdapter(join(dir, "store.sqlite"))];
    try {
      await here.migrate();
      const [revoking, reading] = [setup({ adapter: here }), setup({ adapter: there })];
      const ada = await signedIn(reading.config, "ada");
      // The reading side has Ada's answer cached before the revocation.
      expect(await emailOf(ada)).toBe("ada@example.com");
      const revokedAt = performance.now();
      await revoking.revoke({ userId: "user-ada" });
      let email = await emailOf(ada);
      while (email !== null && performance.now() - revokedAt < 5_000) email = await emailOf(ada);
      expect(email).toBeNull();
    } finally {
      await Promise.all([here.destroy(), there.destroy()]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a target without a user id, as a TypeError naming it", async () => {
    const { revoke } = setup();
    await expect(revoke({ userId: "" })).rejects.toThrow(/target\.userId/);
  });
});
