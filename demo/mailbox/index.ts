/** The demo's dev mailbox: a loopback SMTP server that keeps what it receives, and the page listing it. */
export { startMailbox, firstLink, type Mailbox, type MailboxMessage, type MailboxOptions } from "./server.js";
export { mailboxPage } from "./page.js";
export { decodeMessage, type DecodedMessage } from "./mime.js";
