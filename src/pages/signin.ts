/**
 * The built-in sign-in page: one section per provider, in the configured order. Providers that are
 * a single button (oauth, oidc, webauthn) stand together; an "or" divider separates them from each
 * form (credentials, email) and forms from each other. Works without JavaScript.
 */
import type { CredentialInput } from "../types.js";
import { html, safeImageUrl, safeLinkUrl, type SafeHtml } from "./html.js";
import { alertIcon, keyIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import { signInErrorMessage } from "./messages.js";
import { buttonRule } from "./theme.js";
import type { PageProvider, PageResult, PageTheme } from "./types.js";

export interface SignInPageParams {
  theme: PageTheme;
  providers: PageProvider[];
  csrfToken: string;
  callbackUrl: string;
  /** The `error` query parameter: selects a message, never shown itself. */
  error?: string;
  /** The `code` query parameter (with `CredentialsSignin`): shown escaped, as is. */
  code?: string;
  /** Prefills the email field. */
  email?: string;
}

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
}

function hiddenFields(ctx: Context): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${ctx.csrfToken}"><input type="hidden" name="callbackUrl" value="${ctx.callbackUrl}">`;
}

function submitButton(provider: PageProvider, ctx: Context, content: SafeHtml | string): SafeHtml {
  const extra = ctx.buttonClass.get(provider);
  return html`<button class="${extra ? `btn ${extra}` : "btn"}" type="submit">${content}</button>`;
}

function credentialField(provider: PageProvider, key: string, input: CredentialInput, ctx: Context): SafeHtml {
  const id = ctx.nextId(provider.id, key);
  const type = typeof input.type === "string" && INPUT_TYPES.has(input.type) ? input.type : "text";
  const autocomplete = input.autocomplete ?? (type === "password" ? "current-password" : undefined);
  return html`<div class="field"><label for="${id}">${input.label ?? key}</label><input class="input" id="${id}" name="${key}" type="${type}"${
    input.placeholder ? html` placeholder="${input.placeholder}"` : ""
  }${autocomplete ? html` autocomplete="${autocomplete}"` : ""}${input.required ? html` required` : ""}></div>`;
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
  return html`<form method="post" action="${safeLinkUrl(provider.signinUrl)}">${hiddenFields(ctx)}<div class="field"><label for="${id}">Email</label><input class="input" id="${id}" name="email" type="email" autocomplete="email" placeholder="email@example.com" required${
    ctx.email ? html` value="${ctx.email}"` : ""
  }></div>${submitButton(provider, ctx, `Sign in with ${provider.name}`)}</form>`;
}

function buttonSection(provider: PageProvider, ctx: Context): SafeHtml {
  let content: SafeHtml;
  if (provider.type === "webauthn") {
    content = html`<span class="btn-logo">${keyIcon}</span><span>Sign in with passkey</span>`;
  } else {
    const logo = safeImageUrl(provider.style?.logo);
    content = html`${logo ? html`<img class="btn-logo" src="${logo}" alt="" width="20" height="20">` : ""}<span>Sign in with ${provider.name}</span>`;
  }
  return html`<form method="post" action="${safeLinkUrl(provider.signinUrl)}">${hiddenFields(ctx)}${submitButton(
    provider,
    ctx,
    content,
  )}</form>`;
}

function providerSection(provider: PageProvider, ctx: Context): SafeHtml | null {
  const body =
    provider.type === "credentials"
      ? credentialsSection(provider, ctx)
      : provider.type === "email"
        ? emailSection(provider, ctx)
        : provider.type === "oauth" || provider.type === "oidc" || provider.type === "webauthn"
          ? buttonSection(provider, ctx)
          : null;
  return body && html`<section class="provider" data-provider="${provider.id}" data-provider-type="${provider.type}">${body}</section>`;
}

/** Providers in order, consecutive single-button providers grouped. */
function groups(providers: PageProvider[]): PageProvider[][] {
  const out: PageProvider[][] = [];
  for (const provider of providers) {
    const single = provider.type !== "credentials" && provider.type !== "email";
    const last = out[out.length - 1];
    const lastSingle = last?.[0] !== undefined && last[0].type !== "credentials" && last[0].type !== "email";
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
  };

  const sections: SafeHtml[] = [];
  for (const group of groups(providers)) {
    const rendered = group.map((p) => providerSection(p, ctx)).filter((s): s is SafeHtml => s !== null);
    if (rendered.length === 0) continue;
    if (sections.length > 0) sections.push(html`<div class="divider"><span>or</span></div>`);
    sections.push(html`<div class="stack">${rendered}</div>`);
  }

  const alert = params.error
    ? html`<div class="alert" role="alert">${alertIcon}<div class="alert-body"><p>${signInErrorMessage(params.error)}</p>${
        params.code ? html`<p class="code">Code: ${params.code}</p>` : ""
      }</div></div>`
    : "";
  const body = html`<h1 class="title">Sign in</h1>${alert}${
    sections.length > 0 ? sections : html`<p class="muted">No sign-in methods are configured.</p>`
  }`;
  return { status: 200, html: renderDocument({ title: "Sign in", theme, body, extraCss: css }) };
}
