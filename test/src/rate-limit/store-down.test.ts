/**
 * A rate-limit store that cannot be reached: a real ioredis client pointed at a port nothing listens
 * on, with no offline queue, so each command fails at once. Password attempts and email sends fail
 * closed (refused, logged at error); the general request ceiling fails open (logged, the request goes on).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { ADA_PASSWORD, ADA_USERNAME, checkAda, passwordProvider, testConfig, type RecordingLogger } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, requestLink, TestClient } from "../email/fixtures.js";

let client: Redis;
let smtp: TestSmtpServer;

beforeAll(async () => {
  client = new Redis({ host: "127.0.0.1", port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => {});
  smtp = await startSmtpServer();
});

afterAll(async () => {
  client.disconnect();
  await smtp.close();
});

/** The configured adapter is the unreachable Redis, so the limiter counts there (sessions are JWTs). */
const unreachable = () => ({ adapter: RedisAdapter(client), session: { strategy: "jwt" as const } });

describe("a rate-limit store that cannot be reached", () => {
  it("refuses password attempts without calling authorize, as a store fault (StoreUnavailable), and logs why", async () => {
    const authorize = vi.fn(checkAda);
    const config = testConfig({ providers: [passwordProvider({ authorize })], ...unreachable() });
    const response = await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("StoreUnavailable");
    expect(response.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false);
    expect(authorize).not.toHaveBeenCalled();
    const logged = (config.logger as RecordingLogger).entries.filter((e) => e.level === "error");
    expect(logged.map((e) => e.code)).toEqual(["StoreUnavailable"]);
    expect(String(logged[0]!.message[0])).toContain("rate-limit store could not be reached");
  });

  it("sends no mail", async () => {
    const config = emailConfig({ smtp, ...unreachable() });
    const response = await requestLink(new TestClient(config), "nobody@example.test");
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("StoreUnavailable");
    expect(smtp.recipientsSeen).not.toContain("nobody@example.test");
    expect((config.logger as RecordingLogger).codes("error")).toEqual(["StoreUnavailable"]);
  });

  it("lets other POSTs through the request ceiling, and logs that it could not count", async () => {
    const config = testConfig({ ...unreachable(), rateLimit: { clientAddress: () => "198.51.100.1" } });
    const web = new TestClient(config);
    const response = await web.post("/signout", { csrfToken: await web.csrf() });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBeNull();
    expect((config.logger as RecordingLogger).codes("error")).toContain("RateLimitStoreError");
  });
});
