/**
 * The demo's dev mailbox (demo/mailbox/): its SMTP server keeps what it receives, newest first and
 * only the latest few, and its page shows each mail escaped, with only http(s) links clickable.
 * The browser walk through it is in test/e2e/demo.e2e.test.ts.
 */
import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoApp, demoAuthConfig, DEMO_MAIL_FROM, MAILBOX_PATH } from "../../../demo/app.js";
import { firstLink, mailboxPage, startMailbox, type Mailbox } from "../../../demo/mailbox/index.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { SECRET } from "../../helpers/config.js";

let mailbox: Mailbox | undefined;

afterEach(async () => {
  await mailbox?.close();
  mailbox = undefined;
});

async function send(box: Mailbox, message: Record<string, unknown>): Promise<void> {
  await nodemailer.createTransport(box.server).sendMail({ from: "Sender <sender@example.test>", ...message });
}

describe("the dev mailbox's SMTP server", () => {
  it("keeps each mail with its envelope recipients, subject, time and first link, newest first", async () => {
    mailbox = await startMailbox();
    await send(mailbox, { to: "first@example.test", subject: "First", text: "Open http://localhost:3000/a?x=1&y=2 now" });
    await send(mailbox, { to: "second@example.test", bcc: "copy@example.test", subject: "Second", html: '<a href="https://b.example.test/?q=1&amp;r=2">go</a>' });

    const [newest, oldest] = mailbox.list();
    expect(newest).toMatchObject({ id: 2, to: ["second@example.test", "copy@example.test"], subject: "Second", link: "https://b.example.test/?q=1&r=2" });
    expect(oldest).toMatchObject({ id: 1, to: ["first@example.test"], subject: "First", from: "Sender <sender@example.test>" });
    expect(oldest!.link).toBe("http://localhost:3000/a?x=1&y=2");
    expect(oldest!.receivedAt).toBeInstanceOf(Date);
  });

  it("keeps only the most recent mails", async () => {
    mailbox = await startMailbox({ keep: 2 });
    for (const n of [1, 2, 3]) await send(mailbox, { to: `n${n}@example.test`, subject: `Mail ${n}`, text: "x" });
    expect(mailbox.list().map((m) => m.subject)).toEqual(["Mail 3", "Mail 2"]);
  });

  it("listens on loopback only", async () => {
    mailbox = await startMailbox();
    expect(mailbox.host).toBe("127.0.0.1");
    expect(mailbox.server).toEqual({ host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true });
  });
});

describe("firstLink", () => {
  it("takes only http(s) links", () => {
    expect(firstLink({ text: "javascript:alert(1) then https://ok.example.test/x" })).toBe("https://ok.example.test/x");
    expect(firstLink({ html: '<a href="javascript:alert(1)">x</a><a href="data:text/html,x">y</a>' })).toBeUndefined();
    expect(firstLink({})).toBeUndefined();
  });
});

describe("the /dev/mailbox page", () => {
  it("escapes everything a mail carries and makes no link of anything but http(s)", async () => {
    mailbox = await startMailbox();
    await send(mailbox, {
      to: "o'brien&co@example.test",
      subject: '<script>alert("subject")</script>',
      text: "<img src=x onerror=alert(1)> no link here, only javascript:alert(1)",
    });
    const html = mailboxPage({ messages: mailbox.list(), smtp: `${mailbox.host}:${mailbox.port}` });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;");
    expect(html).toContain("o&#39;brien&amp;co@example.test");
    expect(html).toContain("This mail holds no link.");
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it("is served by the demo app with its security headers, listing the mailbox's mails", async () => {
    mailbox = await startMailbox();
    const config = demoAuthConfig({ secret: SECRET, adapter: MemoryAdapter(), mailServer: mailbox.server });
    const app = createDemoApp(config, { mailbox });

    const empty = await app(new Request(`http://localhost:3000${MAILBOX_PATH}`));
    expect(empty.status).toBe(200);
    expect(empty.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await empty.text()).toContain("No mail yet.");

    await send(mailbox, { to: "ada@example.test", subject: "Sign in to localhost:3000", text: "http://localhost:3000/api/auth/callback/nodemailer?token=t&email=ada%40example.test" });
    const listed = await (await app(new Request(`http://localhost:3000${MAILBOX_PATH}`))).text();
    expect(listed).toContain('aria-label="Mail to ada@example.test"');
    expect(listed).toContain('href="http://localhost:3000/api/auth/callback/nodemailer?token=t&amp;email=ada%40example.test"');
  });

  it("says email sign-in is not set up when the app runs without a mailbox, and the config has no email provider", async () => {
    const app = createDemoApp(demoAuthConfig({ secret: SECRET }));
    const page = await (await app(new Request(`http://localhost:3000${MAILBOX_PATH}`))).text();
    expect(page).toContain("runs without a dev mailbox");
    expect(demoAuthConfig({ secret: SECRET, mailServer: { host: "127.0.0.1" } }).providers).toHaveLength(1);
  });

  it("mails from the demo's sender address through the mailbox's server", async () => {
    mailbox = await startMailbox();
    const config = demoAuthConfig({ secret: SECRET, adapter: MemoryAdapter(), mailServer: mailbox.server });
    expect(config.providers.map((p) => (typeof p === "function" ? p() : p)).find((p) => p.type === "email")).toMatchObject({
      id: "nodemailer",
      from: DEMO_MAIL_FROM,
      server: mailbox.server,
    });
  });
});
