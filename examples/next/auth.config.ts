/**
 * The part of the configuration the middleware uses: no adapter and no provider, nothing that needs
 * Node, so it runs on the edge runtime. Sessions are JWTs (`strategy: "jwt"`), so the middleware can
 * read them with the secret alone; `auth.ts` adds the providers and the SQLite store for the rest.
 */
import type { AppAuthConfig } from "appauth/next";

/** Pages under this path need a signed-in user. */
export const PROTECTED_PREFIX = "/protected";

/** A display name from `update({ name })` or `update({ user: { name } })`: checked, never trusted as is. */
function requestedName(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const record = data as { name?: unknown; user?: { name?: unknown } };
  const name = record.name ?? record.user?.name;
  if (typeof name !== "string") return undefined;
  const trimmed = name.trim().replace(/\s+/g, " ");
  return trimmed.length > 0 && trimmed.length <= 60 ? trimmed : undefined;
}

export const authConfig = {
  trustHost: true,
  session: { strategy: "jwt" },
  providers: [],
  callbacks: {
    authorized({ auth, request }) {
      const { pathname } = request.nextUrl;
      if (pathname === PROTECTED_PREFIX || pathname.startsWith(`${PROTECTED_PREFIX}/`)) return Boolean(auth?.user);
      return true;
    },
    jwt({ token, trigger, session }) {
      if (trigger === "update") {
        const name = requestedName(session);
        if (name) token.name = name;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      return session;
    },
  },
} satisfies AppAuthConfig;
