/**
 * Email sign-in links sent through a Loops transactional email (`AUTH_LOOPS_KEY`, an API key):
 * `POST https://app.loops.so/api/v1/transactional` with `Authorization: Bearer <key>`.
 *
 * Loops renders the mail from a template of its own, so this provider sends no subject or body:
 * it names the template (`transactionalId`, required; Auth.js's examples read it from
 * `AUTH_LOOPS_TRANSACTIONAL_ID`) and passes the sign-in link as its data variable `url`, which
 * the template must place in a button or link.
 *
 * @see https://loops.so/docs/api-reference/send-transactional-email
 */
import type { EmailConfig } from "../../types.js";
import { text } from "./shared.js";
import { httpEmailProvider, type HttpEmailUserConfig, type MailApi } from "../http-email.js";

/** Loops' options: any HTTP email option, plus the template to send. */
export type LoopsUserConfig = HttpEmailUserConfig & {
  /** The id of the transactional email to send (Loops dashboard → Transactional). */
  transactionalId?: string;
};

export const loopsApi: MailApi = {
  id: "loops",
  name: "Loops",
  request: ({ apiKey, to, url, provider }) => {
    const transactionalId = text(provider.transactionalId);
    if (!transactionalId) throw new TypeError('The email provider "loops" needs a `transactionalId` (e.g. from AUTH_LOOPS_TRANSACTIONAL_ID).');
    return {
      url: "https://app.loops.so/api/v1/transactional",
      init: {
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ transactionalId, email: to, dataVariables: { url } }),
      },
    };
  },
};

export default function Loops(options: LoopsUserConfig = {}): EmailConfig {
  return httpEmailProvider(loopsApi, options);
}

export { Loops };
