// The README's page: the session from `useSession()`, signing in and out with `<Form action={...}>`.
import { component$ } from "@builder.io/qwik";
import { Form } from "@builder.io/qwik-city";
import { useSession, useSignIn, useSignOut } from "./plugin@auth";

export default component$(() => {
  const session = useSession(); // a routeLoader$: Session or null
  const signIn = useSignIn();
  const signOut = useSignOut();
  return session.value?.user ? (
    <>
      <Form action={signOut}>
        <h1>Signed in as {session.value.user.name}</h1>
        <button>Sign out {session.value.user.name}</button>
      </Form>
      {/* A redirectTo under the base path: the browser loads the library's page as a document. */}
      <Form action={signOut}>
        <input type="hidden" name="redirectTo" value="/auth/signin" />
        <button>Leave for the sign-in page</button>
      </Form>
    </>
  ) : (
    <Form action={signIn}>
      <h1>Not signed in</h1>
      <input type="hidden" name="providerId" value="credentials" />
      <label>
        Username <input name="username" />
      </label>
      <label>
        Password <input name="password" type="password" />
      </label>
      <button>Sign in</button>
      {signIn.value?.failed && <p role="alert">{signIn.value.formErrors.join(" ")}</p>}
    </Form>
  );
});
