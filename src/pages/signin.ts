/**
 * The built-in sign-in page: one section per provider, in the configured order. Providers that are
 * a single button (oauth, oidc) stand together; an "or" divider separates them from each form
 * (credentials, email, webauthn) and forms from each other. Works without JavaScript, except passkeys:
 * a WebAuthn section carries its own small inline script (`webauthn-script.ts`) and says so when
 * scripts are off.
 */
import type { CredentialInput } from "../types.js";
import { html, safeImageUrl, safeLinkUrl, trustedHtml, type SafeHtml } from "./html.js";
import { alertIcon, keyIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import { isCancel, signInError } from "./messages.js";
import { buttonRule } from "./theme.js";
import type { PageProvider, PageResult, PageTheme } from "./types.js";
import { webauthnScript } from "./webauthn-script.js";

/** A value typed into `field` of `provider`'s form, shown there again. */
export interface KeptValue {
  provider: string;
  field: string;
  value: string;
}

export interface SignInPageParams {
  theme: PageTheme;
  providers: PageProvider[];
  csrfToken: string;
  callbackUrl: string;
  /** The `error` query parameter: selects a message, never shown itself. */
  error?: string;
  /**
   * The `code` query parameter: words for the library's own codes; the text itself only for a
   * `CredentialsSignin` code of the shape `isShowableCode` allows (never arbitrary text).
   */
  code?: string;
  /** Prefills the email field. */
  email?: string;
  /**
   * The one value the person typed that the page shows again after a refusal (the page-hint
   * cookie): a credentials form's account field, or the email provider's refused address. Never a
   * password field's. Escaped like everything else.
   */
  kept?: KeptValue;
  /** The provider the error belongs to: its field carries the error. */
  provider?: string;
  /** Where "Back to <brandName>" leads: the site's home. */
  homeUrl?: string;
}

// The passkey section's extras: the field's hint and the outlined second button (link colour on the
// card, which the palette keeps at 4.5:1).
const WEBAUTHN_CSS =
  ".hint{margin:6px 0 0;color:var(--muted);font-size:13px}" +
  ".field+.btn+.btn{margin-top:12px}" +
  ".btn-secondary{--btn-bg:transparent;--btn-text:var(--link);--btn-hover:color-mix(in srgb,var(--link) 10%,transparent);border-color:var(--input-border);box-shadow:none}" +
  "[hidden]{display:none!important}";

// A field's own error, under it, in the alert's colour (kept at 4.5:1 by the palette).
const FIELD_ERROR_CSS =
  ".field-error{margin:6px 0 0;color:var(--danger);font-size:13px}.input[aria-invalid=true]{border-color:var(--danger)}";
const BACK_CSS = ".back{margin:20px 0 0;text-align:center;font-size:14px}.alert.notice{background:var(--input-bg);border-color:var(--input-border);color:var(--text)}";

// Field types that make sense for a visible, labelled credential; anything else becomes text.
const INPUT_TYPES = new Set([
  "text",
  "password",
  "email",
  "tel",
  "number",
  "url",
  "search",
  "date",
  "time",
  "datetime-local",
  "month",
  "week",
]);

/** Hands out element ids that are valid and unique within the page. */
function idAllocator(): (...parts: string[]) => string {
  const used = new Set<string>();
  return (...parts) => {
    const base = parts.map((part) => part.replace(/[^A-Za-z0-9_-]+/g, "-")).join("-") || "field";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}

interface Context {
  csrfToken: string;
  callbackUrl: string;
  email: string | undefined;
  nextId: (...parts: string[]) => string;
  /** CSS class of the provider's button when it has a valid brand colour. */
  buttonClass: Map<PageProvider, string>;
  kept: KeptValue | undefined;
  /** An error that belongs to one provider's email field (a malformed address), shown beside it. */
  fieldError: { provider: PageProvider; message: string } | undefined;
}

function hiddenFields(ctx: Context): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${ctx.csrfToken}"><input type="hidden" name="callbackUrl" value="${ctx.callbackUrl}">`;
}

function submitButton(provider: PageProvider, ctx: Context, content: SafeHtml | string): SafeHtml {
  const extra = ctx.buttonClass.get(provider);
  return html`<button class="${extra ? `btn ${extra}` : "btn"}" type="submit">${content}</button>`;
}

function keptIn(ctx: Context, provider: PageProvider, field: string): string | undefined {
  return ctx.kept?.provider === provider.id && ctx.kept.field === field ? ctx.kept.value : undefined;
}

function credentialField(provider: PageProvider, key: string, input: CredentialInput, ctx: Context): SafeHtml {
  const id = ctx.nextId(provider.id, key);
  const type = typeof input.type === "string" && INPUT_TYPES.has(input.type) ? input.type : "text";
  const autocomplete = input.autocomplete ?? (type === "password" ? "current-password" : undefined);
  // A refused sign-in shows the account field again; a password field never (the server sends none).
  const kept = type === "password" ? undefined : keptIn(ctx, provider, key);
  return html`<div class="field"><label for="${id}">${input.label ?? key}</label><input class="input" id="${id}" name="${key}" type="${type}"${
    input.placeholder ? html` placeholder="${input.placeholder}"` : ""
  }${autocomplete ? html` autocomplete="${autocomplete}"` : ""}${input.required ? html` required` : ""}${
    kept !== undefined ? html` value="${kept}"` : ""
  }></div>`;
}

function credentialsSection(provider: PageProvider, ctx: Context): SafeHtml {
  const fields = Object.entries(provider.credentials ?? {}).map(([key, input]) =>
    credentialField(provider, key, input ?? {}, ctx),
  );
  return html`<form method="post" action="${safeLinkUrl(provider.callbackUrl)}">${hiddenFields(ctx)}${fields}${submitButton(
    provider,
    ctx,
    `Sign in with ${provider.name}`,
  )}</form>`;
}

function emailSection(provider: PageProvider, ctx: Context): SafeHtml {
  const id = ctx.nextId(provider.id, "email");
  const error = ctx.fieldError?.provider === provider ? ctx.fieldError.message : undefined;
  const errorId = ctx.nextId(provider.id, "email", "error");
  const value = (error !== undefined ? keptIn(ctx, provider, "email") : undefined) ?? ctx.email;
  // The refused address stays in the field, marked invalid and described by the reason, and the
  // field takes the focus so a keyboard or screen-reader user lands on what to fix.
  return html`<form method="post" action="${safeLinkUrl(provider.signinUrl)}">${hiddenFields(ctx)}<div class="field"><label for="${id}">Email for a sign-in link</label><input class="input" id="${id}" name="email" type="email" autocomplete="email" placeholder="email@example.com" required${
    value ? html` value="${value}"` : ""
  }${error !== undefined ? html` aria-invalid="true" aria-describedby="${errorId}" autofocus` : ""}>${
    error !== undefined ? html`<p class="field-error" id="${errorId}">${error}</p>` : ""
  }</div>${submitButton(provider, ctx, `Sign in with ${provider.name}`)}</form>`;
}

function buttonSection(provider: PageProvider, ctx: Context): SafeHtml {
  const logo = safeImageUrl(provider.style?.logo);
  if (provider.unavailable) {
    // A button that could only end on an error page is shown disabled, with what to configure.
    const note = ctx.nextId(provider.id, "unavailable");
    return html`<button class="btn" type="button" disabled aria-describedby="${note}">${
      logo ? html`<img class="btn-logo" src="${logo}" alt="" width="20" height="20">` : ""
    }<span>Sign in with ${provider.name}</span></button><p class="hint" id="${note}">${provider.unavailable}</p>`;
  }
  const content = html`${logo ? html`<img class="btn-logo" src="${logo}" alt="" width="20" height="20">` : ""}<span>Sign in with ${provider.name}</span>`;
  return html`<form method="post" action="${safeLinkUrl(provider.signinUrl)}">${hiddenFields(ctx)}${submitButton(
    provider,
    ctx,
    content,
  )}</form>`;
}

/** `/webauthn-options/:id` beside the provider's `/signin/:id`, when the provider does not name it. */
function optionsUrlOf(provider: PageProvider): string {
  return provider.optionsUrl ?? provider.signinUrl.replace(/\/signin\/([^/?#]*)$/, "/webauthn-options/$1");
}

/**
 * A passkey provider: an email field (optional to sign in, needed to create a passkey) and two
 * buttons, driven by the inline script; the form posts to `/callback/:id` only through the script,
 * with the ceremony's answer. Without scripts a submit is refused by the server, and a note says why.
 */
function webauthnSection(provider: PageProvider, ctx: Context): SafeHtml {
  const id = ctx.nextId(provider.id, "email");
  const hint = ctx.nextId(provider.id, "email", "hint");
  const autofill = provider.enableConditionalUI === true;
  const extra = ctx.buttonClass.get(provider);
  return html`<form method="post" action="${safeLinkUrl(provider.callbackUrl)}" data-webauthn-options="${safeLinkUrl(
    optionsUrlOf(provider),
  )}"${autofill ? html` data-webauthn-autofill` : ""}>${hiddenFields(ctx)}<div class="field"><label for="${id}">Email for your passkey</label><input class="input" id="${id}" name="email" type="email" autocomplete="${
    autofill ? "username webauthn" : "username"
  }" placeholder="email@example.com" aria-describedby="${hint}"${ctx.email ? html` value="${ctx.email}"` : ""}><p class="hint" id="${hint}">Optional to sign in with a passkey; needed to create one.</p></div><button class="${
    extra ? `btn ${extra}` : "btn"
  }" type="submit" name="action" value="authenticate"><span class="btn-logo">${keyIcon}</span><span>Sign in with passkey</span></button><button class="btn btn-secondary" type="submit" name="action" value="register">Create a passkey</button><noscript><p class="hint">Passkeys need JavaScript, which is turned off in this browser.</p></noscript></form><script>${trustedHtml(
    webauthnScript,
  )}</script>`;
}

function providerSection(provider: PageProvider, ctx: Context): SafeHtml | null {
  const body =
    provider.type === "credentials"
      ? credentialsSection(provider, ctx)
      : provider.type === "email"
        ? emailSection(provider, ctx)
        : provider.type === "webauthn"
          ? webauthnSection(provider, ctx)
          : provider.type === "oauth" || provider.type === "oidc"
            ? buttonSection(provider, ctx)
            : null;
  return body && html`<section class="provider" data-provider="${provider.id}" data-provider-type="${provider.type}">${body}</section>`;
}

/** Whether the provider is one button (oauth, oidc), as opposed to a form with fields. */
function isSingleButton(provider: PageProvider): boolean {
  return provider.type !== "credentials" && provider.type !== "email" && provider.type !== "webauthn";
}

/** Providers in order, consecutive single-button providers grouped. */
function groups(providers: PageProvider[]): PageProvider[][] {
  const out: PageProvider[][] = [];
  for (const provider of providers) {
    const single = isSingleButton(provider);
    const last = out[out.length - 1];
    const lastSingle = last?.[0] !== undefined && isSingleButton(last[0]);
    if (single && last && lastSingle) last.push(provider);
    else out.push([provider]);
  }
  return out;
}

/** The sign-in page (status 200, also when it reports an error). */
export function renderSignInPage(params: SignInPageParams): PageResult {
  const { theme, providers } = params;
  const buttonClass = new Map<PageProvider, string>();
  let css = "";
  providers.forEach((provider, i) => {
    const rule = buttonRule(provider.style?.brandColor ?? provider.style?.bg, provider.style?.text);
    if (rule) {
      buttonClass.set(provider, `btn-p${i}`);
      css += `.btn-p${i}{${rule}}`;
    }
  });
  const ctx: Context = {
    csrfToken: params.csrfToken,
    callbackUrl: params.callbackUrl,
    email: params.email,
    nextId: idAllocator(),
    buttonClass,
    kept: params.kept,
    fieldError: undefined,
  };
  // A malformed address is the email field's error: said beside the field rather than above the form.
  if (params.error === "EmailSignInError") {
    const emailProviders = providers.filter((p) => p.type === "email");
    const owner = emailProviders.find((p) => p.id === params.provider) ?? emailProviders[0];
    if (owner) ctx.fieldError = { provider: owner, message: signInError(params.error).message };
  }

  const sections: SafeHtml[] = [];
  for (const group of groups(providers)) {
    const rendered = group.map((p) => providerSection(p, ctx)).filter((s): s is SafeHtml => s !== null);
    if (rendered.length === 0) continue;
    if (sections.length > 0) sections.push(html`<div class="divider"><span>or</span></div>`);
    sections.push(html`<div class="stack">${rendered}</div>`);
  }

  // With passkeys on the page, an empty alert waits (hidden) for what the ceremony has to report.
  // The alert names the error it shows (data-error, data-code): the passkey script reads them.
  const passkeys = providers.some((p) => p.type === "webauthn");
  const shown = params.error && !ctx.fieldError ? signInError(params.error, params.code) : undefined;
  const cancel = params.error !== undefined && isCancel(params.error, params.code);
  const alert = shown
    ? html`<div class="${cancel ? "alert notice" : "alert"}" role="${cancel ? "status" : "alert"}">${cancel ? "" : alertIcon}<div class="alert-body"${
        shown.known ? html` data-error="${params.error ?? ""}"${shown.code ? html` data-code="${shown.code}"` : ""}` : ""
      }><p>${shown.message}</p>${
        shown.showCode ? html`<p class="code">Code: ${shown.code ?? ""}</p>` : ""
      }</div></div>`
    : passkeys
      ? html`<div class="alert" role="alert" hidden>${alertIcon}<div class="alert-body"><p></p></div></div>`
      : "";
  if (passkeys) css += WEBAUTHN_CSS;
  if (ctx.fieldError) css += FIELD_ERROR_CSS;
  css += BACK_CSS;
  const brand = theme.brandName?.trim() || undefined;
  const title = brand ? `Sign in to ${brand}` : "Sign in";
  const back = params.homeUrl
    ? html`<p class="back"><a href="${safeLinkUrl(params.homeUrl)}">← Back to ${brand ?? "the site"}</a></p>`
    : "";
  const body = html`<h1 class="title">${title}</h1>${alert}${
    sections.length > 0 ? sections : html`<p class="muted">No sign-in methods are configured.</p>`
  }${back}`;
  return { status: 200, html: renderDocument({ title, theme, body, extraCss: css }) };
}
