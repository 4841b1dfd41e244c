/**
 * The built-in pages: pure functions from data to `{ status, html }`, no I/O, so they run on any
 * runtime. Everything that came from outside is escaped; colours and logo URLs are validated.
 */
export { renderSignInPage, type SignInPageParams } from "./signin.js";
export { renderSignOutPage, type SignOutPageParams } from "./signout.js";
export { renderErrorPage, type ErrorPageParams } from "./error.js";
export { renderVerifyRequestPage, type VerifyRequestPageParams } from "./verify-request.js";
export type { PageProvider, PageResult, PageTheme } from "./types.js";
export { escapeHtml } from "./html.js";
export { contrastRatio, parseColor, readableTextOn, toHex, type Rgb } from "./color.js";
