import { component$, Slot, useVisibleTask$ } from "@builder.io/qwik";
import { Form, Link } from "@builder.io/qwik-city";
import { useSession, useSignOut } from "./plugin@auth";

/** Where this example's tabs tell each other which session their page shows. */
const SESSION_CHANNEL = "appauth-qwik-example.session";

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  // The session comes from a route loader, rendered on the server: a tab left open after a sign-in,
  // sign-out or rename in another would keep showing the old one. Each page tells the other tabs
  // whom it shows; a tab showing someone else loads its page again.
  useVisibleTask$(({ track, cleanup }) => {
    const shown = track(() => JSON.stringify(session.value?.user ?? null));
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (typeof event.data === "string" && event.data !== shown) window.location.reload();
    };
    channel.postMessage(shown);
    cleanup(() => channel.close());
  });
  const user = session.value?.user;
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          appauth · Qwik City
        </Link>
        <nav aria-label="Main">
          {/* A document link: Qwik's client cannot follow a guard's redirect to the library's sign-in page from a prefetched link. */}
          <a href="/protected/">Protected area</a>
          <a href="/dev/mailbox">Dev mailbox</a>
          {user ? (
            <Form action={signOut} class="user">
              <span id="header-user">{user.name ?? user.email}</span>
              <input type="hidden" name="redirectTo" value="/" />
              <button type="submit" class="link">
                Sign out
              </button>
            </Form>
          ) : (
            <a href="/auth/signin">Sign in</a>
          )}
        </nav>
      </header>
      <main>
        <Slot />
      </main>
    </>
  );
});
