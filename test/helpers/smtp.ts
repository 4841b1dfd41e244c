/**
 * A real SMTP server (smtp-server) on loopback for tests: it accepts every mail, keeps it with its
 * envelope and decoded bodies, and lets a test wait for the mail to an address. MIME is decoded by
 * the demo's mailbox reader (demo/mailbox/mime.ts), the one MIME decoder of the repository.
 *
 * ```ts
 * const smtp = await startSmtpServer();
 * const provider = Nodemailer({ server: smtp.server, from: "appauth <no-reply@example.test>" });
 * // ... POST /signin/nodemailer ...
 * const mail = await smtp.waitForMessage("ada@example.test");
 * await smtp.close();
 * ```
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { decodeMessage } from "../../demo/mailbox/mime.js";

export interface ParsedMail {
  /** The `From` header, decoded. */
  from: string;
  /** The envelope recipients (RCPT TO): who the mail was actually delivered to. */
  to: string[];
  /** The envelope sender (MAIL FROM). */
  envelopeFrom: string | null;
  /** The `To` header as written, decoded. */
  toHeader: string;
  subject: string;
  text?: string;
  html?: string;
  headers: Map<string, string>;
  /** The message as received (the DATA bytes as UTF-8). */
  raw: string;
  receivedAt: Date;
}

export interface SmtpServerOptions {
  /** Answer RCPT TO for these addresses with 550, as a server that knows no such mailbox does. */
  refuse?: (address: string) => boolean;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  /** Connection options for nodemailer: plain SMTP on loopback, no TLS, no login. */
  server: { host: string; port: number; secure: false; ignoreTLS: true };
  /** Every mail received, oldest first. */
  messages: ParsedMail[];
  /** Every address a client asked to deliver to (RCPT TO), accepted or refused, even if no mail followed. */
  recipientsSeen: string[];
  /**
   * The first mail to `to` (an envelope recipient) that no earlier call returned, waiting up to
   * `timeoutMs` for it to arrive.
   */
  waitForMessage(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** Forgets every mail and recipient seen so far. */
  clear(): void;
  close(): Promise<void>;
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const host = "127.0.0.1";
  const messages: ParsedMail[] = [];
  const recipientsSeen: string[] = [];
  const claimed = new WeakSet<ParsedMail>();
  const waiters = new Set<() => void>();

  const smtp = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    closeTimeout: 1000,
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      recipientsSeen.push(address.address);
      if (options.refuse?.(address.address)) {
        callback(Object.assign(new Error(`No such mailbox: ${address.address}`), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => callback(error));
      stream.on("end", () => {
        const bytes = Buffer.concat(chunks);
        const decoded = decodeMessage(bytes);
        // Kept before the server answers 250, so a sender that has been told "sent" finds it here.
        messages.push({
          from: decoded.from,
          to: session.envelope.rcptTo.map((r) => r.address),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          toHeader: decoded.toHeader,
          subject: decoded.subject,
          ...(decoded.text !== undefined ? { text: decoded.text } : {}),
          ...(decoded.html !== undefined ? { html: decoded.html } : {}),
          headers: decoded.headers,
          raw: bytes.toString("utf8"),
          receivedAt: new Date(),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, host, () => {
      smtp.off("error", reject);
      resolve();
    });
  });
  smtp.on("error", () => {});
  const { port } = smtp.server.address() as AddressInfo;

  function take(to: string): ParsedMail | undefined {
    const mail = messages.find((m) => !claimed.has(m) && m.to.includes(to));
    if (mail) claimed.add(mail);
    return mail;
  }

  return {
    host,
    port,
    server: { host, port, secure: false, ignoreTLS: true },
    messages,
    recipientsSeen,
    waitForMessage(to, timeoutMs = 5000) {
      const ready = take(to);
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const mail = take(to);
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          const got = messages.map((m) => m.to.join(",")).join("; ") || "none";
          reject(new Error(`No mail to ${to} arrived within ${timeoutMs} ms (mails received for: ${got}).`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    clear() {
      messages.length = 0;
      recipientsSeen.length = 0;
    },
    close() {
      return new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
