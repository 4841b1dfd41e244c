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
// Not in the docs: a sign-out that answers with the session as it now is, read in the same request.
export const signOutInPlace = action(async (form: FormData) => {
  "use server";
  const csrfToken = form.get("csrfToken");
  await auth.signOut({ csrfToken: typeof csrfToken === "string" ? csrfToken : "", redirect: false });
  return { session: await auth.auth() };
});
