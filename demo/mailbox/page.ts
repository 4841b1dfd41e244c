/**
 * The /dev/mailbox page: the mails the demo's SMTP server received, newest first, each with its
 * recipients, subject, time and sign-in link. Everything in a mail is escaped; only http(s) links
 * become clickable.
 */
import { escape, layout } from "../pages.js";
import type { MailboxMessage } from "./server.js";
import { readableTime } from "../../examples/shared/time.js";

function messageCard(message: MailboxMessage): string {
  const to = message.to.join(", ");
  const link = message.link
    ? `<div class="actions"><a class="btn" href="${escape(message.link)}">Open the sign-in link</a></div>
<p class="muted url"><code>${escape(message.link)}</code></p>`
    : `<p class="muted">This mail holds no link.</p>`;
  const text = message.text ? `<details><summary>Text of the mail</summary><pre>${escape(message.text)}</pre></details>` : "";
  return `<article class="card" aria-label="${escape(`Mail to ${to}`)}">
<h2>${escape(message.subject || "(no subject)")}</h2>
<dl><dt>To</dt><dd>${escape(to)}</dd><dt>From</dt><dd>${escape(message.from)}</dd><dt>Received</dt><dd><time datetime="${message.receivedAt.toISOString()}">${escape(readableTime(message.receivedAt))}</time></dd></dl>
${link}
${text}
</article>`;
}

/** The page; `smtp` is where the mailbox listens, or undefined when the app runs without one. */
export function mailboxPage(params: { messages: MailboxMessage[]; smtp?: string }): string {
  const { messages, smtp } = params;
  const intro = smtp
    ? `<p class="muted">Mails the demo sends arrive here instead of in a real inbox: an SMTP server inside the demo, on <code>${escape(smtp)}</code>, receives them and keeps the latest in memory until the demo stops.</p>
<p class="hint">For development only: whoever can open this page can follow these links and sign in as their recipients.</p>
<div class="actions"><a class="btn secondary" href="/dev/mailbox">Refresh</a></div>`
    : `<p class="muted">This app runs without a dev mailbox: email sign-in is not configured.</p>`;
  const list = messages.length
    ? messages.map(messageCard).join("\n")
    : smtp
      ? `<section class="card"><p class="muted">No mail yet. Sign in by email and the link appears here.</p></section>`
      : "";
  return layout("Dev mailbox", "mailbox", `<section class="card"><h1>Dev mailbox</h1>\n${intro}</section>\n${list}`);
}
