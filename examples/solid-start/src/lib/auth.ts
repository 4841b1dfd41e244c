/**
 * The example's appauth: every sign-in method of the demo, with nothing to configure. The launcher
 * (`npm run demo:solid`, scripts/start-solid.ts) starts the bundled OpenID Provider and the dev
 * mailbox and passes them in through the environment — `AUTH_DEMO_IDP_ISSUER`/`_ID`/`_SECRET` are
 * read by the library itself (provider `demo-idp`), `EMAIL_SERVER` here — along with the secret
 * (`AUTH_SECRET`) and the SQLite file that holds users, accounts, sign-in links and passkeys.
 */
import ReactiveAuth, { type ReactiveAuthConfig } from "appauth/solid-start";
import type { Provider } from "appauth";
import Credentials from "appauth/providers/credentials";
import Nodemailer from "appauth/providers/nodemailer";
import { Passkey } from "appauth/providers/passkey";
import { sqliteAdapter } from "appauth/adapters/sql";
// The same demo account as the Next.js example: one implementation of the check.
import { checkStoredDemoAccount } from "../../../next/lib/demo-account";

/** The bundled OpenID Provider (demo/op): client id, secret and issuer come from AUTH_DEMO_IDP_*. */
const demoIdentityProvider: Provider = {
  id: "demo-idp",
  name: "Demo identity provider",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
  authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },
  rpInitiatedLogout: true,
  style: { brandColor: "#2c4f7c" },
};

/** A display name from `update({ name })` or `update({ user: { name } })`: checked, never trusted as is. */
function requestedName(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const record = data as { name?: unknown; user?: { name?: unknown } };
  const name = record.name ?? record.user?.name;
  if (typeof name !== "string") return undefined;
  const trimmed = name.trim().replace(/\s+/g, " ");
  return trimmed.length > 0 && trimmed.length <= 60 ? trimmed : undefined;
}

const database = process.env.APPAUTH_DEMO_DATABASE ?? `${process.cwd()}/../../demo/.data/appauth.sqlite`;
const adapter = sqliteAdapter(database);

export const config: ReactiveAuthConfig = {
  trustHost: true,
  // JWT sessions with the SQLite store for users, accounts, email links and passkeys.
  session: { strategy: "jwt" },
  adapter,
  // An authenticator app and recovery codes at <basePath>/two-factor; every sign-in then asks for the code.
  twoFactor: { issuer: "appauth demo" },
  experimental: { enableWebAuthn: true },
  providers: [
    ...(process.env.AUTH_DEMO_IDP_ISSUER ? [demoIdentityProvider] : []),
    Credentials({
      credentials: {
        username: { label: "Username", autocomplete: "username", required: true },
        password: { label: "Password", type: "password", required: true },
      },
      // Stored as a user the first time, so the demo account can enroll a second factor.
      authorize: ({ username, password }) => checkStoredDemoAccount(adapter, username, password),
    }),
    ...(process.env.EMAIL_SERVER ? [Nodemailer({ server: process.env.EMAIL_SERVER, from: "appauth demo <no-reply@localhost>" })] : []),
    Passkey(),
  ],
  callbacks: {
    jwt({ token, trigger, session }) {
      if (trigger === "update") {
        const name = requestedName(session);
        if (name) token.name = name;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && token?.sub) session.user.id = token.sub;
      return session;
    },
  },
};

export const auth = ReactiveAuth(config);
