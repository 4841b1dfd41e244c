import { component$, Slot } from "@builder.io/qwik";
import { Form, Link } from "@builder.io/qwik-city";
import { useSession, useSignOut } from "./plugin@auth";

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  return (
    <>
      <header>
        <nav>
          <Link href="/">Home</Link>
          {/* A document link: Qwik's client cannot follow a guard's redirect to the library's sign-in page from a prefetched link. */}
          <a href="/protected/">Protected</a>
          <a href="/dev/mailbox">Dev mailbox</a>
        </nav>
        {session.value?.user ? (
          <Form action={signOut}>
            <span id="header-user">{session.value.user.name ?? session.value.user.email}</span>{" "}
            <input type="hidden" name="redirectTo" value="/" />
            <button type="submit">Sign out</button>
          </Form>
        ) : (
          <a href="/auth/signin">Sign in</a>
        )}
      </header>
      <main>
        <Slot />
      </main>
    </>
  );
});
