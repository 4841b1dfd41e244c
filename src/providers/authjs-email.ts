/**
 * `appauth/providers/email`: Auth.js's `Email` provider under its Auth.js name. It is
 * {@link Nodemailer} (a magic link mailed over SMTP through nodemailer) with the provider id
 * `email` and the name "Email", as `@auth/core/providers/email`'s default export has, so an
 * application that moves its import here keeps its `/signin/email` and `/callback/email` routes and
 * the verification links already in people's mailboxes. New code imports
 * `appauth/providers/nodemailer` (id `nodemailer`), as Auth.js now recommends.
 *
 * ```ts
 * import Email from "appauth/providers/email";
 *
 * Email({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.example>" })
 * ```
 */
import { Email } from "./email.js";

export { Email, Nodemailer, sendWithNodemailer, type EmailUserConfig } from "./email.js";
export default Email;
