/**
 * The test SMTP server and its MIME reader, checked against what nodemailer really sends (every
 * transfer encoding it uses, non-ASCII headers, attachments) and against hand-written messages for
 * the forms nodemailer does not produce. The email tests trust what these decode.
 */
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMessage } from "../../../demo/mailbox/mime.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

function send(message: Record<string, unknown>) {
  return nodemailer.createTransport(smtp.server).sendMail({ from: "Sender <sender@example.test>", ...message });
}

const LONG_URL = `https://app.example.test/auth/callback/nodemailer?callbackUrl=${encodeURIComponent("https://app.example.test/a=b&c")}&token=${"f".repeat(64)}&email=ada%40example.test`;

describe("the test SMTP server", () => {
  it("keeps each mail with its envelope recipients, sender and decoded parts", async () => {
    await send({
      to: "ada@example.test",
      bcc: "hidden@example.test",
      subject: "Grüße ✓ — a subject long enough to be folded over more than one header line by the encoder",
      text: `Sign in:\n\n${LONG_URL}\n\nÜmlauts and emoji 🎉 survive.`,
      html: `<p>Grüße</p><a href="${LONG_URL.replace(/&/g, "&amp;")}">Sign in</a>`,
    });
    const mail = await smtp.waitForMessage("hidden@example.test");
    expect(mail.to).toEqual(["ada@example.test", "hidden@example.test"]);
    expect(mail.toHeader).toBe("ada@example.test");
    expect(mail.envelopeFrom).toBe("sender@example.test");
    expect(mail.from).toBe("Sender <sender@example.test>");
    expect(mail.subject).toBe("Grüße ✓ — a subject long enough to be folded over more than one header line by the encoder");
    expect(mail.text?.replace(/\r\n/g, "\n")).toBe(`Sign in:\n\n${LONG_URL}\n\nÜmlauts and emoji 🎉 survive.`);
    expect(mail.html).toBe(`<p>Grüße</p><a href="${LONG_URL.replace(/&/g, "&amp;")}">Sign in</a>`);
    // The long line really was wrapped on the wire; only decoding joined it.
    expect(mail.raw).not.toContain(LONG_URL);
  });

  it("decodes base64 and 7bit bodies as well as quoted-printable ones", async () => {
    await send({ to: "b64@example.test", subject: "b64", text: "Ünïcödé text", html: "<b>ünï</b>", textEncoding: "base64" });
    await send({ to: "plain@example.test", subject: "plain", text: "just ascii" });
    const b64 = await smtp.waitForMessage("b64@example.test");
    expect(b64.raw).toMatch(/Content-Transfer-Encoding: base64/i);
    expect(b64.text).toBe("Ünïcödé text");
    expect(b64.html).toBe("<b>ünï</b>");
    const plain = await smtp.waitForMessage("plain@example.test");
    expect(plain.text?.trim()).toBe("just ascii");
    expect(plain.html).toBeUndefined();
  });

  it("finds the bodies inside nested multiparts and skips attachments", async () => {
    await send({
      to: "nested@example.test",
      subject: "nested",
      text: "the text",
      html: '<img src="cid:logo"> the html',
      attachments: [
        { filename: "notes.txt", content: "not the body" },
        { filename: "logo.png", content: Buffer.from([137, 80, 78, 71]), cid: "logo" },
      ],
    });
    const mail = await smtp.waitForMessage("nested@example.test");
    expect(mail.headers.get("content-type")).toMatch(/^multipart\/mixed/);
    expect(mail.text).toBe("the text");
    expect(mail.html).toBe('<img src="cid:logo"> the html');
  });

  it("hands each mail to waitForMessage once, and waits for one still on its way", async () => {
    const waiting = smtp.waitForMessage("later@example.test", 5000);
    await send({ to: "later@example.test", subject: "first", text: "1" });
    await send({ to: "later@example.test", subject: "second", text: "2" });
    expect((await waiting).subject).toBe("first");
    expect((await smtp.waitForMessage("later@example.test")).subject).toBe("second");
    await expect(smtp.waitForMessage("later@example.test", 50)).rejects.toThrow(/No mail to later@example.test arrived within 50 ms/);
  });

  it("records every recipient asked for, and refuses those it was told to", async () => {
    const refusing = await startSmtpServer({ refuse: (address) => address.startsWith("nobody") });
    try {
      const transport = nodemailer.createTransport(refusing.server);
      await expect(transport.sendMail({ from: "s@example.test", to: "nobody@example.test", text: "x" })).rejects.toThrow(/550/);
      expect(refusing.recipientsSeen).toEqual(["nobody@example.test"]);
      expect(refusing.messages).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});

describe("decodeMessage", () => {
  it("reads hand-written MIME: folded headers, Q and B encoded words, latin-1, bare LF line ends", () => {
    const raw = [
      "From: =?ISO-8859-1?Q?Andr=E9?= <andre@example.test>",
      "Subject: =?utf-8?B?SGVsbG8s?=",
      "  =?utf-8?Q?_w=C3=B6rld?=",
      "To: a@example.test",
      'Content-Type: multipart/alternative; boundary="b;1"',
      "",
      "preamble to ignore",
      "--b;1",
      "Content-Type: text/plain; charset=iso-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "caf=E9 au lait =",
      "soft   ",
      "--b;1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("<p>café</p>").toString("base64"),
      "--b;1--",
      "epilogue to ignore",
    ].join("\n");
    const mail = decodeMessage(raw);
    expect(mail.from).toBe("André <andre@example.test>");
    expect(mail.subject).toBe("Hello, wörld");
    expect(mail.toHeader).toBe("a@example.test");
    expect(mail.text).toBe("café au lait soft");
    expect(mail.html).toBe("<p>café</p>");
  });

  it("reads a single-part message without a Content-Type as plain text", () => {
    const mail = decodeMessage("Subject: hi\r\n\r\nbody line\r\n");
    expect(mail.subject).toBe("hi");
    expect(mail.text).toBe("body line\r\n");
    expect(mail.html).toBeUndefined();
  });
});
