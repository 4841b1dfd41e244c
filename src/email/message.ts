/**
 * The sign-in email: a text part and an HTML part. Everything that came from the request (the
 * host, the address) is escaped in the HTML, and the brand colour is used only when it is a valid
 * colour, so a request cannot inject markup into a mail the library sends.
 */
import { escapeHtml, parseColor, readableTextOn, toHex } from "../pages/index.js";

export interface VerificationMessage {
  subject: string;
  text: string;
  html: string;
}

const DEFAULT_BRAND = "#4f46e5";

export function verificationMessage(params: { url: string; host: string; brandColor?: string; buttonText?: string }): VerificationMessage {
  const brand = parseColor(params.brandColor) ?? parseColor(DEFAULT_BRAND)!;
  const brandHex = toHex(brand);
  const textHex = toHex(parseColor(params.buttonText) ?? readableTextOn(brand));
  const host = escapeHtml(params.host);
  const url = escapeHtml(params.url);
  const subject = `Sign in to ${params.host}`;
  const text = `Sign in to ${params.host}\n\n${params.url}\n\nIf you did not ask for this email, you can ignore it.\n`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1b1f24">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:600;padding-bottom:16px">Sign in to <strong>${host}</strong></td></tr>
<tr><td style="padding:8px 0 24px"><a href="${url}" target="_blank" style="display:inline-block;background:${brandHex};color:${textHex};text-decoration:none;font-weight:600;padding:12px 24px;border-radius:8px">Sign in</a></td></tr>
<tr><td style="font-size:14px;color:#57606a">If you did not ask for this email, you can ignore it.</td></tr>
</table></body></html>
`;
  return { subject, text, html };
}
