import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RedisAdapter, type RedisAdapterInstance } from "../../../src/adapters/redis/index.js";
import {
  runAdapterConformance,
  sampleAccount,
  sampleSession,
  sampleToken,
  sampleUser,
} from "../../../src/adapters/test/index.js";
import { REDIS_URL, deleteKeys, redisAvailability, runId } from "./servers.js";

const skip = await redisAvailability();
const clients: Redis[] = [];

function connect(): Redis {
  const client = new Redis(REDIS_URL);
  clients.push(client);
  return client;
}

async function cleanUp(prefix: string): Promise<void> {
  const client = connect();
  await deleteKeys(client, prefix);
}

const conformancePrefix = `${runId()}:`;
runAdapterConformance("RedisAdapter", {
  skip,
  adapter: () => RedisAdapter(connect(), { prefix: conformancePrefix }),
  async teardown() {
    await cleanUp(conformancePrefix);
    for (const client of clients.splice(0)) client.disconnect();
  },
});

// A shared Redis is often used through a client whose own keyPrefix keeps each application apart:
// the adapter must work the same there, the scripts that build keys on the server included.
const clientPrefix = `${runId()}:`;
runAdapterConformance("RedisAdapter on a client with a keyPrefix", {
  skip,
  adapter: () => {
    const client = new Redis(REDIS_URL, { keyPrefix: clientPrefix });
    clients.push(client);
    return RedisAdapter(client, { prefix: "app:" });
  },
  async teardown() {
    await cleanUp(clientPrefix);
    for (const client of clients.splice(0)) client.disconnect();
  },
});

(skip === undefined ? describe : describe.skip)("RedisAdapter: Redis specifics", () => {
  const prefix = `${runId()}:`;
  let client: Redis;
  let adapter: RedisAdapterInstance;

  beforeAll(() => {
    client = connect();
    adapter = RedisAdapter(client, { prefix });
  });
  afterAll(async () => {
    await cleanUp(prefix);
    for (const c of clients.splice(0)) c.disconnect();
  });

  it("keeps records under readable keys behind the prefix", async () => {
    const user = await adapter.createUser(sampleUser());
    const account = sampleAccount(user.id, { provider: "github" });
    await adapter.linkAccount(account);
    const session = await adapter.createSession(sampleSession(user.id));
    expect(await client.get(`${prefix}user:email:${user.email}`)).toBe(user.id);
    expect(await client.exists(`${prefix}user:${user.id}`)).toBe(1);
    expect(await client.exists(`${prefix}account:github:${account.providerAccountId}`)).toBe(1);
    expect(await client.smembers(`${prefix}user:${user.id}:sessions`)).toEqual([session.sessionToken]);
  });

  it("lets sessions and verification tokens expire with their records", async () => {
    const user = await adapter.createUser(sampleUser());
    const session = await adapter.createSession(sampleSession(user.id, { expires: new Date(Date.now() + 60_000) }));
    const ttl = await client.pttl(`${prefix}session:${session.sessionToken}`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const short = await adapter.createSession(sampleSession(user.id, { expires: new Date(Date.now() + 150) }));
    const token = sampleToken({ expires: new Date(Date.now() + 150) });
    await adapter.createVerificationToken(token);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await adapter.getSessionAndUser(short.sessionToken)).toBeNull();
    expect(await adapter.useVerificationToken(token)).toBeNull();
  });

  it("moves a session's expiry with updateSession", async () => {
    const user = await adapter.createUser(sampleUser());
    const session = await adapter.createSession(sampleSession(user.id, { expires: new Date(Date.now() + 60_000) }));
    await adapter.updateSession({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 600_000) });
    expect(await client.pttl(`${prefix}session:${session.sessionToken}`)).toBeGreaterThan(590_000);
  });

  it("reads a session with its user in one round trip", async () => {
    const user = await adapter.createUser(sampleUser());
    const session = await adapter.createSession(sampleSession(user.id));
    await adapter.getSessionAndUser(session.sessionToken); // loads the script once
    const sent = vi.spyOn(client, "sendCommand");
    const found = await adapter.getSessionAndUser(session.sessionToken);
    expect(found?.user.id).toBe(user.id);
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
  });

  it("reloads its scripts after the server forgot them", async () => {
    const user = await adapter.createUser(sampleUser());
    const session = await adapter.createSession(sampleSession(user.id));
    await client.script("FLUSH");
    expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id);
  });

  it("lets exactly one of 20 concurrent uses of a verification token win, across connections", async () => {
    const adapters = [adapter, RedisAdapter(connect(), { prefix })];
    for (let round = 0; round < 5; round++) {
      const token = sampleToken();
      await adapter.createVerificationToken(token);
      const attempts = Array.from({ length: 20 }, (_, i) =>
        adapters[i % 2]!.useVerificationToken({ identifier: token.identifier, token: token.token }),
      );
      expect((await Promise.all(attempts)).filter((result) => result !== null)).toHaveLength(1);
    }
  });

  it("revives Dates in extra fields and leaves date-like strings alone", async () => {
    const lastSeen = new Date("2025-03-04T05:06:07.089Z");
    const input = { ...sampleUser(), lastSeen, note: "2025-03-04T05:06:07.089Z" };
    await adapter.createUser(input);
    const read = (await adapter.getUser(input.id)) as unknown as Record<string, unknown>;
    expect(read.lastSeen).toEqual(lastSeen);
    expect(read.note).toBe("2025-03-04T05:06:07.089Z");
  });

  it("keeps ids with colons from reaching another record's key", async () => {
    const user = await adapter.createUser(sampleUser());
    const account = sampleAccount(user.id, { provider: "a:b", providerAccountId: "c" });
    await adapter.linkAccount(account);
    expect(await adapter.getAccount("b:c", "a")).toBeNull();
    expect(await adapter.getAccount("c", "a:b")).toMatchObject({ userId: user.id });
  });

  it("indexes a linked session by provider account and provider session, for as long as it lives", async () => {
    const user = await adapter.createUser(sampleUser());
    const link = { provider: "idp", providerAccountId: `sub-${user.id}`, providerSessionId: `sid-${user.id}` };
    const session = await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 60_000) }));
    const indexes = [
      `${prefix}sessions:account:idp:${link.providerAccountId}`,
      `${prefix}sessions:sid:idp:${link.providerSessionId}`,
    ];
    for (const index of indexes) {
      expect(await client.smembers(index)).toEqual([session.sessionToken]);
      expect(await client.pttl(index)).toBeGreaterThan(55_000);
    }
    // A shorter session never shortens the index; a longer one extends it.
    await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 10_000) }));
    expect(await client.pttl(indexes[0]!)).toBeGreaterThan(55_000);
    await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 120_000) }));
    expect(await client.pttl(indexes[0]!)).toBeGreaterThan(115_000);

    await adapter.deleteSession(session.sessionToken);
    for (const index of indexes) expect(await client.smembers(index)).not.toContain(session.sessionToken);
  });

  it("keeps a session findable by its provider account after updateSession extends it", async () => {
    const user = await adapter.createUser(sampleUser());
    const link = { provider: "idp", providerAccountId: `sub-${user.id}` };
    const session = await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 200) }));
    await adapter.updateSession({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 60_000) });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await adapter.deleteSessionsByAccount(link)).toBe(1);
  });

  it("drops the index entries of sessions that expired, and counts none of them", async () => {
    const user = await adapter.createUser(sampleUser());
    const link = { provider: "idp", providerAccountId: `sub-${user.id}` };
    const kept = await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 60_000) }));
    await adapter.createSession(sampleSession(user.id, { ...link, expires: new Date(Date.now() + 150) }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const index = `${prefix}sessions:account:idp:${link.providerAccountId}`;
    expect(await client.scard(index)).toBe(2);
    expect(await adapter.deleteSessionsByAccount(link)).toBe(1);
    expect(await client.exists(index)).toBe(0);
    expect(await client.smembers(`${prefix}user:${user.id}:sessions`)).not.toContain(kept.sessionToken);
  });

  it("keeps a lease under lease:<key>, expiring when it does", async () => {
    const key = `refresh:${globalThis.crypto.randomUUID()}`;
    expect(await adapter.acquireLease(key, "holder", new Date(Date.now() + 30_000))).toBe(true);
    expect(await client.get(`${prefix}lease:refresh%3A${key.slice(8)}`)).toBe("holder");
    expect(await client.pttl(`${prefix}lease:refresh%3A${key.slice(8)}`)).toBeGreaterThan(25_000);
  });

  it("refuses a session for a user that does not exist", async () => {
    await expect(adapter.createSession(sampleSession(globalThis.crypto.randomUUID()))).rejects.toThrow(/does not exist/);
  });

  it("refuses to be built on something that is not an ioredis client", () => {
    expect(() => RedisAdapter({} as Redis)).toThrow(TypeError);
  });
});
