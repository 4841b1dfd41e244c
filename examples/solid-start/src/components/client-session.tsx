// The session as the browser sees it (`useSession()`), and renaming through `update()`.
import { createSignal, Show } from "solid-js";
import { useSession } from "appauth/solid-start/client";

export function ClientSession(props: { required?: boolean }) {
  const session = useSession({ required: props.required ?? false });
  return (
    <section class="card" aria-labelledby="client-session-title">
      <h2 id="client-session-title">Session in the browser</h2>
      <p>
        Read with <code>useSession()</code>: <strong id="client-status">{session.status()}</strong>
      </p>
      <pre id="client-session">{JSON.stringify(session.data(), null, 2)}</pre>
    </section>
  );
}

export function ProfileForm() {
  const session = useSession();
  const [saved, setSaved] = createSignal<string>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = new FormData(form).get("name");
    const fresh = await session.update({ name });
    setSaved(fresh ? `Saved: ${fresh.user?.name ?? ""}` : "Not saved.");
  };
  return (
    <form class="card stack" aria-labelledby="rename-client-title" onSubmit={submit}>
      <h2 id="rename-client-title">Rename in the browser</h2>
      <label for="client-rename">Display name</label>
      <input id="client-rename" name="name" maxLength={60} required />
      <button type="submit" id="client-rename-submit">
        Save with update()
      </button>
      <Show when={saved()}>{(text) => <p role="status" id="client-rename-status">{text()}</p>}</Show>
    </form>
  );
}
