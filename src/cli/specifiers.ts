/**
 * Where each Auth.js module and export goes in appauth: the codemod's table, kept apart from the
 * syntax work (migrate.ts) so MIGRATION.md's table can be read against one place.
 */

/** Provider entry points appauth ships besides the OAuth catalog. */
const OWN_PROVIDERS = new Set(["credentials", "email", "nodemailer", "passkey", "webauthn", "resend", "sendgrid", "postmark", "forwardemail", "loops", "mailgun"]);

export type Rewrite = { to: string } | { note: string };

/**
 * Where an import of `specifier` goes in appauth, or why it cannot be moved, or `undefined` for a
 * module that is not Auth.js's. `providers` lists the catalog's provider ids.
 */
export function rewriteSpecifier(specifier: string, providers: ReadonlySet<string>): Rewrite | undefined {
  const provider = (id: string): Rewrite =>
    providers.has(id) || OWN_PROVIDERS.has(id)
      ? { to: `appauth/providers/${id}` }
      : { note: `appauth has no "${id}" provider yet: configure it as a generic { type: "oauth" | "oidc" } provider (see MIGRATION.md)` };
  const providerMatch = /^(?:next-auth|@auth\/core|@auth\/qwik|@auth\/solid-start)\/providers\/([a-z0-9-]+)$/.exec(specifier);
  if (providerMatch) return provider(providerMatch[1]!);
  switch (specifier) {
    case "next-auth":
      return { to: "appauth/next" };
    case "next-auth/react":
      return { to: "appauth/react" };
    case "next-auth/jwt":
    case "@auth/core/jwt":
      return { to: "appauth/jwt" };
    case "next-auth/providers":
    case "next-auth/adapters":
    case "@auth/core":
    case "@auth/core/types":
    case "@auth/core/adapters":
    case "@auth/core/errors":
    case "@auth/core/providers":
      return { to: "appauth" };
    case "@auth/qwik":
      return { to: "appauth/qwik" };
    case "@auth/solid-start":
      return { to: "appauth/solid-start" };
    case "@auth/solid-start/client":
      return { to: "appauth/solid-start/client" };
    case "next-auth/next":
    case "next-auth/middleware":
    case "next-auth/client":
      return { note: "a next-auth v4 entry point: move to the v5 shape (AppAuth(config) → { handlers, auth }) first, see MIGRATION.md" };
  }
  if (/^@auth\/[a-z0-9-]+-adapter$/.test(specifier)) return undefined;
  if (/^(?:next-auth(?:\/|$)|@auth\/)/.test(specifier)) return { note: "no appauth counterpart: see MIGRATION.md" };
  return undefined;
}

/** Names Auth.js and appauth export differently: renamed where a file imports them from an Auth.js module. */
export const RENAMED: ReadonlyMap<string, string> = new Map([
  ["NextAuth", "AppAuth"],
  ["NextAuthConfig", "AppAuthConfig"],
  ["QwikAuth$", "ResumableAuth$"],
  ["QwikAuthConfig", "ResumableAuthConfig"],
  ["SolidAuth", "ReactiveAuth"],
  ["SolidAuthConfig", "ReactiveAuthConfig"],
]);
