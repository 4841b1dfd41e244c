// The header's corner: who is signed in, and signing out through the client (every tab hears of it).
import { Match, Switch } from "solid-js";
import { signIn, signOut, useSession } from "appauth/solid-start/client";

export function UserMenu() {
  const session = useSession();
  return (
    <Switch>
      <Match when={session.status() === "loading"}>
        <span class="muted">…</span>
      </Match>
      <Match when={session.data()?.user}>
        {(user) => (
          <span class="user">
            <span id="header-user">{user().name ?? user().email}</span>
            <button type="button" class="link" id="header-sign-out" onClick={() => void signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </span>
        )}
      </Match>
      <Match when={session.status() === "unauthenticated"}>
        <button type="button" class="link" onClick={() => void signIn()}>
          Sign in
        </button>
      </Match>
    </Switch>
  );
}
