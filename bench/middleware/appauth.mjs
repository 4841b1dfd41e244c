// The minimal Next.js middleware bench/bundle.ts builds with appauth: a session check on every page,
// from the middleware entry (appauth/next/middleware), as the README sets it up.
import AppAuth from "appauth/next/middleware";
import Credentials from "appauth/providers/credentials";

export default AppAuth({
  providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })],
  callbacks: { authorized: ({ auth }) => Boolean(auth?.user) },
}).auth;

export const config = { matcher: ["/((?!api/auth|_next/static|_next/image|favicon.ico).*)"] };
