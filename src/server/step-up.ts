/**
 * Requiring a recent second factor from server code, for every integration: before a sensitive
 * action, the session must have proved a second factor in the last `maxAge` seconds; otherwise the
 * browser is sent through `<basePath>/step-up` (or, signed out, through sign-in) and back to
 * `redirectTo`. The decision reads the session's own record of what it proved (a JWT's `amr` and
 * `auth_time`, a database session's `amr` and `authTime`), never what the `session` callback shows.
 */
import { signInPageUrl } from "../flows/pages.js";
import { InvalidConfiguration } from "../errors.js";
import { recentSecondFactor } from "../two-factor/recent.js";
import { signedIn } from "../two-factor/session-proof.js";
import { stepUpPageUrl } from "../two-factor/step-up-url.js";
import type { AuthConfigInput } from "../types.js";
import { runtimeOf } from "./runtime.js";
import { sessionContext, sessionRequestOf } from "./session-read.js";

export interface RecentSecondFactorOptions {
  /** How recently (seconds) the second factor must have been proved. */
  maxAge: number;
  /**
   * Where the person comes back to once it is proved: a path or a URL of the application's origin,
   * judged by the `redirect` callback. Default: the URL of `request`.
   */
  redirectTo?: string;
}

function checkMaxAge(maxAge: unknown): asserts maxAge is number {
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) {
    throw new TypeError("requireRecentSecondFactor: maxAge must be a positive number of seconds.");
  }
}

/**
 * `null` when the session of `request` proved a second factor in the last `maxAge` seconds; else the
 * URL to send the browser to: the step-up page, or the sign-in page when nobody is signed in, each
 * coming back to `redirectTo`. A session that cannot be read counts as none (fail closed).
 */
export async function recentSecondFactorRedirect(request: Request, config: AuthConfigInput, options: RecentSecondFactorOptions): Promise<string | null> {
  checkMaxAge(options.maxAge);
  const rt = await runtimeOf(request, config);
  if (!rt.twoFactor) throw new InvalidConfiguration("requireRecentSecondFactor needs the `twoFactor` option.");
  const ctx = sessionContext(rt, sessionRequestOf(request));
  const who = await signedIn(rt, ctx);
  if (who && recentSecondFactor(who.proved, options.maxAge)) return null;
  const asked = new URL(request.url);
  const back = options.redirectTo ?? `${asked.pathname}${asked.search}`;
  return who ? stepUpPageUrl(ctx.baseUrl, back, undefined) : signInPageUrl(rt, ctx, new URLSearchParams({ callbackUrl: back }));
}

/**
 * For plain `Auth` (any server with `Request`/`Response`): `null` when the session proved a second
 * factor in the last `maxAge` seconds, else a `303` redirect `Response` to return instead of doing
 * the action.
 *
 * ```ts
 * const stepUp = await requireRecentSecondFactor(request, config, { maxAge: 300 });
 * if (stepUp) return stepUp;
 * ```
 */
export async function requireRecentSecondFactor(request: Request, config: AuthConfigInput, options: RecentSecondFactorOptions): Promise<Response | null> {
  const url = await recentSecondFactorRedirect(request, config, options);
  return url === null ? null : new Response(null, { status: 303, headers: { Location: url, "Cache-Control": "private, no-cache, no-store" } });
}
