/**
 * Email providers that send the sign-in link through a mail service's HTTP API (Resend, SendGrid,
 * Postmark) instead of SMTP: the same message as the SMTP sender (text and HTML parts, everything
 * from the request escaped), one POST per link through the provider's `[customFetch]` when given.
 * The API key comes from the options or `AUTH_<ID>_KEY`, as in Auth.js.
 */
import { verificationMessage, type VerificationMessage } from "../email/message.js";
import { customFetch } from "../symbols.js";
import type { EmailConfig, SendVerificationRequestParams } from "../types.js";
import type { EmailUserConfig } from "./email.js";

/** What an HTTP mail service needs: where to POST, and the body and headers for one message. */
export interface MailApi {
  id: string;
  name: string;
  request(params: {
    apiKey: string;
    from: string;
    to: string;
    message: VerificationMessage;
    /** The sign-in link itself, for services that render the mail from a template of their own (Loops). */
    url: string;
    /** The provider as configured, for service-specific options (Mailgun's `region`, Loops' `transactionalId`). */
    provider: EmailConfig & Record<string, unknown>;
  }): { url: string; init: RequestInit };
}

/** Options of an HTTP email provider: any email option, the service's `apiKey`, and the fetch to reach it with. */
export type HttpEmailUserConfig = EmailUserConfig & { apiKey?: string; [customFetch]?: typeof fetch };

const DEFAULT_FROM = "Sign in <no-reply@example.com>";

/** An email provider that sends through `api`. */
export function httpEmailProvider(api: MailApi, options: HttpEmailUserConfig): EmailConfig {
  async function sendVerificationRequest(params: SendVerificationRequestParams): Promise<void> {
    const { provider, identifier, url, theme } = params;
    const apiKey = (provider as EmailConfig & { apiKey?: string }).apiKey;
    if (!apiKey) throw new TypeError(`The email provider "${provider.id}" needs an \`apiKey\` (or AUTH_${provider.id.toUpperCase()}_KEY).`);
    const message = verificationMessage({ url, host: new URL(url).host, brandColor: theme.brandColor, buttonText: theme.buttonText });
    const { url: endpoint, init } = api.request({
      apiKey,
      from: provider.from ?? DEFAULT_FROM,
      to: identifier,
      message,
      url,
      provider: provider as EmailConfig & Record<string, unknown>,
    });
    const send = (provider as HttpEmailUserConfig)[customFetch] ?? fetch;
    const response = await send(endpoint, { ...init, method: "POST", signal: AbortSignal.timeout(10_000) });
    if (!response.ok) {
      const detail = (await response.text().catch(() => "")).slice(0, 500);
      throw new Error(`${api.name} refused the mail to ${identifier}: ${response.status} ${detail}`);
    }
  }
  return {
    id: api.id,
    name: api.name,
    type: "email",
    maxAge: 24 * 60 * 60,
    from: DEFAULT_FROM,
    sendVerificationRequest,
    ...options,
    options,
  } as EmailConfig;
}
