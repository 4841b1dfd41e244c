/**
 * Email sign-in end to end: the link is mailed through a real SMTP server, read back from the
 * decoded mail and followed. It signs in once, only before it expires, and only as the address it
 * was sent to.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { ORIGIN } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  DAY_SECONDS,
  emailConfig,
  expectErrorRedirect,
  location,
  mailedLink,
  recordTokens,
  sessionEmail,
  TestClient,
  withParam,
} from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("signing in with an emailed link", () => {
  it("mails a link that signs in as the address, and lands on the callback URL", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link, mail } = await mailedLink(client, smtp, "ada@example.test", { callbackUrl: "/dashboard" });

    expect(mail.to).toEqual(["ada@example.test"]);
    expect(mail.from).toBe("appauth tests <no-reply@example.test>");
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/nodemailer`);
    expect(link.searchParams.get("email")).toBe("ada@example.test");
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    expect(await sessionEmail(client)).toBeNull();

    const response = await client.get(link.href);
    expect(response.status).toBe(302);
    expect(location(response).href).toBe(`${ORIGIN}/dashboard`);
    expect(await sessionEmail(client)).toBe("ada@example.test");
  });

  it("signs in the browser that follows the link, even when another one asked for it", async () => {
    const config = emailConfig({ smtp });
    const { link } = await mailedLink(new TestClient(config), smtp, "grace@example.test");
    const phone = new TestClient(config);
    await phone.get(link.href);
    expect(await sessionEmail(phone)).toBe("grace@example.test");
  });

  it("refuses a link followed a second time with Verification, and the second browser gets no session", async () => {
    const config = emailConfig({ smtp });
    const { link } = await mailedLink(new TestClient(config), smtp, "once@example.test");
    const first = new TestClient(config);
    await first.get(link.href);
    expect(await sessionEmail(first)).toBe("once@example.test");

    const second = new TestClient(config);
    expectErrorRedirect(await second.get(link.href), "Verification");
    expect(await sessionEmail(second)).toBeNull();
  });

  it("refuses a link once its maxAge has passed, with Verification", async () => {
    const client = new TestClient(emailConfig({ smtp, provider: { maxAge: 60 } }));
    const { link } = await mailedLink(client, smtp, "late@example.test");
    // Only the clock moves: sockets and timers run as usual.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expectErrorRedirect(await client.get(link.href), "Verification");
    expect(await sessionEmail(client)).toBeNull();
  });

  it("accepts a link just before its maxAge ends", async () => {
    const client = new TestClient(emailConfig({ smtp, provider: { maxAge: 60 } }));
    const { link } = await mailedLink(client, smtp, "ontime@example.test");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 55_000);
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("ontime@example.test");
  });

  it("refuses a link 24 hours after it was sent when no maxAge is configured", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "day@example.test");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + DAY_SECONDS * 1000 + 1000);
    expectErrorRedirect(await client.get(link.href), "Verification");
    expect(await sessionEmail(client)).toBeNull();
  });

  it("refuses the right token with another address, and the token still works with its own address", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "owner@example.test");

    expectErrorRedirect(await client.get(withParam(link, "email", "intruder@example.test")), "Verification");
    expect(await sessionEmail(client)).toBeNull();

    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("owner@example.test");
  });

  it("refuses the right address with a wrong token, and the right link still works afterwards", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "guess@example.test");
    const token = link.searchParams.get("token")!;
    const wrong = [
      token.slice(0, -1) + (token.endsWith("0") ? "1" : "0"),
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      "",
      "x".repeat(600),
    ];
    for (const attempt of wrong) {
      expectErrorRedirect(await client.get(withParam(link, "token", attempt)), "Verification");
    }
    expect(await sessionEmail(client)).toBeNull();

    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("guess@example.test");
  });

  it("refuses a link without its token or without its address", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "parts@example.test");
    for (const name of ["token", "email"]) {
      const cut = new URL(link);
      cut.searchParams.delete(name);
      expectErrorRedirect(await client.get(cut.href), "Verification");
    }
    expect(await sessionEmail(client)).toBeNull();
  });

  it("accepts the address of a link however it is cased or padded, since it is normalised first", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "case@example.test");
    await client.get(withParam(link, "email", "  CASE@Example.TEST "));
    expect(await sessionEmail(client)).toBe("case@example.test");
  });

  it("never shows an inspect observer the link's token, neither when mailing it nor when it is followed", async () => {
    const seen: unknown[] = [];
    const client = new TestClient(emailConfig({ smtp, config: { inspect: (event) => void seen.push(event) } }));
    const { link } = await mailedLink(client, smtp, "watched@example.test");
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("watched@example.test");
    const observed = JSON.stringify(seen);
    expect(observed).toContain("consumingToken");
    expect(observed).not.toContain(link.searchParams.get("token")!);
  });

  it("sends a fresh link each time one is asked for, and each works once", async () => {
    // Without the one-mail-per-window rule, which would answer the second request without a mail.
    const config = emailConfig({ smtp, config: { rateLimit: { email: { mailEvery: false } } } });
    const first = await mailedLink(new TestClient(config), smtp, "twice@example.test");
    const second = await mailedLink(new TestClient(config), smtp, "twice@example.test");
    expect(second.link.searchParams.get("token")).not.toBe(first.link.searchParams.get("token"));
    for (const { link } of [first, second]) {
      const browser = new TestClient(config);
      await browser.get(link.href);
      expect(await sessionEmail(browser)).toBe("twice@example.test");
    }
  });
});
