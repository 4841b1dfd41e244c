"use client";
// Credentials through a server action: a refused password comes back as the action's state.
import { useActionState } from "react";
import { signInWithPassword, type PasswordFormState } from "../app/actions";

export function PasswordForm({ redirectTo }: { redirectTo: string }) {
  const [state, action, pending] = useActionState<PasswordFormState, FormData>(signInWithPassword, {});
  return (
    <form action={action} className="stack" aria-labelledby="password-form-title">
      <h3 id="password-form-title">Username and password</h3>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="action-username">Username</label>
      <input id="action-username" name="username" autoComplete="username" defaultValue={state.username ?? ""} required />
      <label htmlFor="action-password">Password</label>
      <input id="action-password" name="password" type="password" autoComplete="current-password" required />
      <button type="submit" disabled={pending}>
        Sign in with a server action
      </button>
      {state.error ? (
        <p role="alert" id="password-form-error">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
