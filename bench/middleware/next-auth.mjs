// The same middleware with next-auth (v5, on @auth/core), for bench/bundle.ts.
import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";

export default NextAuth({
  providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })],
  callbacks: { authorized: ({ auth }) => Boolean(auth?.user) },
}).auth;

export const config = { matcher: ["/((?!api/auth|_next/static|_next/image|favicon.ico).*)"] };
