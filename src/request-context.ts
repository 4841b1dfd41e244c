/**
 * What the library knows about one request once it has been routed: the trusted URL it answers on,
 * the cookies it carries, the cookie names in force (secure or not), and its parsed form body.
 */
import type { CookieJar, ResolvedCookies } from "./cookies.js";
import type { RequestFacts } from "../machines/shared.js";

export type AuthAction =
  | "providers"
  | "two-factor-challenge"
  | "session"
  | "sessions"
  | "csrf"
  | "signin"
  | "signout"
  | "callback"
  | "verify-request"
  | "error"
  | "webauthn-options"
  | "backchannel-logout"
  | "two-factor"
  | "step-up";

export interface RequestContext {
  request: Request;
  method: "GET" | "POST";
  action: AuthAction;
  providerId?: string;
  /** The request URL with its origin replaced by the trusted one (APPAUTH_URL or the forwarded host). */
  url: URL;
  /** Trusted origin, e.g. `https://app.example`. */
  origin: string;
  /** Origin plus base path, e.g. `https://app.example/api/auth`. */
  baseUrl: string;
  query: URLSearchParams;
  /** Form or JSON body of a POST, as strings; empty for GET or an unreadable body. */
  body: Record<string, unknown>;
  /** A URL-encoded POST's fields with every value (a field sent twice is visible here, not in `body`). */
  form?: URLSearchParams;
  jar: CookieJar;
  cookies: ResolvedCookies;
  secure: boolean;
  /** The client asked for `200 { url }` instead of a 302 (`X-Auth-Return-Redirect: 1`). */
  returnRedirect: boolean;
}

/** The plain facts of a routed request that machines take as input (`RequestFacts`). */
export function requestFacts(ctx: RequestContext): RequestFacts {
  return { origin: ctx.origin, baseUrl: ctx.baseUrl, secure: ctx.secure };
}

/** Whether the client asked for JSON (`Accept: application/json`) rather than a page. */
export function wantsJson(ctx: RequestContext): boolean {
  return (ctx.request.headers.get("accept") ?? "").includes("application/json");
}
