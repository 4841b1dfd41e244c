// The dev mailbox: every mail the app sent, caught by the local SMTP server (demo/mailbox) that
// `npm run demo:qwik` runs. Nothing leaves the machine.
import { component$ } from "@builder.io/qwik";
import { routeLoader$ } from "@builder.io/qwik-city";
import { readableTime } from "../../../../../shared/time";

interface Message {
  id: number;
  to: string[];
  from: string;
  subject: string;
  receivedAt: string;
  link?: string;
}

export const useMessages = routeLoader$(async (event): Promise<Message[] | null> => {
  event.cacheControl({ noStore: true });
  const url = event.env.get("DEMO_MAILBOX_URL");
  if (!url) return null;
  try {
    const response = await fetch(url, { cache: "no-store" });
    return response.ok ? ((await response.json()) as Message[]) : null;
  } catch {
    return null;
  }
});

export default component$(() => {
  const messages = useMessages();
  const list = messages.value;
  return (
    <>
      <h1>Dev mailbox</h1>
      <p class="muted">For development only: whoever can open this page can follow these links.</p>
      {list === null ? (
        <p role="alert">The dev mailbox is not running: start the app with npm run demo:qwik.</p>
      ) : list.length === 0 ? (
        <p>No mail yet.</p>
      ) : (
        list.map((message) => (
          <article key={message.id} class="card" aria-label={`Mail to ${message.to.join(", ")}`}>
            <h2>{message.subject || "(no subject)"}</h2>
            <p class="muted">
              To {message.to.join(", ")} · from {message.from} ·{" "}
              <time dateTime={message.receivedAt}>{readableTime(message.receivedAt)}</time>
            </p>
            {message.link ? (
              <p>
                <a href={message.link}>Open the sign-in link</a>
              </p>
            ) : (
              <p class="muted">This mail holds no link.</p>
            )}
          </article>
        ))
      )}
    </>
  );
});
