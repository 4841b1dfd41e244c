"use client";
// Renaming through the session's `update()`: the jwt callback (trigger "update") takes the new name.
import { useSession } from "appauth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

export function ProfileForm() {
  const { data, update } = useSession();
  const router = useRouter();
  const [message, setMessage] = useState("");

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = new FormData(event.currentTarget).get("name");
    const session = await update({ name });
    setMessage(session ? `Saved: ${session.user?.name ?? ""}` : "Could not save the name.");
    // The server components show the session too: render them again.
    router.refresh();
  }

  return (
    <form className="card stack" onSubmit={onSubmit} aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <label htmlFor="profile-name">Display name</label>
      <input id="profile-name" name="name" defaultValue={data?.user?.name ?? ""} maxLength={60} required />
      <button type="submit">Save with update()</button>
      <p id="profile-message" aria-live="polite">
        {message}
      </p>
    </form>
  );
}
