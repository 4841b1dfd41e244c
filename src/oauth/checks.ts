/**
 * The OAuth flow's checks between the redirect and the callback: PKCE code verifier, state and
 * nonce, each in its own short-lived cookie, encrypted with the secret and bound to the provider
 * that minted it (a check minted for provider A is refused at provider B's callback). Read once,
 * cleared on every answer to the callback.
 */
import type * as oauth from "oauth4webapi";
import type { Runtime } from "../config/runtime.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import { InvalidCheck } from "../errors.js";
import { decode, encode } from "../jwt/index.js";
import type { OAuthCheck, OAuthProviderConfig } from "../providers/oauth-types.js";
import type { RequestContext } from "../request-context.js";

/** How long a sign-in may take between the redirect out and the callback. */
export const CHECK_MAX_AGE = 15 * 60;

/** Format version of a check cookie's content. */
const VERSION = 1;

export type CheckName = "pkceCodeVerifier" | "state" | "nonce";

/**
 * The checks a provider runs when it names none: PKCE, and `nonce` for OpenID Connect. A plain
 * OAuth 2 server whose metadata does not list PKCE `S256` (or that has no metadata) may ignore the
 * code challenge, and PKCE then protects nothing against cross-site request forgery: `state` is
 * added (RFC 9700 §2.1.1).
 */
export function defaultChecks(provider: OAuthProviderConfig, as: oauth.AuthorizationServer): OAuthCheck[] {
  if (provider.type === "oidc") return ["pkce", "nonce"];
  return as.code_challenge_methods_supported?.includes("S256") ? ["pkce"] : ["pkce", "state"];
}

/** The checks in force for a provider: its own, the defaults otherwise, plus `state` behind a redirect proxy. */
export function checksOf(rt: Runtime, provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Set<OAuthCheck> {
  const configured = provider.checks ?? defaultChecks(provider, as);
  const checks = new Set<OAuthCheck>(configured);
  if (checks.has("none")) checks.clear();
  if (redirectProxyOf(rt, provider)) checks.add("state");
  if (provider.type !== "oidc") checks.delete("nonce");
  return checks;
}

export function redirectProxyOf(rt: Runtime, provider: OAuthProviderConfig): string | undefined {
  return provider.redirectProxyUrl ?? rt.config.redirectProxyUrl;
}

/** A cookie that carries one check value for `providerId`. */
export async function checkCookie(
  rt: Runtime,
  ctx: RequestContext,
  name: CheckName,
  providerId: string,
  value: string,
  crossSitePost = false,
): Promise<SetCookie> {
  const cookie = ctx.cookies[name];
  const sealed = await encode({ token: { v: VERSION, p: providerId, value }, secret: rt.secrets, salt: cookie.name, maxAge: CHECK_MAX_AGE });
  const expires = new Date(Date.now() + CHECK_MAX_AGE * 1000);
  return { name: cookie.name, value: sealed, options: { ...cookie.options, ...crossSite(crossSitePost), maxAge: CHECK_MAX_AGE, expires } };
}

/**
 * A `response_mode=form_post` callback is a cross-site POST, which carries no SameSite=Lax cookie:
 * the flow's cookies must then be SameSite=None (which browsers accept only with Secure).
 */
export function crossSite(crossSitePost: boolean): { sameSite?: "none"; secure?: true } {
  return crossSitePost ? { sameSite: "none", secure: true } : {};
}

/**
 * Reads one check value minted for `providerId`. Missing, expired, tampered or minted for another
 * provider: `InvalidCheck`, never a value.
 */
export async function readCheck(rt: Runtime, ctx: RequestContext, name: CheckName, providerId: string): Promise<string> {
  const cookie = ctx.cookies[name];
  const raw = ctx.jar.get(cookie.name);
  if (!raw) throw new InvalidCheck(`The ${name} check cookie is missing.`);
  const payload = await decode<{ v?: unknown; p?: unknown; value?: unknown }>({ token: raw, secret: rt.secrets, salt: cookie.name });
  if (!payload || payload.v !== VERSION || typeof payload.value !== "string") {
    throw new InvalidCheck(`The ${name} check cookie could not be read (tampered or expired).`);
  }
  if (payload.p !== providerId) throw new InvalidCheck(`The ${name} check was minted for another provider.`);
  return payload.value;
}

/** Expires every check cookie the request carries. */
export function clearChecks(ctx: RequestContext): SetCookie[] {
  const out: SetCookie[] = [];
  for (const name of ["pkceCodeVerifier", "state", "nonce"] as const) {
    const cookie = ctx.cookies[name];
    if (ctx.jar.has(cookie.name)) out.push(expireCookie(cookie.name, cookie.options));
  }
  return out;
}

/** The state carried through a redirect proxy: where the callback must be handed on to. */
export async function proxyState(rt: Runtime, origin: string, random: string): Promise<string> {
  return encode({ token: { v: VERSION, origin, random }, secret: rt.secrets, salt: "appauth.redirect-proxy-state", maxAge: CHECK_MAX_AGE });
}

/** The origin a proxy state names, when `state` is one minted with our secret; else undefined. */
export async function proxyStateOrigin(rt: Runtime, state: string | null): Promise<string | undefined> {
  if (!state) return undefined;
  const payload = await decode<{ v?: unknown; origin?: unknown }>({
    token: state,
    secret: rt.secrets,
    salt: "appauth.redirect-proxy-state",
  });
  return payload?.v === VERSION && typeof payload.origin === "string" ? payload.origin : undefined;
}
