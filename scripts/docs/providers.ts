/**
 * One page per catalog provider, generated from the factory itself (called bare, as `providers: [X]`
 * does) and from the opening comment of its source file, so the page cannot drift from the code:
 * id, type, the environment variables the library reads for it, the callback URL to register, the
 * endpoints and defaults, and the provider's own documentation.
 */
import { readFile } from "node:fs/promises";
import { catalog } from "../../src/providers/catalog/index.js";
import { envProviderKey } from "../../src/config/env.js";
import { escapeHtml, leadingComment, renderInline, renderMarkdown } from "./markdown.js";
import type { Page } from "./layout.js";

/** Next.js's default basePath: the callback URLs are shown for it (other servers default to `/auth`). */
export const NEXT_BASE_PATH = "/api/auth";

interface ProviderFacts {
  id: string;
  /** The catalog key: the module (`appauth/providers/<module>`) and the page; the same as `id` but where Auth.js's id differs (ory-hydra → hydra). */
  module: string;
  name: string;
  type: string;
  /** The factory's name, the one to import it as. */
  factory: string;
  issuer?: string;
  authorization?: string;
  token?: string;
  userinfo?: string;
  scope?: string;
  checks?: string[];
  formPost: boolean;
}

function endpoint(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { url?: unknown }).url === "string") return (value as { url: string }).url;
  return undefined;
}

function facts(factory: (...args: never[]) => unknown, module: string): ProviderFacts {
  const p = (factory as () => Record<string, unknown>)();
  const authorization = p.authorization as { params?: Record<string, string> } | string | undefined;
  const params = typeof authorization === "object" ? authorization.params : undefined;
  return {
    id: String(p.id),
    module,
    name: String(p.name),
    type: String(p.type),
    factory: factory.name,
    issuer: typeof p.issuer === "string" ? p.issuer : undefined,
    authorization: endpoint(p.authorization),
    token: endpoint(p.token),
    userinfo: endpoint(p.userinfo),
    scope: params?.scope,
    checks: Array.isArray(p.checks) ? (p.checks as string[]) : undefined,
    formPost: params?.response_mode === "form_post",
  };
}

/** Auth.js ids that are not their module's name (the catalog key). */
const AUTH_JS_IDS: Partial<Record<string, string>> = { "ory-hydra": "hydra" };

/** A page path for a provider's module (its catalog key). */
export function providerPath(id: string): string {
  return `providers/${id}.html`;
}

function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}

function row(name: string, value: string): string {
  return `<tr><th scope="row">${name}</th><td>${value}</td></tr>`;
}

function providerBody(f: ProviderFacts, comment: { text: string; see: string[] }): string {
  const key = envProviderKey(f.id);
  // OIDC providers without a fixed issuer (a tenant, a realm, a domain) cannot work without one.
  const issuerNeeded = f.type === "oidc" && !f.issuer;
  const env = [
    row(code(`AUTH_${key}_ID`), "the client id (required)"),
    row(code(`AUTH_${key}_SECRET`), "the client secret"),
    row(
      code(`AUTH_${key}_ISSUER`),
      issuerNeeded ? "the issuer URL of your tenant (required: this provider has no fixed issuer)" : "overrides the default issuer",
    ),
  ];
  const defaults = [
    row("id", code(f.id)),
    row("type", f.type === "oidc" ? "OpenID Connect (<code>oidc</code>)" : "OAuth 2 (<code>oauth</code>)"),
    row("issuer", f.issuer ? code(f.issuer) : issuerNeeded ? "none: set <code>issuer</code> or the environment variable" : "none"),
    ...(f.authorization ? [row("authorization endpoint", code(f.authorization))] : []),
    ...(f.token ? [row("token endpoint", code(f.token))] : []),
    ...(f.userinfo ? [row("userinfo endpoint", code(f.userinfo))] : []),
    ...(f.type === "oidc" && !f.authorization ? [row("endpoints", "discovered from the issuer (<code>/.well-known/openid-configuration</code>)")] : []),
    ...(f.scope ? [row("scope", code(f.scope))] : []),
    row("checks", f.checks ? f.checks.map(code).join(", ") : "the defaults (PKCE, and <code>nonce</code> for OpenID Connect)"),
  ];
  const callback = `https://app.example.com${NEXT_BASE_PATH}/callback/${f.id}`;
  const see = comment.see.filter((url) => /^https:\/\//.test(url));
  return [
    `<h1>${escapeHtml(f.name)}</h1>`,
    comment.text ? renderMarkdown(comment.text).html : "",
    `<h2 id="setup">Set-up</h2>`,
    `<pre><code class="language-ts">import ${f.factory} from "appauth/providers/${f.module}";\n\nconst config = { providers: [${f.factory}] };</code></pre>`,
    `<p>Listed bare, the provider reads its credentials from the environment:</p>`,
    `<table><tbody>${env.join("")}</tbody></table>`,
    `<p>Pass options to override any default (<code>${escapeHtml(f.factory)}({ clientId, clientSecret, authorization: { params: { … } } })</code>);
      <code>authorization.params</code> merge with the defaults key by key.</p>`,
    `<h2 id="callback-url">Callback URL</h2>`,
    `<p>Register this redirect URI with ${escapeHtml(f.name)} (for the origin <code>https://app.example.com</code> and Next.js's
      default basePath <code>${NEXT_BASE_PATH}</code>; elsewhere it is <code>&lt;origin&gt;&lt;basePath&gt;/callback/${escapeHtml(f.id)}</code>,
      and the basePath defaults to <code>/auth</code>):</p>`,
    `<pre><code>${escapeHtml(callback)}</code></pre>`,
    f.formPost ? `<p>${escapeHtml(f.name)} answers with <code>response_mode=form_post</code>: the callback arrives as a POST.</p>` : "",
    `<h2 id="defaults">Defaults</h2>`,
    `<table><tbody>${defaults.join("")}</tbody></table>`,
    see.length
      ? `<h2 id="provider-documentation">${escapeHtml(f.name)}'s documentation</h2><ul>${see.map((url) => `<li><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></li>`).join("")}</ul>`
      : "",
    `<p>API: <a href="../api/providers-${escapeHtml(f.module)}.html">appauth/providers/${escapeHtml(f.module)}</a>.
      Something refused? See <a href="../troubleshooting.html#invalidendpoints">InvalidEndpoints</a>,
      <a href="../troubleshooting.html#oauthcallbackerror">OAuthCallbackError</a> and
      <a href="../troubleshooting.html#oauthaccountnotlinked">OAuthAccountNotLinked</a>.</p>`,
  ].join("\n");
}

/** The provider pages and their index, from the catalog and `src/providers/catalog/<id>.ts`. */
export async function providerPages(root: string): Promise<Page[]> {
  const all = await Promise.all(
    Object.entries(catalog).map(async ([id, factory]) => {
      const f = facts(factory as (...args: never[]) => unknown, id);
      // A key names its module; the provider's id is the key but where Auth.js's id differs.
      if (f.id !== id && AUTH_JS_IDS[id] !== f.id) throw new Error(`catalog: the key "${id}" makes a provider with the id "${f.id}"`);
      const source = await readFile(`${root}/src/providers/catalog/${id}.ts`, "utf8");
      return { f, comment: leadingComment(source) };
    }),
  );
  all.sort((a, b) => a.f.name.localeCompare(b.f.name));
  const rows = all.map(({ f, comment }) => {
    // The comment's first sentence, without its "Sign in with X:" opening.
    const paragraph = comment.text.split(/\n\s*\n/)[0]?.replace(/\s+/g, " ") ?? "";
    const firstLine = /^(.*?\.)(?:\s|$)/.exec(paragraph.replace(/^Sign in with .*?: /, ""))?.[1] ?? "";
    return `<tr><td><a href="${f.module}.html">${escapeHtml(f.name)}</a></td><td>${code(f.id)}</td><td>${f.type}</td><td>${renderInline(firstLine)}</td></tr>`;
  });
  const index: Page = {
    path: "providers/index.html",
    title: "Providers",
    section: "providers",
    inNav: true,
    body: [
      `<h1>Providers</h1>`,
      `<p>The catalog's ${all.length} OAuth 2 and OpenID Connect providers. Each page names the environment variables the
        library reads for it, the callback URL to register, and its endpoints. Any other OpenID Provider works from its issuer
        alone: <code>{ id, name, type: "oidc", issuer, clientId, clientSecret }</code>. Credentials, email and passkeys are
        described under <a href="../concepts/email.html">Email</a> and <a href="../concepts/passkeys.html">Passkeys</a>.</p>`,
      `<table><thead><tr><th>provider</th><th>id</th><th>type</th><th>notes</th></tr></thead><tbody>${rows.join("")}</tbody></table>`,
    ].join("\n"),
  };
  const pages = all.map(({ f, comment }): Page => ({
    path: providerPath(f.module),
    title: f.name,
    section: "providers",
    inNav: false,
    body: providerBody(f, comment),
  }));
  return [index, ...pages];
}
