/** The built-in page shown after a sign-in link was emailed. */
import { html, safeLinkUrl } from "./html.js";
import { envelopeIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import type { PageResult, PageTheme } from "./types.js";

export interface VerifyRequestPageParams {
  theme: PageTheme;
  homeUrl: string;
  /** The address the link went to, when known. */
  email?: string;
}

/** The verify-request page (status 200). */
export function renderVerifyRequestPage(params: VerifyRequestPageParams): PageResult {
  const body = html`<div class="badge">${envelopeIcon}</div><h1>Check your email</h1>${
    params.email
      ? html`<p class="lead">A sign in link has been sent to</p><p class="email-line"><span class="email">${params.email}</span></p>`
      : html`<p class="lead">A sign in link has been sent to your email address.</p>`
  }<p class="muted small">If it does not arrive within a few minutes, check your spam folder.</p><p class="actions"><a href="${safeLinkUrl(
    params.homeUrl,
  )}">Go to the home page</a></p>`;
  return { status: 200, html: renderDocument({ title: "Check your email", theme: params.theme, body, centered: true }) };
}
