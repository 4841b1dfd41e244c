/**
 * The example's appauth configuration: every sign-in method of the demo, nothing to configure. The
 * launcher (`npm run demo:qwik`, scripts/start-qwik.ts) starts the bundled OpenID Provider and the
 * dev mailbox and passes them in through the environment — `AUTH_DEMO_IDP_ISSUER`/`_ID`/`_SECRET`
 * are read by the library (provider `demo-idp`), `EMAIL_SERVER` here — with the secret
 * (`AUTH_SECRET`) and the SQLite file that holds users, accounts, sign-in links and passkeys.
 *
 * Everything comes from Qwik's `event.env`, never `process.env`, so the same code runs on edge
 * adapters. The config is made once per process: appauth prepares a config object once.
 */
import type { EnvGetter } from "@builder.io/qwik-city/middleware/request-handler";
import type { Provider } from "appauth";
import type { ResumableAuthConfig } from "appauth/qwik";
import { sqliteAdapter } from "appauth/adapters/sql";
import Credentials from "appauth/providers/credentials";
import Nodemailer from "appauth/providers/nodemailer";
import { Passkey } from "appauth/providers/passkey";
// One copy of the demo account for both examples.
import { checkStoredDemoAccount } from "../../../next/lib/demo-account";

/** The bundled OpenID Provider (demo/op): client id, secret and issuer come from AUTH_DEMO_IDP_*. */
const demoIdentityProvider: Provider = {
  id: "demo-idp",
  name: "Demo identity provider",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
  authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },
  rpInitiatedLogout: true,
  style: { brandColor: "#0f766e" },
};

/** A display name from the profile form: checked, never trusted as is. */
function requestedName(data: unknown): string | undefined {
  const name = (data as { name?: unknown } | null)?.name;
  if (typeof name !== "string") return undefined;
  const trimmed = name.trim().replace(/\s+/g, " ");
  return trimmed.length > 0 && trimmed.length <= 60 ? trimmed : undefined;
}

/**
 * How old a session cookie may get before a read re-issues it: `APPAUTH_DEMO_SESSION_UPDATE_AGE`
 * seconds, else the library's default (a day). The browser tests set 0, so every read re-issues it
 * and a sign-out that a later read could undo shows at once.
 */
function updateAgeOf(env: EnvGetter): { updateAge?: number } {
  const raw = env.get("APPAUTH_DEMO_SESSION_UPDATE_AGE");
  const seconds = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(seconds) && seconds >= 0 ? { updateAge: seconds } : {};
}

const made = new Map<string, ResumableAuthConfig>();

export function authConfig(env: EnvGetter): ResumableAuthConfig {
  const database = env.get("APPAUTH_DEMO_DATABASE") ?? "../../demo/.data/appauth.sqlite";
  let config = made.get(database);
  if (config) return config;
  const emailServer = env.get("EMAIL_SERVER");
  const adapter = sqliteAdapter(database);
  config = {
    // The demo runs behind no proxy: the Host header is the one the browser sent.
    trustHost: true,
    adapter,
    // An authenticator app and recovery codes at <basePath>/two-factor; every sign-in then asks for the code.
    twoFactor: { issuer: "appauth demo" },
    session: { strategy: "jwt", ...updateAgeOf(env) },
    experimental: { enableWebAuthn: true },
    providers: [
      ...(env.get("AUTH_DEMO_IDP_ISSUER") ? [demoIdentityProvider] : []),
      Credentials({
        credentials: {
          username: { label: "Username", autocomplete: "username", required: true },
          password: { label: "Password", type: "password", required: true },
        },
        // Stored as a user the first time, so the demo account can enroll a second factor.
        authorize: ({ username, password }) => checkStoredDemoAccount(adapter, username, password),
      }),
      ...(emailServer ? [Nodemailer({ server: emailServer, from: "appauth demo <no-reply@localhost>" })] : []),
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
  made.set(database, config);
  return config;
}
