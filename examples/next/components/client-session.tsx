"use client";
// The session as the browser sees it: `useSession()` from appauth/react.
import { useSession } from "appauth/react";

export function ClientSession({ required = false }: { required?: boolean }) {
  const { data, status } = useSession({ required });
  return (
    <section className="card" aria-labelledby="client-session-title">
      <h2 id="client-session-title">Session in the browser</h2>
      <p>
        Read by a client component with <code>useSession()</code>: <strong id="client-status">{status}</strong>
      </p>
      <pre id="client-session">{JSON.stringify(data, null, 2)}</pre>
    </section>
  );
}
