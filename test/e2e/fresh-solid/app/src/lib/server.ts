// The docs' src/lib/server.ts.
import { action, query } from "@solidjs/router";
import { auth } from "./auth";

export const getSession = query(async () => {
  "use server";
  return auth.auth();
}, "session");
export const getCsrf = query(async () => {
  "use server";
  return auth.csrfToken();
}, "csrf");
export const signInAction = action(async (form: FormData) => {
  "use server";
  await auth.signIn("credentials", form);
});
export const signOutAction = action(async (form: FormData) => {
  "use server";
  await auth.signOut(form);
});
