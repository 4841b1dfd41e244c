// The dev mailbox: every mail the app sent, caught by the local SMTP server (demo/mailbox) that
// `npm start` runs. Nothing leaves the machine.
import Link from "next/link";
import { readableTime } from "../../../../shared/time";

export const dynamic = "force-dynamic";

interface Message {
  id: number;
  to: string[];
  from: string;
  subject: string;
  receivedAt: string;
  text?: string;
  link?: string;
}

async function messages(): Promise<Message[] | null> {
  const url = process.env.DEMO_MAILBOX_URL;
  if (!url) return null;
  try {
    const response = await fetch(url, { cache: "no-store" });
    return response.ok ? ((await response.json()) as Message[]) : null;
  } catch {
    return null;
  }
}

export default async function MailboxPage() {
  const list = await messages();
  return (
    <>
      <h1>Dev mailbox</h1>
      <p className="muted">
        Mails the app sends arrive here instead of in a real inbox: the SMTP server that <code>npm start</code> runs beside
        the app receives them and keeps the latest in memory. <Link href="/dev/mailbox">Refresh</Link>
      </p>
      <p className="muted">For development only: whoever can open this page can follow these links.</p>
      {list === null ? (
        <p role="alert">The dev mailbox is not running: start the app with npm start.</p>
      ) : list.length === 0 ? (
        <p id="mailbox-empty">No mail yet.</p>
      ) : (
        list.map((message) => (
          <article key={message.id} className="card" aria-label={`Mail to ${message.to.join(", ")}`}>
            <h2>{message.subject || "(no subject)"}</h2>
            <p className="muted">
              To {message.to.join(", ")} · from {message.from} · <time dateTime={message.receivedAt}>{readableTime(message.receivedAt)}</time>
            </p>
            {message.link ? (
              <p>
                <a href={message.link}>Open the sign-in link</a>
              </p>
            ) : (
              <p className="muted">This mail holds no link.</p>
            )}
            {message.text ? (
              <details>
                <summary>Text of the mail</summary>
                <pre>{message.text}</pre>
              </details>
            ) : null}
          </article>
        ))
      )}
    </>
  );
}
