/**
 * The example's appauth: every sign-in method of the demo, with nothing to configure. The
 * launcher (`npm start`, scripts/start.ts) starts the bundled OpenID Provider and the dev mailbox
 * and passes them in through the environment — `AUTH_DEMO_IDP_ISSUER`/`_ID`/`_SECRET` are read by
 * the library itself (provider `demo-idp`), `EMAIL_SERVER` here — along with the secret
 * (`AUTH_SECRET`) and the SQLite file that holds users, accounts, sign-in links and passkeys.
 */
import AppAuth from "appauth/next";
import type { Provider } from "appauth";
import Credentials from "appauth/providers/credentials";
import Nodemailer from "appauth/providers/nodemailer";
import { Passkey } from "appauth/providers/passkey";
import { sqliteAdapter } from "appauth/adapters/sqlite";
import { authConfig } from "./auth.config";
import { checkStoredDemoAccount } from "./lib/demo-account";
import { recordFlows } from "./lib/flows";

/** The bundled OpenID Provider (demo/op): client id, secret and issuer come from AUTH_DEMO_IDP_*. */
const demoIdentityProvider: Provider = {
  id: "demo-idp",
  name: "Demo identity provider",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
  // A refresh token (offline_access, which the OP grants only with consent) keeps the access token
  // renewed on session reads; signing out ends the OP's session too (RP-initiated logout).
  authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },
  rpInitiatedLogout: true,
  style: { brandColor: "#0f766e" },
};

const database = process.env.APPAUTH_DEMO_DATABASE ?? `${process.cwd()}/../../demo/.data/appauth.sqlite`;

const adapter = sqliteAdapter(database);

export const { handlers, auth, signIn, signOut, unstable_update, listSessions, revokeSession, revokeOtherSessions, requireRecentSecondFactor } = AppAuth({
  ...authConfig,
  adapter,
  // An authenticator app and recovery codes at /api/auth/two-factor; every sign-in then asks for the code.
  twoFactor: { issuer: "appauth demo" },
  experimental: { enableWebAuthn: true },
  // The flows page (/flows) draws the paths this observer keeps of the redacted inspection stream.
  inspect: recordFlows,
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
});
