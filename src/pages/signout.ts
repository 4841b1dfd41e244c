/** The built-in sign-out confirmation page: one button, posting to the sign-out route. */
import { html, safeLinkUrl } from "./html.js";
import { signOutIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import type { PageResult, PageTheme } from "./types.js";

export interface SignOutPageParams {
  theme: PageTheme;
  csrfToken: string;
  /** Absolute URL of the sign-out route (`/signout`). */
  signOutUrl: string;
  /** Where to go once signed out. */
  callbackUrl: string;
}

/** The sign-out page (status 200). */
export function renderSignOutPage(params: SignOutPageParams): PageResult {
  const body = html`<div class="badge">${signOutIcon}</div><h1>Sign out</h1><p class="lead">Are you sure you want to sign out?</p><form method="post" action="${safeLinkUrl(
    params.signOutUrl,
  )}"><input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="callbackUrl" value="${
    params.callbackUrl
  }"><button class="btn" type="submit">Sign out</button></form>`;
  return { status: 200, html: renderDocument({ title: "Sign out", theme: params.theme, body, centered: true }) };
}
