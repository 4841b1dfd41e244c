/**
 * The demo's own pages, rendered on the server: home, protected and not-found; the dev mailbox page
 * (mailbox/page.ts) uses the same layout. Every value that reaches the markup is escaped; the one
 * stylesheet is inline and allowed by its hash in the CSP, so the pages load nothing from anywhere else.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Session } from "../src/index.js";
import { readableTime } from "../examples/shared/time.js";

/** Where the app's links point. */
export interface DemoLinks {
  signIn: (callbackUrl: string) => string;
  signOut: (callbackUrl: string) => string;
  sessionJson: string;
}

/** The demo account, shown as a hint. */
export interface DemoHint {
  username: string;
  password: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLESHEET = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#1b1f24;--muted:#57606a;--line:#d8dee4;--accent:#3b5bdb;--accent-text:#fff;--ok:#1a7f37;--ok-bg:#dafbe1;--off:#57606a;--off-bg:#eaeef2;--code:#f3f4f6;--hint:#fff8c5;--hint-line:#e6d56a}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--text:#e6edf3;--muted:#9da7b3;--line:#30363d;--accent:#6d8cff;--accent-text:#0d1117;--ok:#56d364;--ok-bg:#12361f;--off:#9da7b3;--off-bg:#21262d;--code:#0d1117;--hint:#2f2a12;--hint-line:#6b5d1b}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{border-bottom:1px solid var(--line);background:var(--card)}
.bar{max-width:760px;margin:0 auto;padding:12px 20px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 24px}
.brand{font-weight:700;color:var(--text);text-decoration:none;letter-spacing:-.01em;white-space:nowrap}
nav{display:flex;flex-wrap:wrap;gap:4px 16px;flex:1}
nav a{white-space:nowrap}
nav a{color:var(--muted);text-decoration:none}
nav a:hover,nav a[aria-current=page]{color:var(--text)}
main{max-width:760px;margin:32px auto;padding:0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:24px;margin-bottom:20px}
h1{font-size:1.6rem;margin:0 0 8px;letter-spacing:-.02em}
h2{font-size:1rem;margin:0 0 12px}
p{margin:0 0 12px}
.muted{color:var(--muted)}
a{color:var(--accent)}
.status{display:inline-flex;align-items:center;gap:8px;font-size:.875rem;font-weight:600;padding:4px 12px;border-radius:999px;margin-bottom:16px}
.status::before{content:"";width:8px;height:8px;border-radius:50%;background:currentColor}
.status.on{color:var(--ok);background:var(--ok-bg)}
.status.off{color:var(--off);background:var(--off-bg)}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}
.btn{display:inline-block;padding:8px 16px;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);font-weight:600;text-decoration:none}
.btn.secondary{background:transparent;color:var(--accent)}
.btn:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.hint{background:var(--hint);border:1px solid var(--hint-line);border-radius:8px;padding:10px 14px;font-size:.9rem}
code,pre{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--code);border:1px solid var(--line);border-radius:8px;padding:14px;margin:0;overflow:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0}
dt{color:var(--muted)}
dd{margin:0}
.url{overflow-wrap:anywhere}
`;

/** The examples' shared icon, inline (the CSP allows images from data: URLs), so no page asks for /favicon.ico. */
const ICON = `data:image/svg+xml,${encodeURIComponent(readFileSync(new URL("../examples/shared/favicon.svg", import.meta.url), "utf8").trim())}`;

const STYLE_HASH = createHash("sha256").update(STYLESHEET).digest("base64");

/** Headers every page of the demo carries: nothing cached, nothing loaded from elsewhere. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "private, no-cache, no-store",
  "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

export type Section = "home" | "protected" | "mailbox" | "none";

export function layout(title: string, current: Section, body: string): string {
  const link = (href: string, label: string, section: Section) =>
    `<a href="${href}"${current === section ? ' aria-current="page"' : ""}>${label}</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · appauth demo</title>
<link rel="icon" type="image/svg+xml" href="${ICON}">
<style>${STYLESHEET}</style>
</head>
<body>
<header><div class="bar"><a class="brand" href="/">appauth demo</a><nav>${link("/", "Home", "home")}${link(
    "/protected",
    "Protected",
    "protected",
  )}${link("/dev/mailbox", "Mailbox", "mailbox")}</nav></div></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function displayName(session: Session): string {
  const user = session.user;
  return user?.name || user?.email || "a user without a name";
}

function statusBadge(session: Session | null): string {
  return session
    ? `<p class="status on" role="status">Signed in</p>`
    : `<p class="status off" role="status">Signed out</p>`;
}

/** The home page: whether you are signed in, the session JSON, and the way in or out. */
export function homePage(params: { session: Session | null; links: DemoLinks; hint: DemoHint; mailbox?: string }): string {
  const { session, links, hint, mailbox } = params;
  const byEmail = mailbox
    ? `<p class="muted">Or sign in by email with any address: no mail leaves this machine, sent mails appear in the <a href="${escape(mailbox)}">dev mailbox</a>.</p>`
    : "";
  const intro = session
    ? `<h1>Signed in as ${escape(displayName(session))}</h1>
<p class="muted">Your session is a JWT in an encrypted, httpOnly cookie. The app reads it on every request through <code>GET ${escape(links.sessionJson)}</code>.</p>
<div class="actions"><a class="btn" href="/protected">Open the protected page</a><a class="btn secondary" href="${escape(
        links.signOut("/"),
      )}">Sign out</a></div>`
    : `<h1>You are not signed in</h1>
<p class="muted">Sign in with the built-in sign-in page, then come back here to see your session.</p>
<p class="hint">Demo account: username <code>${escape(hint.username)}</code>, password <code>${escape(hint.password)}</code></p>
${byEmail}
<div class="actions"><a class="btn" href="${escape(links.signIn("/"))}">Sign in</a><a class="btn secondary" href="/protected">Try the protected page</a></div>`;
  const json = JSON.stringify(session, null, 2);
  return layout(
    "Home",
    "home",
    `<section class="card">${statusBadge(session)}${intro}</section>
<section class="card" aria-labelledby="session-heading">
<h2 id="session-heading">Session</h2>
<p class="muted">What <a href="${escape(links.sessionJson)}"><code>${escape(links.sessionJson)}</code></a> returns for this browser:</p>
<pre id="session-json" aria-labelledby="session-heading">${escape(json)}</pre>
</section>`,
  );
}

/** The protected page; only rendered for someone signed in. */
export function protectedPage(params: { session: Session; links: DemoLinks }): string {
  const { session, links } = params;
  const user = session.user ?? {};
  const row = (label: string, value: string | null | undefined) =>
    value ? `<dt>${escape(label)}</dt><dd>${escape(value)}</dd>` : "";
  const expires = session.expires
    ? `<dt>Session expires</dt><dd><time datetime="${escape(session.expires)}">${escape(readableTime(session.expires))}</time></dd>`
    : "";
  return layout(
    "Protected",
    "protected",
    `<section class="card">${statusBadge(session)}
<h1>Protected page</h1>
<p class="muted">Only signed-in people see this page; everyone else is sent to sign in first.</p>
<h2>You are</h2>
<dl aria-label="Signed-in user">${row("Name", user.name)}${row("Email", user.email)}${expires}</dl>
<div class="actions"><a class="btn secondary" href="/">Home</a><a class="btn secondary" href="${escape(
      links.signOut("/"),
    )}">Sign out</a></div>
</section>`,
  );
}

/** The page for any path the demo does not serve. */
export function notFoundPage(path: string): string {
  return layout(
    "Not found",
    "none",
    `<section class="card"><h1>Not found</h1><p class="muted">Nothing lives at <code>${escape(path)}</code>.</p><div class="actions"><a class="btn" href="/">Home</a></div></section>`,
  );
}
