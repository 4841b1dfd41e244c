/**
 * The codemod behind `npx appauth migrate`: rewrites one source file of a next-auth v5 / @auth/*
 * app so that it imports appauth instead, and says what it could not change. It works on the text
 * (module specifiers in imports, exports, `import()`, `require()` and `declare module`, then the few
 * identifiers appauth names differently), so it needs no parser and leaves formatting alone.
 */

/** Provider entry points appauth ships besides the OAuth catalog. */
const OWN_PROVIDERS = new Set(["credentials", "email", "nodemailer", "passkey", "webauthn", "resend", "sendgrid", "postmark"]);

/** What became of one file. */
export interface MigratedSource {
  text: string;
  /** Each specifier or identifier rewritten, as `old → new`. */
  changes: string[];
  /** What needs a person: `<specifier>: <why>`. */
  notes: string[];
}

type Rewrite = { to: string } | { note: string };

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

/** Identifiers Auth.js and appauth name differently, renamed in files that import from Auth.js. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ["NextAuth", "AppAuth"],
  ["NextAuthConfig", "AppAuthConfig"],
  ["QwikAuth$", "ResumableAuth$"],
  ["QwikAuthConfig", "ResumableAuthConfig"],
  ["SolidAuth", "ReactiveAuth"],
  ["SolidAuthConfig", "ReactiveAuthConfig"],
];

const escape = (text: string) => text.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&");

/**
 * A module specifier in a position that names a module: `from "x"`, `import "x"`, `import("x")`,
 * `require("x")`, `declare module "x"`.
 */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bdeclare\s+module\s+)(["'])([^"'\n]+)\2/g;

/** Rewrites one file's text. Files that import nothing of Auth.js's come back unchanged. */
export function migrateSource(source: string, providers: ReadonlySet<string>): MigratedSource {
  const changes: string[] = [];
  const notes: string[] = [];
  let touched = false;
  let text = source.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const rewrite = rewriteSpecifier(specifier, providers);
    if (!rewrite) return whole;
    touched = true;
    if ("note" in rewrite) {
      notes.push(`${specifier}: ${rewrite.note}`);
      return whole;
    }
    // Types users augment live in the root module, whichever entry point re-exports them.
    const to = /^declare/.test(lead) && rewrite.to !== "appauth/react" ? "appauth" : rewrite.to;
    changes.push(`${specifier} → ${to}`);
    return `${lead}${quote}${to}${quote}`;
  });
  if (!touched) return { text: source, changes, notes };
  for (const [from, to] of RENAMED) {
    const pattern = new RegExp(`(?<![\\w$.])${escape(from)}(?![\\w$])`, "g");
    if (!pattern.test(text)) continue;
    text = text.replace(pattern, to);
    changes.push(`${from} → ${to}`);
  }
  if (/\bNEXTAUTH_(?:SECRET|URL)\b/.test(text)) {
    notes.push("NEXTAUTH_SECRET / NEXTAUTH_URL: appauth reads AUTH_SECRET / AUTH_URL (or APPAUTH_*): rename the variables");
  }
  return { text, changes, notes };
}
