import { component$ } from "@builder.io/qwik";
import { Form, type DocumentHead } from "@builder.io/qwik-city";
import { useSession, useSignIn } from "./plugin@auth";

const OIDC = "demo-idp";
const EMAIL = "nodemailer";
const PASSKEY = "passkey";

/** How the fields a sign-in may refuse are named on the page. */
const FIELD_NAMES: Record<string, string> = {
  providerId: "Sign-in method",
  username: "Username",
  password: "Password",
  email: "Email",
  redirectTo: "Page to return to",
};

type SignInAction = ReturnType<typeof useSignIn>;

/** The action's failure, when the form it came from is the one `sent` recognises by its provider id. */
function failureOf(action: SignInAction, sent: (providerId: string) => boolean) {
  const value = action.value;
  if (!value?.failed) return undefined;
  const providerId = action.formData?.get("providerId");
  return sent(typeof providerId === "string" ? providerId : "") ? value : undefined;
}

export default component$(() => {
  const session = useSession();
  const password = useSignIn();
  const oidc = useSignIn();
  const email = useSignIn();
  const passkey = useSignIn();
  // The four forms post to the one sign-in action: after a page load each of its uses holds the same
  // submission, so each form shows a failure only when it was the one sent (by its provider id; a
  // tampered id counts as the password form's, the form sent without JavaScript).
  const passwordFailure = failureOf(password, (id) => id !== OIDC && id !== EMAIL && id !== PASSKEY);
  const oidcFailure = failureOf(oidc, (id) => id === OIDC);
  const emailFailure = failureOf(email, (id) => id === EMAIL);
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
          {passwordFailure && passwordFailure.formErrors.length > 0 && (
            <p id="password-error" class="error" role="alert">
              {passwordFailure.formErrors.join(" ")}
            </p>
          )}
          {/* Qwik City hands each field's first message over as a string. */}
          {passwordFailure && Object.keys(passwordFailure.fieldErrors).length > 0 && (
            <ul id="password-field-errors" class="error" role="alert">
              {Object.entries(passwordFailure.fieldErrors).map(([field, messages]) => (
                <li key={field} data-field={field}>
                  {FIELD_NAMES[field] ?? field}: {[messages].flat().join(" ")}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section class="card stack" aria-labelledby="oidc-title">
          <h2 id="oidc-title">Identity provider</h2>
          <p class="muted">The bundled OpenID Provider: pick a person, no account needed.</p>
          <Form action={oidc}>
            <input type="hidden" name="providerId" value={OIDC} />
            <button type="submit">Continue with the demo identity provider</button>
          </Form>
          {oidcFailure && (
            <p class="error" role="alert">
              {oidcFailure.formErrors.join(" ")}
            </p>
          )}
        </section>
        <section class="card stack" aria-labelledby="email-title">
          <h2 id="email-title">Email link</h2>
          <Form action={email} class="stack">
            <input type="hidden" name="providerId" value={EMAIL} />
            <input type="hidden" name="redirectTo" value="/protected" />
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autoComplete="email" required />
            <button type="submit">Email me a sign-in link</button>
          </Form>
          <p class="muted">
            The link arrives in the <a href="/dev/mailbox">dev mailbox</a>.
          </p>
          {emailFailure && (
            <p class="error" role="alert">
              {emailFailure.formErrors.join(" ")}
            </p>
          )}
        </section>
        <section class="card stack" aria-labelledby="passkey-title">
          <h2 id="passkey-title">Passkey</h2>
          <p class="muted">Create or use a passkey on the sign-in page.</p>
          <Form action={passkey}>
            <input type="hidden" name="providerId" value={PASSKEY} />
            <input type="hidden" name="redirectTo" value="/protected" />
            <button type="submit">Continue with a passkey</button>
          </Form>
        </section>
      </div>
    </>
  );
});

export const head: DocumentHead = { title: "appauth · Qwik City example" };
