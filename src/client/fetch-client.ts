/**
 * The browser's side of the wire protocol (DESIGN.md §4), with no framework in it: fetch the
 * session, the CSRF token and the providers; sign in and out by posting to the library's routes
 * with `X-Auth-Return-Redirect`, then navigate. Every change is announced to the other tabs
 * (`channel.ts`). The React client (`appauth/react`) and the Solid client
 * (`appauth/solid-start/client`) both build on it.
 */
import type { Session } from "../types.js";
import { announce } from "./channel.js";

/** Where the library's routes are; each client's `SessionProvider` sets it from its `basePath` prop. */
export interface ClientOptions {
  /** The path of the library's routes; default `/api/auth`. */
  basePath?: string;
}

const DEFAULT_BASE_PATH = "/api/auth";
/** The base path of the `SessionProvider` mounted last: a page has one application. */
let mountedBasePath = DEFAULT_BASE_PATH;

export function setClientBasePath(basePath: string | undefined): void {
  mountedBasePath = (basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, "") || "";
}

export function basePathOf(options?: ClientOptions): string {
  return options?.basePath?.replace(/\/+$/, "") ?? mountedBasePath;
}

async function getJson(path: string, options?: ClientOptions): Promise<unknown> {
  try {
    const response = await fetch(`${basePathOf(options)}${path}`, { headers: { accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return null;
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

/** The current session, or `null` (signed out, or the session could not be read). */
export async function getSession(options?: ClientOptions): Promise<Session | null> {
  const body = await getJson("/session", options);
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Session) : null;
}

/**
 * The current session for a client that already shows `known`: during a store outage (`503`, the
 * server could not read the session, which is not a sign-out) and when the server cannot be reached
 * at all, `known` is kept, so open pages do not flip to signed out. Any other answer replaces it.
 */
export async function refreshedSession(known: Session | null, options?: ClientOptions): Promise<Session | null> {
  let response: Response;
  try {
    response = await fetch(`${basePathOf(options)}/session`, { headers: { accept: "application/json" }, credentials: "same-origin" });
  } catch {
    return known;
  }
  if (response.status === 503) return known;
  if (!response.ok) return null;
  const body = (await response.json().catch(() => null)) as unknown;
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Session) : null;
}

/** The CSRF token to send with a POST to the library's routes. */
export async function getCsrfToken(options?: ClientOptions): Promise<string | undefined> {
  const body = (await getJson("/csrf", options)) as { csrfToken?: unknown } | null;
  return typeof body?.csrfToken === "string" ? body.csrfToken : undefined;
}

export interface ClientProvider {
  /** The provider's id. */
  id: string;
  /** The provider's name, for a button. */
  name: string;
  /** The kind of provider. */
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn";
  /** The URL that starts signing in with it. */
  signinUrl: string;
  /** The provider's callback URL. */
  callbackUrl: string;
}

/** The configured providers by id, or `null` when they could not be fetched. */
export async function getProviders(options?: ClientOptions): Promise<Record<string, ClientProvider> | null> {
  const body = await getJson("/providers", options);
  return body !== null && typeof body === "object" ? (body as Record<string, ClientProvider>) : null;
}

/** Posts a form with the CSRF token and returns the URL the library would have redirected to. */
async function postForUrl(path: string, fields: Record<string, string>, options?: ClientOptions): Promise<{ url: string; status: number }> {
  const csrfToken = await getCsrfToken(options);
  const response = await fetch(`${basePathOf(options)}${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ ...fields, csrfToken: csrfToken ?? "" }),
  });
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null;
  return { url: typeof body?.url === "string" ? body.url : window.location.href, status: response.status };
}

function navigate(url: string): void {
  window.location.href = url;
  // A URL that differs only by its fragment does not load a page: reload to show the new state.
  if (url.includes("#")) window.location.reload();
}

export interface SignInOptions extends Record<string, unknown> {
  /** Where to land after signing in; default: the current page. (`callbackUrl` is accepted too.) */
  redirectTo?: string;
  /** The older name of `redirectTo`. */
  callbackUrl?: string;
  /** `false`: credentials and email sign-ins stay on the page and resolve with the outcome. */
  redirect?: boolean;
}

export interface SignInResult {
  /** Whether the sign-in succeeded. */
  ok: boolean;
  /** The HTTP status of the library's answer. */
  status: number;
  /** The error type (`CredentialsSignin`, ...) when the sign-in failed. */
  error: string | undefined;
  /** `CredentialsSignin`'s code. */
  code: string | undefined;
  /** Where the library would have sent the browser (`null` when the sign-in failed). */
  url: string | null;
}

export type AuthorizationParams = string | URLSearchParams | Record<string, string> | Array<[string, string]>;

function signInPageUrl(callbackUrl: string, options?: ClientOptions): string {
  return `${basePathOf(options)}/signin?${new URLSearchParams({ callbackUrl })}`;
}

/**
 * Signs in with `provider`: without one, or for passkeys (whose ceremony lives on the sign-in page),
 * it opens the sign-in page. OAuth/OIDC always navigate to the provider. Credentials and email
 * navigate to the result, or with `redirect: false` resolve with it (`error` set on failure).
 */
export async function signIn(
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: AuthorizationParams,
): Promise<SignInResult | undefined> {
  const { redirectTo, callbackUrl: legacyCallbackUrl, redirect = true, basePath, ...rest } = options;
  const client: ClientOptions = typeof basePath === "string" ? { basePath } : {};
  const callbackUrl = redirectTo ?? legacyCallbackUrl ?? window.location.href;
  const providers = provider ? await getProviders(client) : null;
  const chosen = provider ? providers?.[provider] : undefined;
  if (!chosen || chosen.type === "webauthn") {
    navigate(signInPageUrl(callbackUrl, client));
    return undefined;
  }
  const fields: Record<string, string> = { callbackUrl };
  for (const [key, value] of Object.entries(rest)) if (typeof value === "string") fields[key] = value;
  const id = encodeURIComponent(chosen.id);
  const query = authorizationParams === undefined ? "" : new URLSearchParams(authorizationParams).toString();
  const path = chosen.type === "credentials" ? `/callback/${id}` : `/signin/${id}${query ? `?${query}` : ""}`;
  const { url, status } = await postForUrl(path, fields, client);
  const landed = new URL(url, window.location.href);
  const error = landed.searchParams.get("error") ?? undefined;
  const code = landed.searchParams.get("code") ?? undefined;
  if (redirect || chosen.type === "oauth" || chosen.type === "oidc") {
    if (!error && chosen.type === "credentials") announce("signin", { local: false });
    navigate(url);
    return undefined;
  }
  if (!error) announce("signin");
  return { ok: !error && status < 400, status, error, code, url: error ? null : url };
}

export interface SignOutOptions {
  /** Where to go afterwards; default: the current page. (`callbackUrl` is accepted too.) */
  redirectTo?: string;
  /** The older name of `redirectTo`. */
  callbackUrl?: string;
  /** `false`: stay on the page; resolves with the URL the library would have gone to. */
  redirect?: boolean;
  /** The path of the library's routes, when it is not the `SessionProvider`'s. */
  basePath?: string;
}

/** Signs out: every tab of the application learns of it. */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const client: ClientOptions = options.basePath ? { basePath: options.basePath } : {};
  const callbackUrl = options.redirectTo ?? options.callbackUrl ?? window.location.href;
  const { url } = await postForUrl("/signout", { callbackUrl }, client);
  const leaving = options.redirect !== false;
  announce("signout", { local: !leaving });
  if (leaving) {
    navigate(url);
    return undefined;
  }
  return { url };
}

/** Posts `data` as a session update (jwt callback `trigger: "update"`); the new session or `null`. */
export async function updateSession(data: unknown, options?: ClientOptions): Promise<Session | null> {
  const csrfToken = await getCsrfToken(options);
  try {
    const response = await fetch(`${basePathOf(options)}/session`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ csrfToken, data }),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as unknown;
    return body !== null && typeof body === "object" ? (body as Session) : null;
  } catch {
    return null;
  }
}
