"use server";
/**
 * The example's server actions: signing in and out, and renaming, through appauth's server-side
 * helpers. A refused password reaches the form as `CredentialsSignin` (thrown to the caller);
 * every other outcome is a redirect (Next's `redirect`, which must not be caught here). Each runs as
 * the browser's flow viewer (lib/flows.ts), so the flows page shows the browser what it ran.
 */
import { CredentialsSignin } from "appauth";
import { revalidatePath } from "next/cache";
import { revokeOtherSessions, revokeSession, signIn, signOut, unstable_update } from "../auth";
import { asViewer } from "../lib/flows";

export interface PasswordFormState {
  error?: string;
  /** Given back so the form keeps it for the next try (React resets a form after its action). */
  username?: string;
}

export async function signInWithPassword(_previous: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  try {
    await asViewer(() => signIn("credentials", form));
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      const username = form.get("username");
      return {
        error: `Wrong username or password (code: ${error.code}).`,
        ...(typeof username === "string" ? { username } : {}),
      };
    }
    throw error;
  }
  return {};
}

export async function signInWithIdentityProvider(form: FormData): Promise<void> {
  const redirectTo = form.get("redirectTo");
  await asViewer(() => signIn("demo-idp", { redirectTo: typeof redirectTo === "string" && redirectTo ? redirectTo : "/" }));
}

export async function signOutEverywhere(): Promise<void> {
  await asViewer(() => signOut({ redirectTo: "/" }));
}

export async function renameOnServer(form: FormData): Promise<void> {
  const name = form.get("name");
  if (typeof name !== "string") return;
  await unstable_update({ user: { name } });
  revalidatePath("/", "layout");
}

/** "Your devices": ends one of the person's own sessions (another person's id ends nothing). */
export async function endSession(form: FormData): Promise<void> {
  const sessionId = form.get("sessionId");
  if (typeof sessionId === "string" && sessionId) await revokeSession(sessionId);
  revalidatePath("/protected/devices");
}

/** "Your devices": ends every session of the person but this one. */
export async function endOtherSessions(): Promise<void> {
  await revokeOtherSessions();
  revalidatePath("/protected/devices");
}
