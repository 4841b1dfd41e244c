/**
 * Mailbox flooding through `Auth`, over a real SMTP server: at most 3 link requests per address and
 * client per 15 minutes and 20 per client per hour (past either: refused), and one mail per
 * address per 5 minutes whoever asks (past it: answered as sent, nothing stored or mailed).
 * A password lockout never blocks an email link.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import Credentials from "../../../src/providers/credentials.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  emailConfig,
  expectVerifyRequest,
  linkIn,
  location,
  recordTokens,
  requestLink,
  sessionEmail,
  TestClient,
} from "../email/fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

beforeEach(() => smtp.clear());

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

describe("sign-in links", () => {
  it("mails one link per window to an address however many clients ask, answering every one as sent", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter, config: { rateLimit: { trustProxy: true } } }));
    // From ten addresses, written ten ways (case, plus-tags, whitespace): one mailbox, one mail.
    for (let i = 0; i < 10; i++) {
      const typed = i === 0 ? "flood@example.test" : i % 2 ? ` Flood+${i}@Example.TEST ` : `FLOOD+x${i}@example.test`;
      expectVerifyRequest(await requestLink(client, typed, from(`198.51.100.${i + 1}`)));
    }
    // Nor as a JSON array, number or object: those are no address at all.
    for (const shape of [["flood@example.test"], 1, { email: "flood@example.test" }]) {
      await client.postJson("/signin/nodemailer", { csrfToken: await client.csrf(), email: shape }, from("198.51.100.99"));
    }
    await smtp.waitForMessage("flood@example.test");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(adapter.createdTokens).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
  });

  it("refuses the 4th request for one address from one client, and no other client is refused for it", async () => {
    const events: unknown[] = [];
    const client = new TestClient(
      emailConfig({ smtp, config: { rateLimit: { trustProxy: true, email: { mailEvery: false } }, events: { rateLimited: (m) => void events.push(m) } } }),
    );
    for (let i = 0; i < 3; i++) {
      expectVerifyRequest(await requestLink(client, "mine@example.test", from("203.0.113.66")));
      await smtp.waitForMessage("mine@example.test");
      smtp.clear();
    }
    const fourth = location(await requestLink(client, "mine@example.test", from("203.0.113.66")));
    expect(fourth.searchParams.get("error")).toBe("RateLimited");
    expect(events).toMatchObject([{ providerId: "nodemailer", scope: "email", limit: "perEmail" }]);
    // The person, from their own address, still gets their link.
    expectVerifyRequest(await requestLink(client, "mine@example.test", from("198.51.100.200")));
    await smtp.waitForMessage("mine@example.test");
  });

  it("mails again once the link was followed: a returning person is not made to wait", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { rateLimit: { trustProxy: true } } }));
    expectVerifyRequest(await requestLink(client, "back@example.test", from("198.51.100.61")));
    await client.get(linkIn(await smtp.waitForMessage("back@example.test")).href, from("198.51.100.61"));
    smtp.clear();
    expectVerifyRequest(await requestLink(client, "back@example.test", from("198.51.100.61")));
    await smtp.waitForMessage("back@example.test");
  });

  it("refuses a client past its own budget of links, whatever the addresses", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { rateLimit: { trustProxy: true, email: { perClient: 4 } } } }));
    for (let i = 0; i < 4; i++) {
      expectVerifyRequest(await requestLink(client, `someone${i}@example.test`, from("203.0.113.9")));
      await smtp.waitForMessage(`someone${i}@example.test`);
    }
    const refused = location(await requestLink(client, "someone4@example.test", from("203.0.113.9")));
    expect(refused.searchParams.get("error")).toBe("RateLimited");
    expect(smtp.messages).toHaveLength(4);
    // Another client still gets its link.
    expectVerifyRequest(await requestLink(client, "someone4@example.test", from("203.0.113.10")));
    await smtp.waitForMessage("someone4@example.test");
  });

  it("still signs in with an emailed link while password attempts for the same address are locked out", async () => {
    const adapter = MemoryAdapter();
    const passwords = Credentials({
      id: "password",
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: () => null,
    });
    const config = emailConfig({ smtp, adapter, config: { rateLimit: { trustProxy: true } } });
    config.providers = [...config.providers, passwords];
    const client = new TestClient(config);
    const errors: string[] = [];
    for (let i = 0; i < 6; i++) {
      const csrfToken = await client.csrf();
      const response = await client.post("/callback/password", { csrfToken, email: "locked@example.test", password: `guess ${i}` }, from("192.0.2.50"));
      errors.push(location(response).searchParams.get("error")!);
    }
    expect(errors.at(-1)).toBe("RateLimited");

    expectVerifyRequest(await requestLink(client, "locked@example.test", from("192.0.2.50")));
    const link = linkIn(await smtp.waitForMessage("locked@example.test"));
    const followed = await client.get(link.href, from("192.0.2.50"));
    expect(location(followed).pathname).toBe("/");
    expect(await sessionEmail(client)).toBe("locked@example.test");
  });
});
