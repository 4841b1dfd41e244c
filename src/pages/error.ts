/**
 * The built-in error page. The `error` parameter only selects a known message and status; an
 * unknown value is reported as `Default` and never echoed.
 */
import { html, safeLinkUrl } from "./html.js";
import { alertIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import { errorPageContent } from "./messages.js";
import type { PageResult, PageTheme } from "./types.js";

export interface ErrorPageParams {
  theme: PageTheme;
  /** The `error` query parameter (any string). */
  error: string;
  signInUrl: string;
  homeUrl: string;
  /** Overrides the type's status (a 404 for an unknown provider). */
  status?: number;
  /** Shown under the message: what went wrong in a developer's words (development only). */
  detail?: string;
}

/** The error page: 500 for `Configuration`, 403 for `AccessDenied` and `Verification`, else 400. */
export function renderErrorPage(params: ErrorPageParams): PageResult {
  const content = errorPageContent(params.error);
  const signIn = content.offerSignIn
    ? html`<a class="btn" href="${safeLinkUrl(params.signInUrl)}">Sign in again</a>`
    : "";
  const body = html`<div class="badge danger">${alertIcon}</div><h1>${content.heading}</h1><p class="lead">${
    content.message
  }</p>${params.detail ? html`<p class="muted small detail">${params.detail}</p>` : ""}<div class="actions">${signIn}<a href="${safeLinkUrl(params.homeUrl)}">Go to the home page</a></div>`;
  return {
    status: params.status ?? content.status,
    html: renderDocument({
      title: content.heading,
      theme: params.theme,
      body,
      centered: true,
      mainAttributes: html` data-error-type="${content.type}"`,
    }),
  };
}
