/**
 * The demo OP's pages: sign in (pick a person or type an email), consent, sign out, errors. Server
 * rendered, every value escaped, one inline stylesheet allowed by its hash in the CSP, nothing loaded
 * from anywhere else. The look differs from the demo app's on purpose: it is another site.
 */
import { createHash } from "node:crypto";
import type { DemoAccount } from "./accounts.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLESHEET = `
:root{color-scheme:light dark;--bg:#eef5f3;--card:#fff;--text:#14201d;--muted:#4c5f5a;--line:#c9d9d4;--accent:#0b7a62;--accent-text:#fff;--soft:#e3f1ed;--danger:#b42318;--banner:#14201d;--banner-text:#f2fbf8}
@media (prefers-color-scheme:dark){:root{--bg:#0b1412;--card:#13201d;--text:#e4f2ee;--muted:#9fb7b0;--line:#2a3d38;--accent:#3fc8a4;--accent-text:#06110e;--soft:#17302a;--danger:#ff8b7e;--banner:#e4f2ee;--banner-text:#0b1412}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.banner{background:var(--banner);color:var(--banner-text);text-align:center;font-size:.875rem;padding:8px 16px;margin:0}
.banner strong{font-weight:700}
main{max-width:440px;margin:40px auto;padding:0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:16px;padding:28px}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;margin:0 0 20px;color:var(--accent)}
.brand svg{flex:none}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 6px;letter-spacing:-.01em}
p{margin:0 0 16px}
.muted{color:var(--muted)}
form{margin:0}
.accounts{list-style:none;margin:0 0 8px;padding:0;display:grid;gap:10px}
.account{width:100%;display:flex;align-items:center;gap:12px;text-align:left;padding:10px 14px;border:1px solid var(--line);border-radius:12px;background:var(--card);color:var(--text);font:inherit;cursor:pointer}
.account:hover{border-color:var(--accent);background:var(--soft)}
.avatar{flex:none;width:36px;height:36px;border-radius:50%;display:grid;place-items:center;background:var(--accent);color:var(--accent-text);font-weight:700;font-size:.9rem}
.who{display:flex;flex-direction:column;line-height:1.3}
.who small{color:var(--muted);font-size:.85rem}
.or{display:flex;align-items:center;gap:12px;color:var(--muted);font-size:.85rem;margin:20px 0}
.or::before,.or::after{content:"";flex:1;border-top:1px solid var(--line)}
label{display:block;font-weight:600;margin:0 0 6px}
input[type=email]{width:100%;font:inherit;padding:9px 12px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--text)}
input[type=email][aria-invalid=true]{border-color:var(--danger)}
.check{display:flex;gap:8px;align-items:flex-start;font-weight:400;margin:12px 0 16px;color:var(--muted);font-size:.9rem}
.check input{margin-top:4px}
.error{color:var(--danger);font-size:.9rem;margin:6px 0 0}
.btn{display:inline-flex;justify-content:center;align-items:center;padding:9px 18px;border-radius:10px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;cursor:pointer}
.btn.wide{width:100%}
.btn.secondary{background:transparent;color:var(--accent)}
.link{background:none;border:0;padding:0;font:inherit;color:var(--muted);text-decoration:underline;cursor:pointer}
.row{display:flex;gap:12px;flex-wrap:wrap;margin-top:20px}
.footer{margin-top:20px;text-align:center;font-size:.9rem}
ul.scopes{margin:0 0 8px;padding:0;list-style:none;display:grid;gap:8px}
ul.scopes li{padding:10px 14px;background:var(--soft);border-radius:10px}
ul.scopes code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted)}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
`;

const STYLE_HASH = createHash("sha256").update(STYLESHEET).digest("base64");

/**
 * Headers for every page: no caching, nothing loaded from elsewhere. Forms may post only here, and
 * the redirects that follow a post (back to the app) may go only to `appOrigins` — Chromium applies
 * `form-action` to the whole redirect chain.
 */
export function pageHeaders(appOrigins: readonly string[]): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self' ${appOrigins.join(" ")}; base-uri 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}

const LOGO = `<svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true"><circle cx="14" cy="14" r="13" fill="currentColor"/><path d="M9 14.5l3.2 3.2L19.5 10" stroke="#fff" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} · appauth demo identity provider</title>
<style>${STYLESHEET}</style>
</head>
<body>
<p class="banner"><strong>appauth demo identity provider</strong> — no real account needed. Nothing you enter here leaves your machine.</p>
<main>
<div class="card">
<p class="brand">${LOGO}<span>Demo ID</span></p>
${body}
</div>
</main>
</body>
</html>`;
}

function initials(name: string): string {
  const letters = name
    .split(/[\s.@_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? "");
  return letters.join("") || "?";
}

export interface LoginPageInput {
  uid: string;
  clientName: string;
  accounts: readonly DemoAccount[];
  /** What the email field holds (the `login_hint`, or what was typed before an error). */
  email?: string;
  emailError?: string;
}

export function loginPage(input: LoginPageInput): string {
  const action = (path: string) => `/interaction/${encodeURIComponent(input.uid)}/${path}`;
  const people = input.accounts
    .map(
      (account) => `<li><button class="account" type="submit" name="account" value="${escape(account.sub)}">
<span class="avatar" aria-hidden="true">${escape(initials(account.name))}</span>
<span class="who"><span>${escape(account.name)}</span><small>${escape(account.email)}</small></span>
</button></li>`,
    )
    .join("\n");
  const invalid = input.emailError !== undefined;
  return layout(
    "Sign in",
    `<h1>Sign in to continue to ${escape(input.clientName)}</h1>
<p class="muted">Choose someone to be. There is no password: this provider only exists to show appauth's OpenID Connect sign-in.</p>
<form method="post" action="${action("login")}" aria-label="Sign in as a demo person">
<ul class="accounts">
${people}
</ul>
</form>
<p class="or">or use any email address</p>
<form method="post" action="${action("login")}" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escape(input.email ?? "")}"${
      invalid ? ' aria-invalid="true" aria-describedby="email-error"' : ""
    }>
${invalid ? `<p class="error" id="email-error" role="alert">${escape(input.emailError ?? "")}</p>` : ""}
<label class="check"><input type="checkbox" name="verified" value="yes" checked> <span>Say this address is verified (<code>email_verified: true</code>)</span></label>
<button class="btn wide" type="submit">Continue with this email</button>
</form>
<form class="footer" method="post" action="${action("abort")}">
<button class="link" type="submit">Cancel and go back to ${escape(input.clientName)}</button>
</form>`,
  );
}

const SCOPE_TEXT: Record<string, string> = {
  openid: "Know who you are (a stable identifier, your <code>sub</code>)",
  profile: "See your name",
  email: "See your email address and whether it is verified",
  offline_access: "Keep access while you are away (a refresh token)",
};

export interface ConsentPageInput {
  uid: string;
  clientName: string;
  account: DemoAccount;
  scopes: readonly string[];
  claims: readonly string[];
}

export function consentPage(input: ConsentPageInput): string {
  const action = (path: string) => `/interaction/${encodeURIComponent(input.uid)}/${path}`;
  const items = [
    ...input.scopes.map((scope) => `<li>${SCOPE_TEXT[scope] ?? `Use the <code>${escape(scope)}</code> scope`}</li>`),
    ...input.claims.map((claim) => `<li>See your <code>${escape(claim)}</code> claim</li>`),
  ];
  return layout(
    "Allow access",
    `<h1>${escape(input.clientName)} wants to</h1>
<p class="muted">You are signed in as ${escape(input.account.name)} (${escape(input.account.email)}).</p>
<ul class="scopes">
${items.join("\n") || "<li>Confirm it is you</li>"}
</ul>
<div class="row">
<form method="post" action="${action("consent")}"><button class="btn" type="submit">Allow</button></form>
<form method="post" action="${action("abort")}"><button class="btn secondary" type="submit">Deny</button></form>
</div>`,
  );
}

/** RP-initiated logout's confirmation; `form` is oidc-provider's (id `op.logoutForm`, with its xsrf token). */
export function logoutPage(form: string): string {
  return layout(
    "Sign out",
    `<h1>Sign out of Demo ID too?</h1>
<p class="muted">The app signed you out. You can also end your session here, so the next sign-in asks who you are again.</p>
${form}
<div class="row">
<button class="btn" type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign out of Demo ID</button>
<button class="btn secondary" type="submit" form="op.logoutForm">No, stay signed in</button>
</div>`,
  );
}

export function loggedOutPage(): string {
  return layout("Signed out", `<h1>You are signed out of Demo ID</h1><p class="muted">You can close this page.</p>`);
}

export function errorPage(title: string, detail: string): string {
  return layout(
    title,
    `<h1>${escape(title)}</h1>
<p class="muted">${escape(detail)}</p>
<p class="muted">Go back to the app and start signing in again.</p>`,
  );
}
