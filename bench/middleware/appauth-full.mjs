// The minimal Next.js middleware bench/bundle.ts builds with appauth: a session check on every page,
// through AppAuth(config).auth of the full entry (appauth/next), for comparison.
import AppAuth from "appauth/next";
import Credentials from "appauth/providers/credentials";

export default AppAuth({
  providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })],
  callbacks: { authorized: ({ auth }) => Boolean(auth?.user) },
}).auth;

export const config = { matcher: ["/((?!api/auth|_next/static|_next/image|favicon.ico).*)"] };
