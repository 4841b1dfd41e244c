/**
 * When the link cannot be sent: the person is told the server is misconfigured (`Configuration`,
 * nothing more), the server log has the whole error, and the token made for the mail is withdrawn,
 * so no usable record is left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sendWithNodemailer } from "../../../src/providers/email.js";
import type { LogEntry } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  emailConfig,
  expectErrorRedirect,
  linkIn,
  recordTokens,
  requestLink,
  sessionEmail,
  TestClient,
  type RecordingAdapter,
} from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

/**
 * The errors of a log entry and of their causes, outermost first. An AuthError keeps the original
 * error as `cause.err` (the shape Auth.js users know); other errors as `cause`.
 */
function errorsIn(entry: LogEntry): unknown[] {
  const found: unknown[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || !(value instanceof Error)) return;
    found.push(value);
    const cause = value.cause as { err?: unknown } | undefined;
    visit(cause instanceof Error ? cause : cause?.err, depth + 1);
  };
  for (const part of entry.message) visit(part, 0);
  return found;
}

/** Asserts that the one token written was taken back out of the store. */
async function expectNoTokenLeft(adapter: RecordingAdapter<ReturnType<typeof MemoryAdapter>>): Promise<void> {
  expect(adapter.createdTokens).toHaveLength(1);
  const [written] = adapter.createdTokens;
  // The withdrawal went through the adapter...
  expect(adapter.usedTokens).toContainEqual({ identifier: written!.identifier, token: written!.token, found: true });
  // ...and nothing is left to find.
  await expect(adapter.useVerificationToken({ identifier: written!.identifier, token: written!.token })).resolves.toBeNull();
}

describe("a link that cannot be sent", () => {
  it("answers Configuration when the SMTP server is down, logs the connection error, and leaves no token", async () => {
    const down = await startSmtpServer();
    await down.close();
    const adapter = recordTokens(MemoryAdapter());
    const config = emailConfig({ smtp: down, adapter });
    const client = new TestClient(config);

    expectErrorRedirect(await requestLink(client, "down@example.test"), "Configuration");

    const logged = config.logger.entries.filter((e) => e.level === "error");
    expect(logged).toHaveLength(1);
    const errors = errorsIn(logged[0]!);
    // In full: the library's error and, as its cause, what nodemailer reported about the connection.
    expect(errors.some((e) => (e as NodeJS.ErrnoException).code === "ECONNREFUSED" || /ECONNREFUSED/.test(String(e)))).toBe(true);
    await expectNoTokenLeft(adapter);
  });

  it("answers Configuration when sendVerificationRequest throws, logs that error, and leaves no token", async () => {
    const failure = new Error("the mail API answered 503");
    const adapter = recordTokens(MemoryAdapter());
    const config = emailConfig({
      smtp,
      adapter,
      provider: {
        sendVerificationRequest: () => {
          throw failure;
        },
      },
    });
    const client = new TestClient(config);

    expectErrorRedirect(await requestLink(client, "throws@example.test"), "Configuration");
    const logged = config.logger.entries.filter((e) => e.level === "error");
    expect(logged).toHaveLength(1);
    expect(errorsIn(logged[0]!)).toContain(failure);
    await expectNoTokenLeft(adapter);
  });

  it("answers Configuration when the SMTP server refuses the recipient, and leaves no token", async () => {
    const refusing = await startSmtpServer({ refuse: (address) => address === "nobody@example.test" });
    try {
      const adapter = recordTokens(MemoryAdapter());
      const config = emailConfig({ smtp: refusing, adapter });
      expectErrorRedirect(await requestLink(new TestClient(config), "nobody@example.test"), "Configuration");
      expect(refusing.recipientsSeen).toEqual(["nobody@example.test"]);
      expect(refusing.messages).toEqual([]);
      const logged = config.logger.entries.filter((e) => e.level === "error");
      expect(logged).toHaveLength(1);
      expect(errorsIn(logged[0]!).map(String).join("\n")).toMatch(/nobody@example\.test/);
      await expectNoTokenLeft(adapter);
    } finally {
      await refusing.close();
    }
  });

  it("shows the person nothing of the error: the redirect names only Configuration", async () => {
    const config = emailConfig({
      smtp,
      provider: {
        sendVerificationRequest: () => {
          throw new Error("secret-internal-detail");
        },
      },
    });
    const client = new TestClient(config);
    const response = await requestLink(client, "quiet@example.test");
    expect(response.headers.get("location")).not.toContain("secret-internal-detail");
    const page = await client.get(response.headers.get("location")!);
    expect(await page.text()).not.toContain("secret-internal-detail");
  });

  it("sends nothing when the token cannot be stored, and answers StoreUnavailable (a fault of the store, not of the address)", async () => {
    smtp.clear();
    const base = MemoryAdapter();
    const adapter = {
      ...base,
      createVerificationToken: () => Promise.reject(new Error("the database is read-only")),
    };
    const config = emailConfig({ smtp, adapter });
    expectErrorRedirect(await requestLink(new TestClient(config), "readonly@example.test"), "StoreUnavailable");
    expect(smtp.recipientsSeen).toEqual([]);
    expect(config.logger.entries.some((e) => e.level === "error" && errorsIn(e).some((x) => /read-only/.test(String(x))))).toBe(true);
  });

  it("works again once the mail goes through: a new request sends a link that signs in", async () => {
    let failing = true;
    const config = emailConfig({
      smtp,
      provider: {
        sendVerificationRequest: async (params) => {
          if (failing) throw new Error("temporarily down");
          await sendWithNodemailer(params);
        },
      },
    });
    const client = new TestClient(config);
    expectErrorRedirect(await requestLink(client, "retry@example.test"), "Configuration");
    failing = false;
    expect((await requestLink(client, "retry@example.test")).status).toBe(302);
    const mail = await smtp.waitForMessage("retry@example.test");
    await client.get(linkIn(mail).href);
    expect(await sessionEmail(client)).toBe("retry@example.test");
  });
});
