/**
 * The built-in second-factor page (`/two-factor`): the signed-in user's factors with a remove button
 * each, the enrollment of an authenticator app (QR code, the secret to type in, the code that
 * confirms it), and recovery codes right after they are made. The secret and the codes appear in the
 * page body only, once; every form posts them (and nothing typed) to the same route, never in a URL.
 */
import { html, safeLinkUrl, trustedHtml, type SafeHtml } from "./html.js";
import { alertIcon, keyIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import type { PageResult, PageTheme } from "./types.js";

/** A factor as the page lists it. */
export interface ListedFactor {
  id: string;
  type: "totp" | "recovery" | "webauthn";
  label?: string | null;
  createdAt: Date;
  /** Recovery codes: how many are left. */
  remaining?: number;
}

export interface TwoFactorPageParams {
  theme: PageTheme;
  csrfToken: string;
  /** Absolute URL of the route (`/two-factor`): every form posts here. */
  actionUrl: string;
  factors: ListedFactor[];
  /** Right after `start-totp`: what the person scans or types into their app, shown this once. */
  enrollment?: { factorId: string; secret: string; uri: string; qrSvg: string };
  /** A pending factor whose code was wrong: the code form again (the secret is not shown again). */
  confirming?: { factorId: string };
  /** Right after they were made: the recovery codes, shown this once. */
  recoveryCodes?: string[];
  /** A line saying what just happened. */
  notice?: string;
  /** What went wrong (an alert). */
  error?: string;
  /** Set when changes need a second factor proved recently: where signing in again starts. */
  signInAgainUrl?: string;
  status?: number;
}

// Only the shared palette's variables: every pair is held to WCAG AA in both schemes by theme.ts.
const CSS =
  ".stack-lg>*+*{margin-top:24px}" +
  "h2{margin:0 0 12px;font-size:17px;font-weight:650}" +
  ".factors{list-style:none;margin:0 0 8px;padding:0}" +
  ".factors li{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:12px 0;border-top:1px solid var(--divider)}" +
  ".factors li:last-child{border-bottom:1px solid var(--divider)}" +
  ".factors .name{font-weight:600}" +
  ".factors form{display:flex;gap:8px}" +
  ".btn-small{width:auto;min-height:36px;padding:6px 12px;font-size:14px}" +
  ".btn-secondary{--btn-bg:transparent;--btn-text:var(--link);--btn-hover:color-mix(in srgb,var(--link) 10%,transparent);border-color:var(--input-border);box-shadow:none}" +
  ".btn-danger{--btn-bg:transparent;--btn-text:var(--danger);--btn-hover:color-mix(in srgb,var(--danger) 10%,transparent);border-color:var(--input-border);box-shadow:none}" +
  ".qr{display:block;width:200px;height:200px;margin:0 auto 16px;border-radius:8px}" +
  ".secret,.codes{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"Liberation Mono\",monospace}" +
  ".secret{display:block;padding:10px 12px;border:1px solid var(--card-border);border-radius:10px;background:var(--page);font-size:15px;letter-spacing:.06em;word-break:break-all;text-align:center}" +
  ".codes{display:grid;grid-template-columns:1fr 1fr;gap:6px 16px;margin:0 0 16px;padding:12px 16px 12px 36px;border:1px solid var(--card-border);border-radius:10px;background:var(--page);font-size:15px}" +
  "details{margin:12px 0 0}summary{cursor:pointer;color:var(--link);font-weight:500}" +
  ".uri{margin:8px 0 0;font-size:13px;word-break:break-all}" +
  ".alert.notice{background:var(--input-bg);border-color:var(--input-border);color:var(--text)}";

const TITLE = "Two-step verification";

function hidden(params: TwoFactorPageParams, op: string, extra?: SafeHtml): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="op" value="${op}">${extra ?? ""}`;
}

/** The one-time code field: numeric keypad, the platform's code autofill, digits only. */
function codeField(id: string): SafeHtml {
  return html`<div class="field"><label for="${id}">Code from your authenticator app</label><input class="input" id="${id}" name="code" type="text" inputmode="numeric" pattern="[0-9]*" autocomplete="one-time-code" minlength="6" maxlength="6" required aria-describedby="${id}-hint"><p class="muted small" id="${id}-hint">The 6 digits your app shows now.</p></div>`;
}

function factorName(factor: ListedFactor): string {
  if (factor.type === "recovery") return "Recovery codes";
  if (factor.type === "webauthn") return factor.label || "Passkey";
  return factor.label || "Authenticator app";
}

function factorDetail(factor: ListedFactor): string {
  if (factor.type === "recovery") return `${factor.remaining ?? 0} left`;
  return `Added ${factor.createdAt.toISOString().slice(0, 10)}`;
}

function factorList(params: TwoFactorPageParams): SafeHtml {
  if (!params.factors.length) return html`<p class="muted">No second factor yet: signing in needs only your first factor.</p>`;
  const action = safeLinkUrl(params.actionUrl);
  const items = params.factors.map((factor) => {
    const name = factorName(factor);
    const regenerate =
      factor.type === "recovery"
        ? html`<form method="post" action="${action}">${hidden(params, "recovery-codes")}<button class="btn btn-small btn-secondary" type="submit" aria-label="Make new recovery codes">New codes</button></form>`
        : "";
    return html`<li><div><div class="name">${name}</div><div class="muted small">${factorDetail(factor)}</div></div><div class="factors-actions">${regenerate}<form method="post" action="${action}">${hidden(
      params,
      "remove",
      html`<input type="hidden" name="factorId" value="${factor.id}">`,
    )}<button class="btn btn-small btn-danger" type="submit" aria-label="${`Remove ${name}`}">Remove</button></form></div></li>`;
  });
  return html`<ul class="factors">${items}</ul>`;
}

function enrollmentSection(params: TwoFactorPageParams): SafeHtml {
  const action = safeLinkUrl(params.actionUrl);
  const { enrollment, confirming } = params;
  if (enrollment) {
    return html`<section aria-labelledby="enroll-title"><h2 id="enroll-title">Add an authenticator app</h2><p>Scan this code with your authenticator app, or type the key below into it. The key is shown only now.</p>${trustedHtml(
      enrollment.qrSvg,
    )}<p class="small muted" id="secret-label">Key</p><code class="secret" aria-labelledby="secret-label">${enrollment.secret}</code><details><summary>Show the setup link</summary><p class="uri"><code>${enrollment.uri}</code></p></details><form method="post" action="${action}" class="stack-lg">${hidden(
      params,
      "confirm-totp",
      html`<input type="hidden" name="factorId" value="${enrollment.factorId}">`,
    )}${codeField("code")}<button class="btn" type="submit">Turn on</button></form></section>`;
  }
  if (confirming) {
    return html`<section aria-labelledby="enroll-title"><h2 id="enroll-title">Add an authenticator app</h2><form method="post" action="${action}">${hidden(
      params,
      "confirm-totp",
      html`<input type="hidden" name="factorId" value="${confirming.factorId}">`,
    )}${codeField("code")}<button class="btn" type="submit">Turn on</button></form><form method="post" action="${action}">${hidden(
      params,
      "start-totp",
    )}<p class="small muted">Lost the key? <button class="btn btn-small btn-secondary" type="submit">Start again</button></p></form></section>`;
  }
  if (params.factors.some((f) => f.type === "totp")) return html``;
  return html`<section aria-labelledby="enroll-title"><h2 id="enroll-title">Add an authenticator app</h2><form method="post" action="${action}">${hidden(
    params,
    "start-totp",
  )}<div class="field"><label for="label">Name (optional)</label><input class="input" id="label" name="label" type="text" maxlength="64" autocomplete="off" placeholder="Phone"></div><button class="btn" type="submit">Set up</button></form></section>`;
}

function recoverySection(codes: string[]): SafeHtml {
  return html`<section aria-labelledby="codes-title"><h2 id="codes-title">Your recovery codes</h2><p>Each code signs you in once if you lose your app. Save them somewhere safe now: they will not be shown again.</p><ol class="codes">${codes.map(
    (code) => html`<li>${code}</li>`,
  )}</ol></section>`;
}

/** The page (status 200 unless `status` says otherwise). */
export function renderTwoFactorPage(params: TwoFactorPageParams): PageResult {
  const alert = params.error
    ? html`<div class="alert" role="alert">${alertIcon}<div class="alert-body"><p>${params.error}</p>${
        params.signInAgainUrl ? html`<p><a href="${safeLinkUrl(params.signInAgainUrl)}">Sign in again</a> with your second factor, then come back here.</p>` : ""
      }</div></div>`
    : params.notice
      ? html`<div class="alert notice" role="status"><div class="alert-body"><p>${params.notice}</p></div></div>`
      : "";
  const stepUp =
    !params.error && params.signInAgainUrl
      ? html`<p class="small muted">To change these, <a href="${safeLinkUrl(params.signInAgainUrl)}">sign in again</a> with your second factor first (it counts for five minutes).</p>`
      : "";
  const body = html`<div class="badge">${keyIcon}</div><h1 class="title">${TITLE}</h1>${alert}<div class="stack-lg">${
    params.recoveryCodes ? recoverySection(params.recoveryCodes) : ""
  }<section aria-labelledby="factors-title"><h2 id="factors-title">Your second factors</h2>${factorList(params)}${stepUp}</section>${enrollmentSection(params)}</div>`;
  return { status: params.status ?? 200, html: renderDocument({ title: TITLE, theme: params.theme, body, extraCss: CSS }) };
}
