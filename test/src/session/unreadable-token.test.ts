/**
 * A session cookie that cannot be a token is bad input, not a store question (issue 24, item 4).
 * Against every shipped adapter on its real server, wrapped in a spy that records each call: a NUL
 * or other control character, a character outside the token alphabet, or an absurd length reads as
 * no session — GET /session answers 200 `null` — with no adapter call and no error log. The tokens
 * the library mints (UUIDs) and those Auth.js stored (UUIDs, 64 hex characters) still read; a
 * custom generator that mints what could not be read back is a configuration fault.
 */
import { randomUUID, randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { mysqlAdapter, postgresAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import { sqliteAdapter } from "../../../src/adapters/sqlite/index.js";
import { credentialIdLookups } from "../../../src/flows/credential-id.js";
import { decode } from "../../../src/jwt/index.js";
import Nodemailer from "../../../src/providers/email.js";
import type { Adapter, JWTDecodeParams } from "../../../src/types.js";
import { BASE_URL, SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { spiedAdapter } from "../../helpers/spied-adapter.js";
import {
  deleteKeys,
  mysqlAvailability,
  postgresAvailability,
  REDIS_URL,
  redisAvailability,
  runId,
  scratchMysql,
  scratchPostgres,
  scratchSqlite,
  type ScratchDatabase,
} from "../adapters/servers.js";

/** The real adapter, every method call recorded by name before it is passed on. */
function spied(adapter: Adapter): { adapter: Adapter; calls: string[] } {
  const calls: string[] = [];
  return { adapter: spiedAdapter(adapter, calls), calls };
}

/** Cookie values as a browser would send them (percent-encoded where a byte needs it). */
const UNREADABLE: ReadonlyArray<readonly [string, string]> = [
  ["a NUL byte inside a UUID", `${randomUUID().slice(0, 8)}%00${randomUUID().slice(9)}`],
  ["a lone NUL byte", "%00"],
  ["another control character", `${randomUUID()}%01`],
  ["a quote, as SQL injections carry", `${randomUUID()}%27%20OR%20%271%27%3D%271`],
  ["a character outside ASCII", `${randomUUID()}%C3%A9`],
  ["a space", `${randomUUID()}%20x`],
  ["an absurd length", "a".repeat(10_000)],
];

interface Store {
  adapter: Adapter;
  close(): Promise<void>;
}

async function sqlStore(scratch: ScratchDatabase, open: (location: string) => OwnedSqlAdapter): Promise<Store> {
  const adapter = open(scratch.location);
  await adapter.migrate();
  return {
    adapter,
    async close() {
      await adapter.destroy();
      await scratch.drop();
    },
  };
}

async function redisStore(): Promise<Store> {
  const keyPrefix = `${runId()}:`;
  const client = new Redis(REDIS_URL, { keyPrefix });
  return {
    adapter: RedisAdapter(client),
    async close() {
      const cleaner = new Redis(REDIS_URL);
      await deleteKeys(cleaner, keyPrefix);
      cleaner.disconnect();
      client.disconnect();
    },
  };
}

const stores = [
  { name: "memory", skip: undefined, open: async (): Promise<Store> => ({ adapter: MemoryAdapter(), close: async () => {} }) },
  { name: "SQLite", skip: undefined, open: async () => sqlStore(await scratchSqlite(), (file) => sqliteAdapter(file)) },
  { name: "PostgreSQL", skip: await postgresAvailability(), open: async () => sqlStore(await scratchPostgres(), (url) => postgresAdapter(url)) },
  { name: "MariaDB", skip: await mysqlAvailability(), open: async () => sqlStore(await scratchMysql(), (url) => mysqlAdapter(url)) },
  { name: "Redis", skip: await redisAvailability(), open: redisStore },
] as const;

for (const { name, skip, open } of stores) {
  (skip === undefined ? describe : describe.skip)(`a session cookie that cannot be a token, on the ${name} adapter`, () => {
    let store: Store;
    let spy: { adapter: Adapter; calls: string[] };
    let config: TestConfig;

    beforeAll(async () => {
      store = await open();
      spy = spied(store.adapter);
      config = testConfig({ adapter: spy.adapter, session: { strategy: "database" } });
    });
    afterAll(async () => {
      await store?.close();
    });

    for (const [what, raw] of UNREADABLE) {
      it(`reads a cookie with ${what} as no session, asking the store nothing and logging no error`, async () => {
        spy.calls.length = 0;
        config.logger.entries.length = 0;
        const client = new TestClient(config, BASE_URL);
        client.setCookie(SESSION_COOKIE, raw);
        const response = await client.get("/session");
        expect(response.status).toBe(200);
        expect(await response.json()).toBeNull();
        expect(spy.calls).toEqual([]);
        expect(config.logger.codes("error")).toEqual([]);
        // The cookie goes, as an invalid one would: the browser stops sending it.
        expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
      });
    }

    it("still reads the tokens appauth mints and Auth.js stored (a UUID, 64 hex characters)", async () => {
      for (const token of [randomUUID(), randomBytes(32).toString("hex")]) {
        const user = await store.adapter.createUser!({ id: randomUUID(), email: `p-${randomUUID().slice(0, 8)}@example.test`, emailVerified: null });
        await store.adapter.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 3_600_000) });
        spy.calls.length = 0;
        const client = new TestClient(config, BASE_URL);
        client.setCookie(SESSION_COOKIE, token);
        expect(await client.session()).toMatchObject({ user: { email: user.email } });
        expect(spy.calls).toContain("getSessionAndUser");
      }
    });
  });
}

describe("a JWT session cookie of absurd size", () => {
  function decodingSpy(): { config: TestConfig; decoded: number[] } {
    const decoded: number[] = [];
    const config = testConfig({
      jwt: {
        decode: (params: JWTDecodeParams) => {
          decoded.push(params.token?.length ?? 0);
          return decode(params);
        },
      },
    });
    return { config, decoded };
  }

  it("reads one huge cookie as no session without decrypting it", async () => {
    const { config, decoded } = decodingSpy();
    const client = new TestClient(config, BASE_URL);
    client.setCookie(SESSION_COOKIE, "e".repeat(200_000));
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(decoded).toEqual([]);
    expect(config.logger.codes("error")).toEqual([]);
  });

  it("joins no more chunks than the longest token could need, and decrypts none of them", async () => {
    const { config, decoded } = decodingSpy();
    const client = new TestClient(config, BASE_URL);
    for (let i = 0; i < 500; i++) client.setCookie(`${SESSION_COOKIE}.${i}`, "e".repeat(3_000));
    const response = await client.get("/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(decoded).toEqual([]);
  });

  it("reads a cookie with a control character as no session without decrypting it", async () => {
    const { config, decoded } = decodingSpy();
    const client = new TestClient(config, BASE_URL);
    client.setCookie(SESSION_COOKIE, "eyJhbGciOiJkaXIifQ..%00..");
    expect((await client.get("/session")).status).toBe(200);
    expect(decoded).toEqual([]);
  });
});

describe("tokens that could not be read back, and ids no authenticator makes", () => {
  it("refuses a custom generateSessionToken that mints outside the alphabet, naming the option, and stores no session", async () => {
    const adapter = MemoryAdapter();
    const spy = spied(adapter);
    const config = testConfig({
      adapter: spy.adapter,
      session: { strategy: "database", generateSessionToken: () => "token with spaces" },
      providers: [
        Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@example.test", sendVerificationRequest: async ({ url }) => void links.push(url) }),
      ],
    });
    const links: string[] = [];
    const client = new TestClient(config, BASE_URL);
    await client.post("/signin/nodemailer", { csrfToken: await client.csrf(), email: "minted@example.test" });
    const response = await client.get(links[0]!);
    expect(response.status).toBe(500);
    expect(spy.calls).not.toContain("createSession");
    const logged = config.logger.entries.filter((entry) => entry.level === "error").flatMap((entry) => entry.message.map(String));
    expect(logged.join("\n")).toContain("session.generateSessionToken");
  });

  it("asks the store nothing for an email link whose address carries a NUL byte or whose token is absurd", async () => {
    const adapter = MemoryAdapter();
    const spy = spied(adapter);
    const config = testConfig({
      adapter: spy.adapter,
      session: { strategy: "database" },
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@example.test", sendVerificationRequest: async () => {} })],
    });
    const client = new TestClient(config, BASE_URL);
    for (const query of ["token=abc&email=a%00b%40example.test", "token=abc&email=a%40example.test%00", `token=${"a".repeat(10_000)}&email=%00`]) {
      const response = await client.get(`/callback/nodemailer?${query}`);
      expect(response.status).toBeLessThan(500);
    }
    expect(spy.calls).toEqual([]);
    expect(config.logger.codes("error")).toEqual([]);
  });

  it("looks up no passkey for a posted id longer than WebAuthn allows", () => {
    expect(credentialIdLookups("A".repeat(1364))).not.toEqual([]);
    expect(credentialIdLookups("A".repeat(1368))).toEqual([]);
  });
});
