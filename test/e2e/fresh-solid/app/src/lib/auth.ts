// The docs' src/lib/auth.ts with the password provider instead of GitHub (JWT sessions, no database),
// and every read re-issuing the session cookie (updateAge 0), so a stale read after a sign-out shows.
import ReactiveAuth from "appauth/solid-start";
import Credentials from "appauth/providers/credentials";

export const auth = ReactiveAuth({
  // Not in the docs: the same app behind one reverse proxy (the proxy tests start a server with TRUST_PROXY=1).
  ...(process.env.TRUST_PROXY === "1" ? { rateLimit: { trustProxy: 1 } } : {}),
  session: { strategy: "jwt", updateAge: 0 },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? { id: "1", name: "Ada Lovelace", email: "ada@example.test" } : null,
    }),
  ],
}); // prefix: "/api/auth" by default
