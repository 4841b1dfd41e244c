import { component$ } from "@builder.io/qwik";
import { Form, type DocumentHead } from "@builder.io/qwik-city";
import { readableTime } from "../../../../shared/time";
import { useSession, useUpdateSession } from "../plugin@auth";

export default component$(() => {
  const session = useSession();
  const update = useUpdateSession();
  return (
    <>
      <h1>Protected page</h1>
      <p class="muted">The layout's guard let you in because you are signed in.</p>
      <p>
        <a href="/auth/two-factor">Two-step verification</a>: add an authenticator app; every sign-in then asks for its code.
      </p>
      <section class="card" aria-labelledby="you-title">
        <h2 id="you-title">You</h2>
        <dl>
          <dt>Name</dt>
          <dd id="server-name">{session.value?.user?.name ?? "—"}</dd>
          <dt>Email</dt>
          <dd id="server-email">{session.value?.user?.email ?? "—"}</dd>
          <dt>Session expires</dt>
          <dd>{session.value?.expires ? <time dateTime={session.value.expires}>{readableTime(session.value.expires)}</time> : "—"}</dd>
        </dl>
      </section>
      {/* reloadDocument: the answer is rendered on the server, so the action's value is always shown
          (Qwik City 1.20 may re-create the page after an in-place action and lose it). */}
      <Form action={update} reloadDocument class="card stack" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <label for="profile-name">Display name</label>
        <input id="profile-name" name="name" maxLength={60} required />
        <button type="submit">Save</button>
      </Form>
      {update.value?.session && <p id="profile-message">Saved: {update.value.session.user?.name}</p>}
      {update.value?.failed && (
        <p class="error" role="alert">
          {update.value.formErrors.join(" ")}
        </p>
      )}
    </>
  );
});

export const head: DocumentHead = { title: "Protected · appauth Qwik City example" };
