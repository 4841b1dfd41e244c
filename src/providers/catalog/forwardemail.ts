/**
 * Email sign-in links sent through Forward Email's API (`AUTH_FORWARDEMAIL_KEY`, an API token):
 * `POST https://api.forwardemail.net/v1/emails`, the token as the HTTP Basic user name with an
 * empty password.
 *
 * @see https://forwardemail.net/en/email-api#outbound-emails
 */
import type { EmailConfig } from "../../types.js";
import { base64 } from "./shared.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

export const forwardEmailApi: MailApi = {
  id: "forwardemail",
  name: "Forward Email",
  request: ({ apiKey, from, to, message }) => ({
    url: "https://api.forwardemail.net/v1/emails",
    init: {
      headers: {
        Authorization: `Basic ${base64(new TextEncoder().encode(`${apiKey}:`))}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ from, to, subject: message.subject, text: message.text, html: message.html }),
    },
  }),
};

export default function ForwardEmail(options: HttpEmailUserConfig = {}): EmailConfig {
  return httpEmailProvider(forwardEmailApi, options);
}

export { ForwardEmail };
