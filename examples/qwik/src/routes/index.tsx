import { component$ } from "@builder.io/qwik";
import { Form, type DocumentHead } from "@builder.io/qwik-city";
import { useSession, useSignIn } from "./plugin@auth";

export default component$(() => {
  const session = useSession();
  const password = useSignIn();
  const oidc = useSignIn();
  const email = useSignIn();
  const passkey = useSignIn();
  const failure = password.value;
  const user = session.value?.user;
  return (
    <>
      <h1>{user ? `Signed in as ${user.name ?? user.email}` : "You are not signed in"}</h1>
      <p class="muted">
        appauth in Qwik City: the session comes from a route loader, every form below is a Qwik action and works with
        JavaScript off too. <a href="/protected/">The protected page</a> needs a signed-in user.
      </p>
      <pre id="server-session">{JSON.stringify(session.value, null, 2)}</pre>
      <div class="grid">
        <section class="card stack" aria-labelledby="password-title">
          <h2 id="password-title">Password</h2>
          {/* reloadDocument: a refusal is rendered on the server, so it is always shown (Qwik City
              1.20 may re-create the page after an in-place action and lose the action's value). */}
          <Form action={password} reloadDocument class="stack">
            <input type="hidden" name="providerId" value="credentials" />
            <label for="username">Username</label>
            <input id="username" name="username" autoComplete="username" value={password.formData?.get("username") ?? ""} required />
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
            <button type="submit">Sign in with a password</button>
          </Form>
          <p class="muted">Demo account: demo / demo</p>
          {failure?.failed && failure.formErrors.length > 0 && (
            <p id="password-error" class="error" role="alert">
              {failure.formErrors.join(" ")} ({failure.error === "RateLimited" ? failure.error : (failure.code ?? failure.error)})
            </p>
          )}
          {failure?.failed && Object.keys(failure.fieldErrors).length > 0 && (
            <pre id="password-field-errors" class="error">{JSON.stringify(failure.fieldErrors)}</pre>
          )}
        </section>
        <section class="card stack" aria-labelledby="oidc-title">
          <h2 id="oidc-title">Identity provider</h2>
          <p class="muted">The bundled OpenID Provider: pick a person, no account needed.</p>
          <Form action={oidc}>
            <input type="hidden" name="providerId" value="demo-idp" />
            <button type="submit">Continue with the demo identity provider</button>
          </Form>
          {oidc.value?.failed && <p class="error">{oidc.value.formErrors.join(" ")}</p>}
        </section>
        <section class="card stack" aria-labelledby="email-title">
          <h2 id="email-title">Email link</h2>
          <Form action={email} class="stack">
            <input type="hidden" name="providerId" value="nodemailer" />
            <input type="hidden" name="redirectTo" value="/protected" />
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autoComplete="email" required />
            <button type="submit">Email me a sign-in link</button>
          </Form>
          <p class="muted">
            The link arrives in the <a href="/dev/mailbox">dev mailbox</a>.
          </p>
          {email.value?.failed && <p class="error">{email.value.formErrors.join(" ")}</p>}
        </section>
        <section class="card stack" aria-labelledby="passkey-title">
          <h2 id="passkey-title">Passkey</h2>
          <p class="muted">Create or use a passkey on the sign-in page.</p>
          <Form action={passkey}>
            <input type="hidden" name="providerId" value="passkey" />
            <input type="hidden" name="redirectTo" value="/protected" />
            <button type="submit">Continue with a passkey</button>
          </Form>
        </section>
      </div>
    </>
  );
});

export const head: DocumentHead = { title: "appauth · Qwik City example" };
