// The part of the configuration the proxy (middleware) runs with: no adapter, no provider, so its
// bundle holds no database driver. Sessions are JWTs, which it reads with the secret alone.
import type { AppAuthConfig } from "appauth/next";

export const authConfig = {
  session: { strategy: "jwt" },
  providers: [],
  callbacks: {
    // /account is for signed-in visitors; the others go to sign in and come back.
    authorized: ({ auth, request }) => !request.nextUrl.pathname.startsWith("/account") || Boolean(auth?.user),
  },
} satisfies AppAuthConfig;
