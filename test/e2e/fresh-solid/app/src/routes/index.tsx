// The session as the server read it, the client's view of it, and the sign-in and sign-out forms
// (server actions with the CSRF token, as the docs say).
import { createAsync } from "@solidjs/router";
import { Show } from "solid-js";
import { useSession } from "appauth/solid-start/client";
import { getCsrf, getSession, signInAction, signOutAction, signOutInPlace } from "~/lib/server";

export default function Home() {
  const session = createAsync(() => getSession(), { deferStream: true });
  const csrf = createAsync(() => getCsrf(), { deferStream: true });
  const client = useSession();
  return (
    <main>
      <h1>{session()?.user ? `Signed in as ${session()?.user?.name}` : "Not signed in"}</h1>
      <p data-testid="client-status">{client.status()}</p>
      <Show
        when={session()?.user}
        fallback={
          <form action={signInAction} method="post">
            <input type="hidden" name="csrfToken" value={csrf() ?? ""} />
            <input type="hidden" name="redirectTo" value="/" />
            <label>
              Username <input name="username" />
            </label>
            <label>
              Password <input name="password" type="password" />
            </label>
            <button type="submit">Sign in</button>
          </form>
        }
      >
        <form action={signOutAction} method="post">
          <input type="hidden" name="csrfToken" value={csrf() ?? ""} />
          <input type="hidden" name="redirectTo" value="/" />
          <button type="submit">Sign out</button>
        </form>
        <form action={signOutInPlace} method="post">
          <input type="hidden" name="csrfToken" value={csrf() ?? ""} />
          <button type="submit">End the session here</button>
        </form>
      </Show>
    </main>
  );
}
