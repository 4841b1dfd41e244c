"use client";
import { signOut, useSession } from "appauth/react";

export function ClientSession() {
  const { data, status } = useSession();
  return (
    <section>
      <p data-testid="client-status">{status}</p>
      <p data-testid="client-email">{data?.user?.email ?? ""}</p>
      {status === "authenticated" ? <button onClick={() => signOut({ redirectTo: "/" })}>Sign out</button> : null}
    </section>
  );
}
