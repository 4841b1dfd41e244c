// The README's Qwik City section with the password provider instead of GitHub (JWT sessions, no database).
import { ResumableAuth$ } from "appauth/qwik";
import Credentials from "appauth/providers/credentials";

const config = {
  // updateAge 0: every read re-issues the cookie, so a read that undid a sign-out would show.
  session: { strategy: "jwt" as const, updateAge: 0 },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? { id: "1", name: "Ada Lovelace", email: "ada@example.test" } : null,
    }),
  ],
}; // one object: appauth prepares a config once
// Not in the README: the same app behind one reverse proxy (the proxy tests start a server with TRUST_PROXY=1).
const behindProxy = { ...config, rateLimit: { trustProxy: 1 } };

export const { onRequest, useSession, useSignIn, useSignOut, useUpdateSession } = ResumableAuth$((event) =>
  event.env.get("TRUST_PROXY") === "1" ? behindProxy : config,
); // AUTH_SECRET from `event.env`
