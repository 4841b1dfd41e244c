import AppAuth from "appauth/next";
import Credentials from "appauth/providers/credentials";
import Nodemailer from "appauth/providers/nodemailer";
import { sqliteAdapter } from "appauth/adapters/sqlite";
import { authConfig } from "./auth.config";

// Every store call is bounded (timeout, ms): a slow or dead store answers StoreUnavailable, not a hang.
export const adapter = sqliteAdapter(process.env.DATABASE_FILE ?? "auth.sqlite", { timeout: 5000 });

export const { handlers, auth, signIn, signOut } = AppAuth({
  ...authConfig,
  adapter,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      // A stand-in for the application's own user check.
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? { id: "ada", name: "Ada Lovelace", email: "ada@example.test" } : null,
    }),
    Nodemailer({ server: process.env.EMAIL_SERVER, from: "Fresh app <no-reply@example.test>" }),
  ],
});
