"use server";
/**
 * The example's server actions: signing in and out, and renaming, through appauth's server-side
 * helpers. A refused password reaches the form as `CredentialsSignin` (thrown to the caller);
 * every other outcome is a redirect (Next's `redirect`, which must not be caught here).
 */
import { CredentialsSignin } from "appauth";
import { revalidatePath } from "next/cache";
import { signIn, signOut, unstable_update } from "../auth";

export interface PasswordFormState {
  error?: string;
  /** Given back so the form keeps it for the next try (React resets a form after its action). */
  username?: string;
}

export async function signInWithPassword(_previous: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  try {
    await signIn("credentials", form);
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
  await signIn("demo-idp", { redirectTo: typeof redirectTo === "string" && redirectTo ? redirectTo : "/" });
}

export async function signOutEverywhere(): Promise<void> {
  await signOut({ redirectTo: "/" });
}

export async function renameOnServer(form: FormData): Promise<void> {
  const name = form.get("name");
  if (typeof name !== "string") return;
  await unstable_update({ user: { name } });
  revalidatePath("/", "layout");
}
