/**
 * The example's server functions: the session and the CSRF token as queries (read during the
 * server render, serialised into the page, so the browser does not fetch them again), and the
 * sign-in, sign-out and rename actions. Each calls appauth's server operations, which check the
 * form's CSRF token and write cookies through the response.
 */
import { action, query } from "@solidjs/router";
import { CredentialsSignin } from "appauth/solid-start";
import { auth } from "./auth";

export const getSessionQuery = query(async () => {
  "use server";
  return auth.auth();
}, "session");

export const getCsrfQuery = query(async () => {
  "use server";
  return auth.csrfToken();
}, "csrf");

/** The guard of protected pages: the session, or a redirect to sign in that comes back to `path`. */
export const requireSessionQuery = query(async (path: string) => {
  "use server";
  return auth.requireSession(path);
}, "require-session");

export const signInWithPassword = action(async (form: FormData) => {
  "use server";
  try {
    await auth.signIn("credentials", form);
  } catch (error) {
    if (error instanceof CredentialsSignin) return { error: `Wrong username or password (code: ${error.code}).` };
    throw error;
  }
  return {};
}, "sign-in-password");

export const signInWithProvider = action(async (form: FormData) => {
  "use server";
  const provider = form.get("provider");
  await auth.signIn(typeof provider === "string" ? provider : undefined, form);
}, "sign-in-provider");

export const signOutAction = action(async (form: FormData) => {
  "use server";
  await auth.signOut(form);
}, "sign-out");

export const renameOnServer = action(async (form: FormData) => {
  "use server";
  const name = form.get("name");
  if (typeof name !== "string") return;
  // With the form: the same CSRF check as signing in (another site cannot rename anyone).
  await auth.update({ user: { name } }, form);
}, "rename");

export interface MailboxMessage {
  id: number;
  to: string[];
  from: string;
  subject: string;
  receivedAt: string;
  text?: string;
  link?: string;
}

/** The dev mailbox's messages (the launcher's loopback API), or `null` when it is not running. */
export const getMailQuery = query(async (): Promise<MailboxMessage[] | null> => {
  "use server";
  const url = process.env.DEMO_MAILBOX_URL;
  if (!url) return null;
  try {
    const response = await fetch(url, { cache: "no-store" });
    return response.ok ? ((await response.json()) as MailboxMessage[]) : null;
  } catch {
    return null;
  }
}, "mailbox");
