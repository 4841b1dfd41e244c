/**
 * Email sign-in links sent through Postmark's email API (`AUTH_POSTMARK_KEY`, a server token).
 *
 * @see https://postmarkapp.com/developer/api/email-api
 */
import type { EmailConfig } from "../../types.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

export const postmarkApi: MailApi = {
  id: "postmark",
  name: "Postmark",
  request: ({ apiKey, from, to, message }) => ({
    url: "https://api.postmarkapp.com/email",
    init: {
      headers: { "X-Postmark-Server-Token": apiKey, Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ From: from, To: to, Subject: message.subject, TextBody: message.text, HtmlBody: message.html, MessageStream: "outbound" }),
    },
  }),
};

export default function Postmark(options: HttpEmailUserConfig = {}): EmailConfig {
  return httpEmailProvider(postmarkApi, options);
}

export { Postmark };
