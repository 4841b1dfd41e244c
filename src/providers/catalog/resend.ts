/**
 * Email sign-in links sent through Resend's HTTP API (`AUTH_RESEND_KEY`).
 *
 * ```ts
 * import Resend from "appauth/providers/resend";
 * const config = { adapter, providers: [Resend({ from: "Acme <no-reply@acme.example>" })] };
 * ```
 *
 * @see https://resend.com/docs/api-reference/emails/send-email
 */
import type { EmailConfig } from "../../types.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

export const resendApi: MailApi = {
  id: "resend",
  name: "Resend",
  request: ({ apiKey, from, to, message }) => ({
    url: "https://api.resend.com/emails",
    init: {
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ from, to, subject: message.subject, text: message.text, html: message.html }),
    },
  }),
};

export default function Resend(options: HttpEmailUserConfig = {}): EmailConfig {
  return httpEmailProvider(resendApi, options);
}

export { Resend };
