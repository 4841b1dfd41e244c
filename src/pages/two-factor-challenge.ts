/**
 * The built-in second-factor challenge page (`/two-factor-challenge`): a code from an authenticator
 * app, a recovery code, and — when the waiting user has a passkey — a "Use a passkey" button. Every
 * form posts to the same route with the CSRF token; nothing typed goes into a URL.
 *
 * The passkey button is driven by a small inline script (static text, like the sign-in page's): it
 * asks the route for the ceremony's options (`op=passkey-options`), runs `navigator.credentials.get()`
 * and posts the answer as the form's `passkey` field. Without scripts the button does nothing and a
 * note says why; the code forms work either way.
 */
import { html, safeLinkUrl, trustedHtml, type SafeHtml } from "./html.js";
import { alertIcon, keyIcon } from "./icons.js";
import { renderDocument } from "./layout.js";
import type { PageResult, PageTheme } from "./types.js";
import { passkeyCodec } from "./webauthn-script.js";

export interface TwoFactorChallengePageParams {
  theme: PageTheme;
  csrfToken: string;
  /** Absolute URL of the route: every form posts here. */
  actionUrl: string;
  /** What went wrong with the last answer (an alert). */
  error?: string;
  /** Whether the waiting user has a passkey that can answer. */
  passkey?: boolean;
  /** With `twoFactor.rememberBrowser`: every form offers to remember this browser for this many days. */
  rememberDays?: number;
}

const TITLE = "Two-step verification";

const CSS = "[hidden]{display:none!important}[data-passkey-error]{margin-top:16px}details{margin:16px 0 0}summary{cursor:pointer;color:var(--link);font-weight:500}details form{margin-top:12px}";

/**
 * The passkey button's script. It sits in its <section>, after the form, and reads everything from
 * the markup around it (the form's action, its CSRF field). Plain ES2020; no closing script tag.
 */
export const challengePasskeyScript = String.raw`(() => {
  "use strict";
  const section = document.currentScript && document.currentScript.closest("section");
  const form = section && section.querySelector("form[data-two-factor-passkey]");
  if (!form) return;
  const PKC = window.PublicKeyCredential;
  const button = form.querySelector("button");
  const status = section.querySelector("[data-passkey-error]");
${passkeyCodec}
  const say = (message) => {
    status.querySelector("p").textContent = message;
    status.hidden = false;
  };
  const explain = (error) => {
    if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out. Try again, or use a code.";
    if (error && error.name === "NotSupportedError") return "This browser does not support passkeys. Use a code instead.";
    return "The passkey could not be used. Try again, or use a code.";
  };
  let busy = false;
  button.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    try {
      if (!PKC || !navigator.credentials) throw Object.assign(new Error(), { name: "NotSupportedError" });
      const body = new URLSearchParams({ csrfToken: form.elements.csrfToken.value, op: "passkey-options" });
      const response = await fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin", headers: { accept: "application/json" } });
      const answer = await response.json().catch(() => null);
      if (!response.ok || !answer || !answer.options) throw new Error("no options");
      const credential = await navigator.credentials.get({ publicKey: requestOptions(answer.options) });
      if (!credential) throw new Error("no credential");
      form.elements.passkey.value = JSON.stringify(credentialJSON(credential));
      form.submit();
    } catch (error) {
      say(explain(error));
      busy = false;
      button.disabled = false;
      form.removeAttribute("aria-busy");
    }
  });
})();`;

function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${token}">`;
}

/** The "Remember this browser" box of one form (`id` keeps each form's label to its own box). */
function rememberField(params: TwoFactorChallengePageParams, id: string): SafeHtml | string {
  if (!params.rememberDays) return "";
  const days = params.rememberDays === 1 ? "1 day" : `${params.rememberDays} days`;
  return html`<div class="field"><label><input type="checkbox" id="${id}" name="remember" value="1"> Remember this browser for ${days}</label></div>`;
}

function passkeySection(params: TwoFactorChallengePageParams, action: string): SafeHtml {
  return html`<div class="divider">or</div><section aria-label="Passkey"><form method="post" action="${action}" data-two-factor-passkey>${csrfField(
    params.csrfToken,
  )}${rememberField(params, "remember-passkey")}<input type="hidden" name="passkey" value=""><button class="btn" type="button"><span class="btn-logo">${keyIcon}</span><span>Use a passkey</span></button><noscript><p class="muted small">Passkeys need JavaScript, which is turned off in this browser.</p></noscript></form><div class="alert" role="alert" data-passkey-error hidden>${alertIcon}<div class="alert-body"><p></p></div></div><script>${trustedHtml(
    challengePasskeyScript,
  )}</script></section>`;
}

/** The page (status 200). */
export function renderTwoFactorChallengePage(params: TwoFactorChallengePageParams): PageResult {
  const action = safeLinkUrl(params.actionUrl);
  const alert = params.error ? html`<div class="alert" role="alert">${alertIcon}<div class="alert-body"><p>${params.error}</p></div></div>` : "";
  const body = html`<h1 class="title">${TITLE}</h1>${alert}
<form method="post" action="${action}">${csrfField(params.csrfToken)}
<div class="field"><label for="code">Code from your authenticator app</label>
<input class="input" id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus></div>
${rememberField(params, "remember-code")}<button class="btn" type="submit">Verify</button></form>
${params.passkey ? passkeySection(params, action) : ""}
<details><summary>Use a recovery code</summary>
<form method="post" action="${action}">${csrfField(params.csrfToken)}
<div class="field"><label for="recoveryCode">Recovery code</label>
<input class="input" id="recoveryCode" name="recoveryCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required></div>
${rememberField(params, "remember-recovery")}<button class="btn" type="submit">Verify</button></form></details>`;
  return { status: 200, html: renderDocument({ title: TITLE, theme: params.theme, body, centered: true, extraCss: CSS }) };
}
