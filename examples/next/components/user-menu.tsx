"use client";
// The header's corner: who is signed in, and signing out through appauth/react (every tab hears of it).
import { signIn, signOut, useSession } from "appauth/react";

export function UserMenu() {
  const { data, status } = useSession();
  if (status === "loading") return <span className="muted">…</span>;
  if (!data?.user) {
    return (
      <button type="button" className="link" onClick={() => void signIn()}>
        Sign in
      </button>
    );
  }
  return (
    <span className="user">
      <span id="header-user">{data.user.name ?? data.user.email}</span>
      <button type="button" className="link" onClick={() => void signOut({ redirectTo: "/" })}>
        Sign out
      </button>
    </span>
  );
}
