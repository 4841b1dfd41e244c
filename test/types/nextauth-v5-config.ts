/**
 * A typical next-auth v5 `auth.ts`, written as its users write it, with only the import specifiers
 * changed to appauth's (what `npx appauth migrate` does). It is not run: `npm run typecheck` compiling
 * it is the test that the types accept such a config unchanged.
 */
import NextAuth, { type NextAuthConfig, type User } from "../../integrations/next/index.js";
import type { JWT } from "../../src/jwt/index.js";
import { MemoryAdapter } from "../../src/adapters/memory/index.js";
import Credentials from "../../src/providers/credentials.js";
import GitHub from "../../src/providers/catalog/github.js";

declare module "../../src/types.js" {
  interface Session {
    fixtureAccessToken?: string;
  }
  interface JWT {
    fixtureRole?: "admin" | "member";
    fixtureAccessToken?: string;
  }
}

async function findUser(email: unknown, password: unknown): Promise<(User & { role: "admin" | "member" }) | null> {
  return typeof email === "string" && typeof password === "string" ? { id: "1", email, name: null, role: "member" } : null;
}

export const authConfig = {
  pages: { signIn: "/login" },
  providers: [],
  callbacks: {
    authorized({ auth, request: { nextUrl } }) {
      const isLoggedIn = !!auth?.user;
      const onDashboard = nextUrl.pathname.startsWith("/dashboard");
      if (onDashboard) return isLoggedIn;
      if (isLoggedIn) return Response.redirect(new URL("/dashboard", nextUrl));
      return true;
    },
  },
} satisfies NextAuthConfig;

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  adapter: MemoryAdapter(),
  session: { strategy: "jwt" },
  providers: [
    GitHub,
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: async (credentials) => {
        const user = await findUser(credentials.email, credentials.password);
        if (!user) throw new Error("Invalid credentials.");
        return user;
      },
    }),
  ],
  callbacks: {
    ...authConfig.callbacks,
    async signIn({ account, profile }) {
      if (account?.provider === "github") return Boolean(profile?.email?.endsWith("@example.com"));
      return true;
    },
    async jwt({ token, user, account, trigger, session }) {
      if (user) token.fixtureRole = (user as { role?: "admin" | "member" }).role ?? "member";
      if (account) token.fixtureAccessToken = account.access_token;
      if (trigger === "update" && session?.name) token.name = session.name;
      return token;
    },
    async session({ session, token, user }) {
      session.user.id = token.sub ?? user.id;
      session.fixtureAccessToken = token.fixtureAccessToken;
      return session;
    },
  },
  events: {
    async signIn({ user, isNewUser }) {
      void user.email;
      void isNewUser;
    },
  },
});

export function roleOf(token: JWT): string {
  return token.fixtureRole ?? "member";
}
