// Only signed-in people see this page. A full page load is guarded by the middleware; a client-side
// navigation by `requireSessionQuery`, which the route preloads: the server decides either way.
import { createAsync, type RouteDefinition } from "@solidjs/router";
import { Show } from "solid-js";
import { ClientSession, ProfileForm } from "~/components/client-session";
import { CsrfField } from "~/components/csrf-field";
import { readableTime } from "../../../shared/time";
import { renameOnServer, requireSessionQuery, signOutAction } from "~/lib/server";

/** Where the visitor comes back to after signing in. */
const PATH = "/protected";

export const route = {
  preload: () => requireSessionQuery(PATH),
} satisfies RouteDefinition;

export default function Protected() {
  const session = createAsync(() => requireSessionQuery(PATH), { deferStream: true });
  return (
    <>
      <h1>Protected page</h1>
      <p class="muted">You are signed in. Sign out in another tab and this one follows.</p>
      <p>
        <a href="/api/auth/two-factor" rel="external">Two-step verification</a>: add an authenticator app; every sign-in then asks
        for its code.
      </p>
      <section class="card" aria-labelledby="you-title">
        <h2 id="you-title">You</h2>
        <dl>
          <dt>Name</dt>
          <dd id="server-name">{session()?.user?.name ?? "—"}</dd>
          <dt>Email</dt>
          <dd id="server-email">{session()?.user?.email ?? "—"}</dd>
          <dt>Session expires</dt>
          <dd>
            <Show when={session()?.expires} fallback="—">
              {(expires) => <time dateTime={expires()}>{readableTime(expires())}</time>}
            </Show>
          </dd>
        </dl>
      </section>
      {/* Mounted once the server said yes: a client-side navigation is decided by requireSession,
          not by the browser's view (which could send the visitor off with the previous page's URL). */}
      <Show when={session()}>
        <div class="grid">
          <ClientSession required />
          <ProfileForm />
        </div>
      </Show>
      <div class="grid">
        <form action={renameOnServer} method="post" class="card stack" aria-labelledby="rename-title">
          <h2 id="rename-title">Rename on the server</h2>
          <CsrfField />
          <label for="server-rename">Display name</label>
          <input id="server-rename" name="name" maxLength={60} required />
          <button type="submit">Save with auth.update()</button>
        </form>
        <form action={signOutAction} method="post" class="card stack" aria-labelledby="signout-title">
          <h2 id="signout-title">Sign out</h2>
          <CsrfField />
          <input type="hidden" name="redirectTo" value="/" />
          <p class="muted">A server action calling auth.signOut().</p>
          <button type="submit" id="server-sign-out">
            Sign out
          </button>
        </form>
      </div>
    </>
  );
}
