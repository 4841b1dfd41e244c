// appauth for the whole app: `onRequest` answers everything under /auth, the loader and actions
// are used by any component.
import { ResumableAuth$ } from "appauth/qwik";
import { authConfig } from "~/lib/auth-config";

export const { onRequest, useSession, useSignIn, useSignOut, useUpdateSession } = ResumableAuth$((event) => authConfig(event.env));
