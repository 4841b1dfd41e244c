/**
 * The demo's dev mailbox: a real SMTP server (smtp-server) on loopback that accepts every mail the
 * app sends and keeps the most recent ones in memory, decoded, so email sign-in works with no mail
 * account. Nothing leaves the machine: the server listens on 127.0.0.1 only and relays nothing.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { decodeMessage } from "./mime.js";

export interface MailboxMessage {
  /** 1, 2, 3, … in the order received. */
  id: number;
  /** The envelope recipients: who the mail was really delivered to. */
  to: string[];
  from: string;
  subject: string;
  receivedAt: Date;
  text?: string;
  html?: string;
  /** The first http(s) link of the mail (the sign-in link of a verification mail), if any. */
  link?: string;
}

export interface Mailbox {
  host: string;
  port: number;
  /** Connection options for nodemailer (`Nodemailer({ server: mailbox.server })`). */
  server: { host: string; port: number; secure: false; ignoreTLS: true };
  /** Newest first. */
  list(): MailboxMessage[];
  close(): Promise<void>;
}

export interface MailboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** How many mails are kept; older ones are dropped. Default 50. */
  keep?: number;
}

/** The largest mail accepted: a sign-in mail is a few kilobytes. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The first http(s) URL in the text body, else the first http(s) `href` of the HTML body. */
export function firstLink(message: { text?: string; html?: string }): string | undefined {
  const candidates = [
    ...(message.text?.match(/https?:\/\/[^\s<>"']+/g) ?? []),
    ...[...(message.html?.matchAll(/href="(https?:[^"]*)"/g) ?? [])].map((m) => unescapeAttribute(m[1]!)),
  ];
  for (const candidate of candidates) {
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href;
    } catch {
      // not a URL after all: try the next one
    }
  }
  return undefined;
}

function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) =>
    ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[name] ?? "",
  );
}

export async function startMailbox(options: MailboxOptions = {}): Promise<Mailbox> {
  const host = "127.0.0.1";
  const keep = options.keep ?? 50;
  const messages: MailboxMessage[] = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    logger: false,
    // Plain SMTP on loopback: no TLS to set up, no login to know.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    closeTimeout: 1000,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => callback(error));
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error("Message too large"), { responseCode: 552 }));
          return;
        }
        const decoded = decodeMessage(Buffer.concat(chunks));
        const message: MailboxMessage = {
          id: nextId++,
          to: session.envelope.rcptTo.map((r) => r.address),
          from: decoded.from,
          subject: decoded.subject,
          receivedAt: new Date(),
          ...(decoded.text !== undefined ? { text: decoded.text } : {}),
          ...(decoded.html !== undefined ? { html: decoded.html } : {}),
        };
        const link = firstLink(decoded);
        if (link) message.link = link;
        messages.unshift(message);
        messages.length = Math.min(messages.length, keep);
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(options.port ?? 0, host, () => {
      smtp.off("error", reject);
      resolve();
    });
  });
  // A connection that fails after start-up is the client's problem, not a reason to crash the demo.
  smtp.on("error", () => {});
  const { port } = smtp.server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    server: { host, port, secure: false, ignoreTLS: true },
    list: () => messages.map((m) => ({ ...m, to: [...m.to] })),
    close() {
      closing ??= new Promise<void>((resolve) => smtp.close(() => resolve()));
      return closing;
    },
  };
}
