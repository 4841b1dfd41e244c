/**
 * The GET routes that show a page: sign-in, sign-out, error and verify-request. Each redirects to
 * the application's own page when `pages` names one, and otherwise renders the built-in page.
 */
import type { Runtime } from "../config/runtime.js";
import { resolveCsrf } from "../csrf.js";
import { isClientSafeErrorType } from "../errors.js";
import { takePageHint, redisplayedField, type PageHint } from "./page-hint.js";
import { renderErrorPage, renderSignInPage, renderSignOutPage, renderVerifyRequestPage, type PageProvider } from "../pages/index.js";
import { isErrorType, isShowableCode } from "../pages/messages.js";
import type { KeptValue } from "../pages/signin.js";
import { normalizeUrl, requestedCallbackUrl, resolveRedirectUrl } from "../redirect.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import type { SetCookie } from "../cookies.js";
import type { WebAuthnConfig } from "../providers/webauthn.js";
import type { CredentialsConfig } from "../types.js";

/** `pages.<name>` as an absolute URL carrying `params`, or undefined when the built-in page serves. */
export function customPageUrl(
  rt: Runtime,
  ctx: Pick<RequestContext, "origin">,
  page: keyof Runtime["pages"],
  params?: URLSearchParams,
): string | undefined {
  const target = rt.pages[page];
  if (!target) return undefined;
  const url = new URL(normalizeUrl(target, ctx.origin));
  for (const [key, value] of params ?? []) url.searchParams.set(key, value);
  return url.href;
}

/** Where sign-in errors and sign-in requests go: `pages.signIn` or the built-in `/signin`. */
export function signInPageUrl(rt: Runtime, ctx: RequestContext, params?: URLSearchParams): string {
  const custom = customPageUrl(rt, ctx, "signIn", params);
  if (custom) return custom;
  const query = params?.toString();
  return `${ctx.baseUrl}/signin${query ? `?${query}` : ""}`;
}

export function errorPageUrl(rt: Runtime, ctx: RequestContext, params: URLSearchParams): string {
  return customPageUrl(rt, ctx, "error", params) ?? `${ctx.baseUrl}/error?${params.toString()}`;
}

export function pageProviders(rt: Runtime, ctx: RequestContext): PageProvider[] {
  return rt.providers.map((provider) => {
    const entry: PageProvider = {
      id: provider.id,
      name: provider.name,
      type: provider.type,
      signinUrl: `${ctx.baseUrl}/signin/${encodeURIComponent(provider.id)}`,
      callbackUrl: `${ctx.baseUrl}/callback/${encodeURIComponent(provider.id)}`,
    };
    const unavailable = rt.unavailable.get(provider.id);
    if (unavailable) entry.unavailable = unavailable;
    if (provider.type === "credentials") entry.credentials = (provider as CredentialsConfig).credentials;
    else if (provider.style) entry.style = provider.style;
    if (provider.type === "webauthn") {
      entry.optionsUrl = `${ctx.baseUrl}/webauthn-options/${encodeURIComponent(provider.id)}`;
      entry.enableConditionalUI = (provider as WebAuthnConfig).enableConditionalUI === true;
    }
    return entry;
  });
}

async function csrfFor(rt: Runtime, ctx: RequestContext): Promise<{ token: string; cookies: SetCookie[] }> {
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  return { token: csrf.token, cookies: csrf.cookie ? [csrf.cookie] : [] };
}

export async function showSignIn(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const callbackUrl = await resolveRedirectUrl(requestedCallbackUrl(ctx), ctx, rt.callbacks.redirect);
  const custom = customPageUrl(rt, ctx, "signIn", forwardParams(ctx.query, callbackUrl));
  if (custom) return { redirect: custom };
  const csrf = await csrfFor(rt, ctx);
  const { hint, cookies: hintCookies } = await takePageHint(rt, ctx, "signin");
  const kept = keptValue(rt, hint);
  const error = ctx.query.get("error") ?? undefined;
  const code = ctx.query.get("code") ?? undefined;
  const page = renderSignInPage({
    theme: rt.theme,
    providers: pageProviders(rt, ctx),
    csrfToken: csrf.token,
    callbackUrl,
    homeUrl: ctx.origin,
    ...(kept ? { kept, provider: kept.provider } : {}),
    ...(error ? { error } : {}),
    ...(code ? { code } : {}),
  });
  const remember: SetCookie = { name: ctx.cookies.callbackUrl.name, value: callbackUrl, options: ctx.cookies.callbackUrl.options };
  return { status: page.status, html: page.html, cookies: [...csrf.cookies, ...hintCookies, remember] };
}

/** What the sign-in page shows again from a hint: only a field the provider still lets it show. */
function keptValue(rt: Runtime, hint: PageHint | undefined): KeptValue | undefined {
  const provider = hint && rt.providerById.get(hint.provider);
  if (!hint || !provider) return undefined;
  const showable = provider.type === "credentials" ? redisplayedField(provider as CredentialsConfig) : provider.type === "email" ? "email" : undefined;
  return hint.field === showable ? { provider: hint.provider, field: hint.field, value: hint.value } : undefined;
}

/**
 * What an application's sign-in page is handed, as Auth.js hands it: `callbackUrl`, and `error` and
 * `code` when they are the kind the library sends (a type it defines, a code of the shown shape).
 * Anything else the query carries stays behind.
 */
function forwardParams(query: URLSearchParams, callbackUrl: string): URLSearchParams {
  const params = new URLSearchParams({ callbackUrl });
  const error = query.get("error");
  if (error && (isErrorType(error) || error === "SessionRequired")) params.set("error", error);
  const code = query.get("code") ?? undefined;
  if (error && isShowableCode(code)) params.set("code", code);
  return params;
}

export async function showSignOut(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const callbackUrl = await resolveRedirectUrl(requestedCallbackUrl(ctx), ctx, rt.callbacks.redirect);
  // An application's sign-out page gets where to go afterwards when the request said, nothing else of the query.
  const forwarded = new URLSearchParams(ctx.query.has("callbackUrl") ? { callbackUrl } : {});
  const custom = customPageUrl(rt, ctx, "signOut", forwarded);
  if (custom) return { redirect: custom };
  const csrf = await csrfFor(rt, ctx);
  const page = renderSignOutPage({ theme: rt.theme, csrfToken: csrf.token, signOutUrl: `${ctx.baseUrl}/signout`, callbackUrl });
  return { status: page.status, html: page.html, cookies: csrf.cookies };
}

export function showError(rt: Runtime, ctx: RequestContext): ResponsePlan {
  const requested = ctx.query.get("error") ?? "Default";
  // Only client-safe types are shown by name; anything else a URL carries is shown as the default.
  const error = requested === "Configuration" || isClientSafeErrorType(requested) ? requested : "Default";
  const custom = customPageUrl(rt, ctx, "error", new URLSearchParams({ error }));
  // A custom error page that is this very route would loop: serve the built-in one instead.
  if (custom && new URL(custom).pathname !== ctx.url.pathname) return { redirect: custom };
  const page = renderErrorPage({ theme: rt.theme, error, signInUrl: `${ctx.baseUrl}/signin`, homeUrl: ctx.origin });
  // The page only shows what the query names: anyone can link to /error?error=Configuration, so that
  // request is no server fault and answers 400, never a 5xx (the fault itself was logged, and a
  // configuration that cannot be resolved answers 500 to every request).
  return { status: page.status >= 500 ? 400 : page.status, html: page.html };
}

export async function showVerifyRequest(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  // An application's page gets `provider` and `type` (as Auth.js sends them), for a provider that exists.
  const provider = rt.providerById.get(ctx.query.get("provider") ?? "");
  const custom = customPageUrl(rt, ctx, "verifyRequest", new URLSearchParams(provider ? { provider: provider.id, type: provider.type } : {}));
  if (custom) return { redirect: custom };
  // The address the link went to, as the email flow's page hint carries it (escaped by the page).
  const { hint, cookies } = await takePageHint(rt, ctx, "verify-request");
  const page = renderVerifyRequestPage({ theme: rt.theme, homeUrl: ctx.origin, ...(hint ? { email: hint.value } : {}) });
  return { status: page.status, html: page.html, ...(cookies.length ? { cookies } : {}) };
}

export async function showCsrf(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const csrf = await csrfFor(rt, ctx);
  return { json: { csrfToken: csrf.token }, cookies: csrf.cookies };
}

export function showProviders(rt: Runtime, ctx: RequestContext): ResponsePlan {
  const body: Record<string, { id: string; name: string; type: string; signinUrl: string; callbackUrl: string }> = {};
  for (const p of pageProviders(rt, ctx)) {
    body[p.id] = { id: p.id, name: p.name, type: p.type, signinUrl: p.signinUrl, callbackUrl: p.callbackUrl };
  }
  return { json: body };
}
