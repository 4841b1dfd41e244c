// Only signed-in people get here: middleware.ts runs `callbacks.authorized` (auth.config.ts) first.
import { auth } from "../../auth";
import { ClientSession } from "../../components/client-session";
import { ProfileForm } from "../../components/profile-form";
import { readableTime } from "../../../shared/time";
import { renameOnServer, signOutEverywhere } from "../actions";

export const dynamic = "force-dynamic";

export default async function ProtectedPage() {
  const session = await auth();
  return (
    <>
      <h1>Protected page</h1>
      <p className="muted">The middleware let you in because you are signed in. Sign out in another tab and this one follows.</p>
      <p>
        <a href="/protected/devices">Your devices</a>: every browser signed in as you, and ending them.
      </p>
      <p>
        <a href="/api/auth/two-factor">Two-step verification</a>: add an authenticator app, then open the{" "}
        <a href="/protected/sensitive">sensitive page</a>, which asks for its code again after five minutes.
      </p>
      <section className="card" aria-labelledby="you-title">
        <h2 id="you-title">You</h2>
        <dl>
          <dt>Name</dt>
          <dd id="server-name">{session?.user?.name ?? "—"}</dd>
          <dt>Email</dt>
          <dd id="server-email">{session?.user?.email ?? "—"}</dd>
          <dt>Session expires</dt>
          <dd>{session?.expires ? <time dateTime={session.expires}>{readableTime(session.expires)}</time> : "—"}</dd>
        </dl>
        <pre id="server-session">{JSON.stringify(session, null, 2)}</pre>
      </section>
      <div className="grid">
        <ClientSession required />
        <ProfileForm />
      </div>
      <div className="grid">
        <form action={renameOnServer} className="card stack" aria-labelledby="rename-title">
          <h2 id="rename-title">Rename on the server</h2>
          <label htmlFor="server-rename">Display name</label>
          <input id="server-rename" name="name" maxLength={60} required />
          <button type="submit">Save with unstable_update()</button>
        </form>
        <form action={signOutEverywhere} className="card stack" aria-labelledby="signout-title">
          <h2 id="signout-title">Sign out</h2>
          <p className="muted">A server action calling signOut().</p>
          <button type="submit">Sign out with a server action</button>
        </form>
      </div>
    </>
  );
}
