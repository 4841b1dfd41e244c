// Home: the session as the server sees it (`await auth()`) and as the browser sees it (`useSession()`).
import Link from "next/link";
import { auth } from "../auth";
import { ClientSession } from "../components/client-session";
import { PasswordForm } from "../components/password-form";
import { signInWithIdentityProvider } from "./actions";

export const dynamic = "force-dynamic";

export default async function Home() {
  const session = await auth();
  const who = session?.user?.name ?? session?.user?.email;
  return (
    <>
      <h1>{session?.user ? `Signed in as ${who}` : "You are not signed in"}</h1>
      <p className="muted">
        appauth in a Next.js App Router application: middleware guards <Link href="/protected">/protected</Link>, server
        components call <code>auth()</code>, client components <code>useSession()</code>.
      </p>
      {session?.user ? null : (
        <section className="card" aria-labelledby="sign-in-title">
          <h2 id="sign-in-title">Sign in</h2>
          <p>
            <a href="/api/auth/signin?callbackUrl=%2F" id="sign-in-page-link">
              Open the sign-in page
            </a>{" "}
            for every method: the bundled OpenID Provider, username <code>demo</code> / password <code>demo</code>, an email
            link (read it in the <Link href="/dev/mailbox">dev mailbox</Link>) or a passkey.
          </p>
          <div className="grid">
            <PasswordForm redirectTo="/" />
            <form action={signInWithIdentityProvider} className="stack" aria-labelledby="idp-form-title">
              <h3 id="idp-form-title">OpenID Connect</h3>
              <input type="hidden" name="redirectTo" value="/" />
              <p className="muted">The demo identity provider runs beside this app: no account anywhere.</p>
              <button type="submit">Continue with the demo identity provider</button>
            </form>
          </div>
        </section>
      )}
      <div className="grid">
        <section className="card" aria-labelledby="server-session-title">
          <h2 id="server-session-title">Session on the server</h2>
          <p>
            Read by a server component with <code>await auth()</code>.
          </p>
          <pre id="server-session">{JSON.stringify(session, null, 2)}</pre>
        </section>
        <ClientSession />
      </div>
    </>
  );
}
