/**
 * Email sign-in links sent through SendGrid's v3 Mail Send API (`AUTH_SENDGRID_KEY`).
 *
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 */
import type { EmailConfig } from "../../types.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

export const sendgridApi: MailApi = {
  id: "sendgrid",
  name: "SendGrid",
  request: ({ apiKey, from, to, message }) => ({
    url: "https://api.sendgrid.com/v3/mail/send",
    init: {
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        personalizations: [{ to: [{ email: to }] }],
        from: { email: from },
        subject: message.subject,
        content: [
          { type: "text/plain", value: message.text },
          { type: "text/html", value: message.html },
        ],
      }),
    },
  }),
};

export default function SendGrid(options: HttpEmailUserConfig = {}): EmailConfig {
  return httpEmailProvider(sendgridApi, options);
}

export { SendGrid };
