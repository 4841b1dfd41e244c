/**
 * Several instances and several applications on one store, over real PostgreSQL and Redis: two
 * instances of one application share its budgets, and its "one mail per address per window" (a real
 * SMTP server counts the mails); two applications (other secret or base path) sharing the store
 * never share a count, so a success in one clears nothing in the other.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { postgresAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import type { Adapter, User } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, checkAda, passwordProvider, testConfig } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { emailConfig, expectVerifyRequest, recordTokens, requestLink } from "../email/fixtures.js";
import { deleteKeys, postgresAvailability, REDIS_URL, redisAvailability, runId, scratchPostgres, type ScratchDatabase } from "../adapters/servers.js";

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

function instance(adapter: Adapter, secret: string) {
  const authorize = vi.fn((credentials: Partial<Record<string, unknown>>): User | null => checkAda(credentials));
  // JWT sessions: the adapter is here for its counters.
  const config = testConfig({ adapter, secret, session: { strategy: "jwt" }, providers: [passwordProvider({ authorize })], rateLimit: { trustProxy: true } });
  return { client: new TestClient(config), authorize };
}

async function guess(client: TestClient, password: string, address: string): Promise<string> {
  const response = await client.post("/callback/credentials", { csrfToken: await client.csrf(), username: ADA_USERNAME, password }, from(address));
  const target = new URL(response.headers.get("location")!);
  return target.searchParams.get("error") ?? target.pathname;
}

function sharedStoreCases(name: string, skip: string | undefined, open: () => Promise<{ adapter: () => Adapter; close(): Promise<void> }>) {
  describe.skipIf(skip !== undefined)(`${name} shared by instances and applications`, () => {
    it("counts one application's attempts on two instances together", async () => {
      const store = await open();
      try {
        const secret = `app-one-${runId()}-${"x".repeat(32)}`;
        const [a, b] = [instance(store.adapter(), secret), instance(store.adapter(), secret)];
        const answers: string[] = [];
        for (let i = 0; i < 6; i++) answers.push(await guess(i % 2 ? b.client : a.client, "wrong", "198.51.100.40"));
        expect(answers.at(-1)).toBe("RateLimited");
        expect(a.authorize.mock.calls.length + b.authorize.mock.calls.length).toBe(5);
      } finally {
        await store.close();
      }
    });

    it("mails one link to an address per window when ten clients ask it of two instances at once", async () => {
      const store = await open();
      try {
        const secret = `app-one-${runId()}-${"x".repeat(32)}`;
        const adapters = [recordTokens(store.adapter()), recordTokens(store.adapter())];
        const instances = adapters.map((adapter) => emailConfig({ smtp, adapter, config: { secret, rateLimit: { trustProxy: true } } }));
        const address = `flood-${runId()}@example.test`;
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => requestLink(new TestClient(instances[i % 2]!), address, from(`198.51.100.${i + 50}`))),
        );
        // Every client is told the link is on its way: who asked first is not given away.
        for (const answer of answers) expectVerifyRequest(answer);
        await smtp.waitForMessage(address);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(smtp.messages.filter((mail) => mail.to.includes(address))).toHaveLength(1);
        expect(adapters[0]!.createdTokens.length + adapters[1]!.createdTokens.length).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("keeps two applications' counts apart: one's failures are not the other's, one's success clears nothing of the other's", async () => {
      const store = await open();
      try {
        const run = runId();
        const one = instance(store.adapter(), `app-one-${run}-${"x".repeat(32)}`);
        const two = instance(store.adapter(), `app-two-${run}-${"y".repeat(32)}`);
        for (let i = 0; i < 5; i++) expect(await guess(one.client, "wrong", "198.51.100.41")).toBe("CredentialsSignin");
        // The other application has its own budget for the same person from the same address...
        for (let i = 0; i < 4; i++) expect(await guess(two.client, "wrong", "198.51.100.41")).toBe("CredentialsSignin");
        expect(await guess(two.client, ADA_PASSWORD, "198.51.100.41")).toBe("/");
        // ...and its success did not clear the first one's failures.
        expect(await guess(one.client, ADA_PASSWORD, "198.51.100.41")).toBe("RateLimited");
      } finally {
        await store.close();
      }
    });
  });
}

const postgresSkip = await postgresAvailability();
sharedStoreCases("PostgreSQL", postgresSkip, async () => {
  const scratch: ScratchDatabase = await scratchPostgres();
  const adapters: OwnedSqlAdapter[] = [];
  const first = postgresAdapter(scratch.location);
  await first.migrate();
  adapters.push(first);
  return {
    adapter: () => {
      const adapter = postgresAdapter(scratch.location);
      adapters.push(adapter);
      return adapter;
    },
    async close() {
      await Promise.all(adapters.map((adapter) => adapter.destroy()));
      await scratch.drop();
    },
  };
});

const redisSkip = await redisAvailability();
const clients: Redis[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
});
sharedStoreCases("Redis", redisSkip, async () => {
  const prefix = `${runId()}:`;
  const connect = () => {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    return client;
  };
  return {
    adapter: () => RedisAdapter(connect(), { prefix }),
    close: () => deleteKeys(connect(), prefix),
  };
});
