/**
 * The CSRF check of the server actions. A SolidStart server function is a POST to `/_server` that
 * SolidStart itself does not check for origin, so the sign-in and sign-out actions do it here
 * before they reach the core: a browser-sent `Origin` (or `Sec-Fetch-Site: cross-site`) of another
 * site is refused, and the form must carry the CSRF token of the request's own CSRF cookie — the
 * core's double-submit check (src/csrf.ts), with the same cookie and secrets as `POST /signin`.
 */
import { parseCookies } from "../../src/cookies.js";
import { resolveCsrf } from "../../src/csrf.js";
import { MissingCSRF } from "../../src/errors.js";
import { trustedOrigin } from "../../src/router.js";
import { runtimeOf } from "../../src/server/runtime.js";
import type { AuthConfigInput } from "../../src/types.js";
import { requestAsSent, writeCookies, type AuthRequestEvent } from "./event.js";

async function csrfOf(request: Request, config: AuthConfigInput, submitted?: unknown) {
  const rt = await runtimeOf(request, config);
  const origin = trustedOrigin(rt, request, new URL(request.url));
  const secure = rt.useSecureCookies ?? origin.startsWith("https:");
  const csrf = await resolveCsrf(parseCookies(request.headers.get("cookie")), rt.cookies(secure).csrfToken, rt.secrets, submitted);
  return { origin, csrf };
}

/**
 * The CSRF token to put in a form (`<input type="hidden" name="csrfToken">`) that posts to a
 * sign-in or sign-out action. When the request had no valid CSRF cookie, a new one is written to
 * the response of `event`.
 */
export async function csrfTokenFor(event: AuthRequestEvent, config: AuthConfigInput): Promise<string> {
  // The cookie as this response leaves it, so two forms of one page carry the same token.
  const { csrf } = await csrfOf(requestAsSent(event), config);
  if (csrf.cookie) writeCookies(event, [csrf.cookie], "read");
  return csrf.token;
}

/**
 * Refuses a post that another site made, or that does not carry the token of its CSRF cookie.
 *
 * @throws MissingCSRF
 */
export async function assertSameSitePost(request: Request, config: AuthConfigInput, submitted: unknown): Promise<void> {
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw new MissingCSRF("A cross-site request cannot sign in or out (Sec-Fetch-Site: cross-site).");
  }
  const { origin, csrf } = await csrfOf(request, config, submitted);
  const sentOrigin = request.headers.get("origin");
  if (sentOrigin !== null && sentOrigin !== origin) {
    throw new MissingCSRF(`A request from ${JSON.stringify(sentOrigin)} cannot sign in or out on ${origin}.`);
  }
  if (!csrf.verified) throw new MissingCSRF("The form's CSRF token is missing or does not match the CSRF cookie.");
}
