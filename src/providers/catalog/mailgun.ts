/**
 * Email sign-in links sent through Mailgun's Messages API (`AUTH_MAILGUN_KEY`, a sending or
 * account API key): `POST /v3/<domain>/messages`, form-encoded, with HTTP Basic `api:<key>`.
 *
 * - `domain` is the Mailgun sending domain; by default the domain of the `from` address (as in
 *   Auth.js, which has no option for it).
 * - `region: "EU"` sends through `api.eu.mailgun.net`, for domains created in the EU region;
 *   the default is `"US"` (`api.mailgun.net`).
 *
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages
 */
import type { EmailConfig } from "../../types.js";
import { base64, text } from "./shared.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

/** Mailgun's options: any HTTP email option, plus its region and sending domain. */
export type MailgunUserConfig = HttpEmailUserConfig & {
  /** Where the domain was created: `"US"` (default) or `"EU"`. */
  region?: "US" | "EU";
  /** The sending domain; default the domain of `from`. */
  domain?: string;
};

const API = { US: "https://api.mailgun.net", EU: "https://api.eu.mailgun.net" } as const;

/** `Acme <auth@mg.acme.example>` or `auth@mg.acme.example` → `mg.acme.example`. */
export function mailDomainOf(from: string): string | null {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf("@");
  return at < 0 ? null : text(address.slice(at + 1).trim());
}

export const mailgunApi: MailApi = {
  id: "mailgun",
  name: "Mailgun",
  request: ({ apiKey, from, to, message, provider }) => {
    const domain = text(provider.domain) ?? mailDomainOf(from);
    if (!domain) throw new TypeError('The email provider "mailgun" needs a `domain`, or a `from` address at the sending domain.');
    const api = provider.region === "EU" ? API.EU : API.US;
    return {
      url: `${api}/v3/${encodeURIComponent(domain)}/messages`,
      init: {
        headers: {
          Authorization: `Basic ${base64(new TextEncoder().encode(`api:${apiKey}`))}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ from, to, subject: message.subject, text: message.text, html: message.html }),
      },
    };
  },
};

export default function Mailgun(options: MailgunUserConfig = {}): EmailConfig {
  return httpEmailProvider(mailgunApi, options);
}

export { Mailgun, Mailgun as MailGun };
