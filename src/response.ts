/**
 * The one place where a flow's result becomes a `Response`. Flows produce a plan (data); this
 * module adds the headers every answer needs and honours `X-Auth-Return-Redirect`.
 */
import { serializeCookie, type SetCookie } from "./cookies.js";
import type { AuthError } from "./errors.js";

export interface ResponsePlan {
  status?: number;
  headers?: Record<string, string>;
  cookies?: SetCookie[];
  redirect?: string;
  json?: unknown;
  html?: string;
}

/** What a route's handler answers: a plan; an error, for its page; or an error whose page still sets the flow's cookies. */
export type RouteAnswer = ResponsePlan | AuthError | { error: AuthError; cookies: SetCookie[] };

const NO_STORE = "private, no-cache, no-store";

export function toResponse(plan: ResponsePlan, options: { returnRedirect: boolean }): Response {
  const headers = new Headers(plan.headers);
  for (const cookie of plan.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie));
  if (plan.redirect !== undefined) {
    if (options.returnRedirect) {
      headers.set("Content-Type", "application/json");
      headers.set("Cache-Control", NO_STORE);
      forbidOldCaches(headers);
      return new Response(JSON.stringify({ url: plan.redirect }), { status: 200, headers });
    }
    headers.set("Location", plan.redirect);
    headers.set("Cache-Control", NO_STORE);
    return new Response(null, { status: plan.status ?? 302, headers });
  }
  if (plan.html !== undefined) {
    headers.set("Content-Type", "text/html; charset=utf-8");
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", NO_STORE);
    return new Response(plan.html, { status: plan.status ?? 200, headers });
  }
  headers.set("Content-Type", "application/json");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", NO_STORE);
  if (headers.get("Cache-Control") === NO_STORE) forbidOldCaches(headers);
  return new Response(JSON.stringify(plan.json ?? null), { status: plan.status ?? 200, headers });
}

/** What Auth.js adds to its JSON answers for HTTP/1.0 caches and proxies that ignore Cache-Control. */
function forbidOldCaches(headers: Headers): void {
  headers.set("Expires", "0");
  headers.set("Pragma", "no-cache");
}
