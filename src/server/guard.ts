/**
 * Guarding routes in middleware: the decision an `authorized` callback makes for one request, and
 * where a denied visitor goes — the sign-in page, with `callbackUrl` set to the full URL they asked
 * for. The library's own routes and the pages it sends people to are never guarded, so a denial can
 * never redirect into another denial. A callback that throws denies (fail closed).
 */
import type { Runtime } from "../config/runtime.js";
import { normalizeUrl } from "../redirect.js";
import { trustedOrigin } from "../router.js";
import { STORE_RETRY_AFTER_SECONDS } from "../errors.js";
import type { Awaitable, AuthConfigInput, Session } from "../types.js";
import { runtimeOf } from "./runtime.js";

/** The `authorized` callback: true allows; false or nothing denies; a `Response` answers instead. */
export type AuthorizedCallback<R extends Request = Request> = (params: {
  auth: Session | null;
  request: R;
}) => Awaitable<boolean | Response | null | undefined | void>;

export type GuardOutcome = { allow: true } | { redirect: string } | { response: Response };

function originOf(rt: Runtime, request: Request): string {
  const url = new URL(request.url);
  try {
    return trustedOrigin(rt, request, url);
  } catch {
    return url.origin;
  }
}

/** Whether `pathname` is one of the library's routes or one of the pages it redirects to. */
export function isAuthPath(rt: Runtime, origin: string, pathname: string): boolean {
  const prefix = rt.basePath === "/" ? "" : rt.basePath;
  if (pathname === rt.basePath || pathname.startsWith(`${prefix}/`)) return true;
  for (const page of [rt.pages.signIn, rt.pages.signOut, rt.pages.error, rt.pages.verifyRequest]) {
    if (page && new URL(normalizeUrl(page, origin)).pathname === pathname) return true;
  }
  return false;
}

/** The sign-in page (`pages.signIn` or the built-in one) with `callbackUrl` = the full URL of `request`. */
export function signInRedirectUrl(rt: Runtime, request: Request): string {
  const origin = originOf(rt, request);
  const asked = new URL(request.url);
  const callbackUrl = `${origin}${asked.pathname}${asked.search}`;
  const prefix = rt.basePath === "/" ? "" : rt.basePath;
  const page = new URL(rt.pages.signIn ? normalizeUrl(rt.pages.signIn, origin) : `${origin}${prefix}/signin`);
  page.searchParams.set("callbackUrl", callbackUrl);
  return page.href;
}

/** A `Response`, also one made by another realm's constructor (an edge sandbox's, a polyfill's). */
function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  const candidate = value as Partial<Response> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.status === "number" && typeof candidate.headers?.get === "function";
}

/**
 * What middleware does with `request`, given its session: allow it, redirect it to sign in, or
 * answer with the callback's own response. The callback is `options.authorized`, else the config's
 * `callbacks.authorized`; without one everything is allowed.
 */
export async function guardRequest<R extends Request>(
  request: R,
  config: AuthConfigInput,
  options: { session: Session | null; authorized?: AuthorizedCallback<R> },
): Promise<GuardOutcome> {
  return guardResolved(await runtimeOf(request, config), request, options);
}

/** {@link guardRequest} for a runtime already resolved for this request (a lazy config is not called again). */
export async function guardResolved<R extends Request>(
  rt: Runtime,
  request: R,
  options: { session: Session | null; authorized?: AuthorizedCallback<R> },
): Promise<GuardOutcome> {
  const authorized =
    options.authorized ?? (rt.config.callbacks as { authorized?: AuthorizedCallback<R> } | undefined)?.authorized;
  if (!authorized) return { allow: true };
  if (isAuthPath(rt, originOf(rt, request), new URL(request.url).pathname)) return { allow: true };
  let verdict: Awaited<ReturnType<AuthorizedCallback<R>>>;
  try {
    verdict = await authorized({ auth: options.session, request });
  } catch (error) {
    rt.logger.error("AuthorizedCallbackError", error);
    verdict = false;
  }
  if (isResponse(verdict)) return { response: verdict };
  if (verdict === true) return { allow: true };
  return { redirect: signInRedirectUrl(rt, request) };
}

/**
 * What middleware answers instead of a sign-in redirect when the session could not be read because
 * the store is down (`readSession` said `unavailable`): the person was not signed out, and sending
 * them to sign in would fail too. 503 with `Retry-After`, typed, never cached.
 */
export function storeUnavailableResponse(): Response {
  return new Response(JSON.stringify({ error: "StoreUnavailable", message: "The session store is unavailable; try again shortly." }), {
    status: 503,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "private, no-cache, no-store",
      "Retry-After": String(STORE_RETRY_AFTER_SECONDS),
    },
  });
}
