// Home: the session as the server read it and as the browser sees it, and every way to sign in.
import { createAsync, useSubmission } from "@solidjs/router";
import { Show } from "solid-js";
import { signIn } from "appauth/solid-start/client";
import { ClientSession } from "~/components/client-session";
import { CsrfField } from "~/components/csrf-field";
import { getSessionQuery, signInWithPassword, signInWithProvider } from "~/lib/server";

export default function Home() {
  const session = createAsync(() => getSessionQuery(), { deferStream: true });
  const password = useSubmission(signInWithPassword);
  const who = () => session()?.user?.name ?? session()?.user?.email;
  return (
    <>
      <h1>{session()?.user ? `Signed in as ${who()}` : "You are not signed in"}</h1>
      <p class="muted">
        appauth in a SolidStart application: the middleware guards <a href="/protected">/protected</a>, server functions
        call <code>auth.auth()</code>, components <code>useSession()</code>.
      </p>
      <Show when={!session()?.user}>
        <section class="card" aria-labelledby="sign-in-title">
          <h2 id="sign-in-title">Sign in</h2>
          <p>
            <a href="/api/auth/signin?callbackUrl=%2F" id="sign-in-page-link" rel="external">
              Open the sign-in page
            </a>{" "}
            for every method: the bundled OpenID Provider, username <code>demo</code> / password <code>demo</code>, an email
            link (read it in the <a href="/dev/mailbox">dev mailbox</a>) or a passkey.
          </p>
          <div class="grid">
            <form action={signInWithPassword} method="post" class="stack" aria-labelledby="password-form-title">
              <h3 id="password-form-title">Username and password</h3>
              <CsrfField />
              <input type="hidden" name="redirectTo" value="/" />
              <label for="username">Username</label>
              <input id="username" name="username" autocomplete="username" required />
              <label for="password">Password</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required />
              <button type="submit" id="password-submit">
                Sign in with a server action
              </button>
              <Show when={password.result?.error}>{(error) => <p role="alert" id="password-error">{error()}</p>}</Show>
            </form>
            <form action={signInWithProvider} method="post" class="stack" aria-labelledby="idp-form-title">
              <h3 id="idp-form-title">OpenID Connect</h3>
              <CsrfField />
              <input type="hidden" name="provider" value="demo-idp" />
              <input type="hidden" name="redirectTo" value="/" />
              <p class="muted">The demo identity provider runs beside this app: no account anywhere.</p>
              <button type="submit" id="idp-submit">
                Continue with the demo identity provider
              </button>
            </form>
            <form action={signInWithProvider} method="post" class="stack" aria-labelledby="email-form-title">
              <h3 id="email-form-title">Email link</h3>
              <CsrfField />
              <input type="hidden" name="provider" value="nodemailer" />
              <input type="hidden" name="redirectTo" value="/" />
              <label for="email">Email address</label>
              <input id="email" name="email" type="email" autocomplete="email" required />
              <button type="submit" id="email-submit">
                Email me a sign-in link
              </button>
            </form>
            <div class="stack">
              <h3>Passkey</h3>
              <p class="muted">The passkey ceremony runs on the sign-in page.</p>
              <button type="button" id="passkey-start" onClick={() => void signIn("passkey", { redirectTo: "/" })}>
                Sign in with a passkey
              </button>
            </div>
          </div>
        </section>
      </Show>
      <div class="grid">
        <section class="card" aria-labelledby="server-session-title">
          <h2 id="server-session-title">Session on the server</h2>
          <p>
            Read by a <code>"use server"</code> query with <code>auth.auth()</code>.
          </p>
          <pre id="server-session">{JSON.stringify(session() ?? null, null, 2)}</pre>
        </section>
        <ClientSession />
      </div>
    </>
  );
}
