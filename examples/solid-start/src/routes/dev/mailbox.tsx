// The dev mailbox: every mail the app sent, caught by the local SMTP server (demo/mailbox) that
// `npm run demo:solid` runs. Nothing leaves the machine.
import { createAsync } from "@solidjs/router";
import { For, Match, Switch } from "solid-js";
import { getMailQuery } from "~/lib/server";
import { readableTime } from "../../../../shared/time";

export default function Mailbox() {
  const list = createAsync(() => getMailQuery(), { deferStream: true });
  return (
    <>
      <h1>Dev mailbox</h1>
      <p class="muted">
        Mails the app sends arrive here instead of in a real inbox. <a href="/dev/mailbox">Refresh</a>
      </p>
      <p class="muted">For development only: whoever can open this page can follow these links.</p>
      <Switch>
        <Match when={list() === null}>
          <p role="alert">The dev mailbox is not running: start the app with npm run demo:solid.</p>
        </Match>
        <Match when={list()?.length === 0}>
          <p id="mailbox-empty">No mail yet.</p>
        </Match>
        <Match when={list()}>
          {(messages) => (
            <For each={messages()}>
              {(message) => (
                <article class="card" aria-label={`Mail to ${message.to.join(", ")}`}>
                  <h2>{message.subject || "(no subject)"}</h2>
                  <p class="muted">
                    To {message.to.join(", ")} · from {message.from} ·{" "}
                    <time dateTime={message.receivedAt}>{readableTime(message.receivedAt)}</time>
                  </p>
                  {message.link ? (
                    <p>
                      {/* rel="external": a full page load to the library's route, not a client-side navigation. */}
                      <a href={message.link} rel="external">
                        Open the sign-in link
                      </a>
                    </p>
                  ) : (
                    <p class="muted">This mail holds no link.</p>
                  )}
                </article>
              )}
            </For>
          )}
        </Match>
      </Switch>
    </>
  );
}
