/**
 * Email magic-link providers. `Nodemailer({ server, from })` mails the link over SMTP; any email
 * provider may bring its own `sendVerificationRequest` instead (an HTTP mail API, say).
 *
 * ```ts
 * Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.example>" })
 * ```
 */
import { verificationMessage } from "../email/message.js";
import { nodemailerSender } from "../symbols.js";
import type { EmailConfig, SendVerificationRequestParams } from "../types.js";

export type EmailUserConfig = Partial<Omit<EmailConfig, "type" | "options">>;

interface Transport {
  sendMail(message: Record<string, unknown>): Promise<{ rejected?: unknown[]; pending?: unknown[] }>;
}

/** The default sender: nodemailer over `provider.server`, from `provider.from`, text and HTML parts. */
export async function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const { provider, identifier, url, theme } = params;
  if (!provider.server) throw new TypeError(`The email provider "${provider.id}" needs a \`server\` (or a sendVerificationRequest).`);
  // nodemailer is an optional peer, loaded only when a mail is sent (never on an edge runtime's path).
  const nodemailer = (await import("nodemailer")) as unknown as { default: { createTransport(server: unknown): Transport } };
  const transport = nodemailer.default.createTransport(provider.server);
  const { host } = new URL(url);
  const message = verificationMessage({ url, host, brandColor: theme.brandColor, buttonText: theme.buttonText });
  const result = await transport.sendMail({ to: identifier, from: provider.from, ...message });
  const failed = [...(result.rejected ?? []), ...(result.pending ?? [])];
  if (failed.length) throw new Error(`The mail to ${identifier} could not be delivered (${failed.join(", ")}).`);
}

// The runtime recognises the default sender by this mark, not by importing this module.
(sendWithNodemailer as unknown as Record<typeof nodemailerSender, true>)[nodemailerSender] = true;

export default function Nodemailer(options: EmailUserConfig = {}): EmailConfig {
  return {
    id: "nodemailer",
    name: "Email",
    type: "email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    ...options,
    options,
  } as EmailConfig;
}

/** The same provider under the id `email`. */
export function Email(options: EmailUserConfig = {}): EmailConfig {
  return Nodemailer({ id: "email", ...options });
}

export { Nodemailer };
