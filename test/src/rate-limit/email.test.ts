/**
 * Mailbox flooding through `Auth`, over a real SMTP server: at most 3 links per address per 15
 * minutes and 20 per client address per hour; past that nothing is stored and nothing is mailed.
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
  it("mails exactly 3 links to one address; the 4th request is refused, stores nothing and mails nothing", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const events: unknown[] = [];
    const client = new TestClient(
      emailConfig({ smtp, adapter, config: { rateLimit: { trustProxy: true }, events: { rateLimited: (m) => void events.push(m) } } }),
    );
    // From three addresses, and written three ways: one mailbox, one budget.
    const typed = ["flood@example.test", "Flood@Example.test", " FLOOD@example.TEST "];
    for (const [i, email] of typed.entries()) {
      expectVerifyRequest(await requestLink(client, email, from(`198.51.100.${i + 1}`)));
      await smtp.waitForMessage("flood@example.test");
    }
    const fourth = await requestLink(client, "flood@example.test", from("198.51.100.4"));
    const target = location(fourth);
    expect(target.pathname).toBe("/auth/signin");
    expect(target.searchParams.get("error")).toBe("RateLimited");
    expect(Number(target.searchParams.get("code"))).toBeGreaterThan(0);

    expect(adapter.createdTokens).toHaveLength(3);
    expect(smtp.messages.map((mail) => mail.to)).toEqual([["flood@example.test"], ["flood@example.test"], ["flood@example.test"]]);
    expect(smtp.recipientsSeen).toEqual(["flood@example.test", "flood@example.test", "flood@example.test"]);
    expect(events).toMatchObject([{ providerId: "nodemailer", scope: "email", limit: "perEmail" }]);
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
