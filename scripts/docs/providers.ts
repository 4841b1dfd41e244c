/**
 * One page per catalog provider, generated from the factory itself (called bare, as `providers: [X]`
 * does) and from the opening comment of its source file, so the page cannot drift from the code:
 * id, type, the environment variables the library reads for it, the callback URL to register, the
 * endpoints and defaults, and the provider's own documentation.
 */
import { readFile } from "node:fs/promises";
import { catalog } from "../../src/providers/catalog/index.js";
import { envProviderKey } from "../../src/config/env.js";
import { leadingComment, proseMarkdown } from "./markdown.js";
import type { Page } from "./pages.js";

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
  return `providers/${id}.md`;
}

function code(text: string): string {
  return `\`${text}\``;
}

function table(rows: [string, string][], head: [string, string] = ["", ""]): string {
  return [`| ${head[0]} | ${head[1]} |`, "| --- | --- |", ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join("\n");
}

function providerBody(f: ProviderFacts, comment: { text: string; see: string[] }): string {
  const key = envProviderKey(f.id);
  // OIDC providers without a fixed issuer (a tenant, a realm, a domain) cannot work without one.
  const issuerNeeded = f.type === "oidc" && !f.issuer;
  const env: [string, string][] = [
    [code(`AUTH_${key}_ID`), "the client id (required)"],
    [code(`AUTH_${key}_SECRET`), "the client secret"],
    [code(`AUTH_${key}_ISSUER`), issuerNeeded ? "the issuer URL of your tenant (required: this provider has no fixed issuer)" : "overrides the default issuer"],
  ];
  const defaults: [string, string][] = [
    ["id", code(f.id)],
    ["type", f.type === "oidc" ? "OpenID Connect (`oidc`)" : "OAuth 2 (`oauth`)"],
    ["issuer", f.issuer ? code(f.issuer) : issuerNeeded ? "none: set `issuer` or the environment variable" : "none"],
    ...(f.authorization ? [["authorization endpoint", code(f.authorization)] as [string, string]] : []),
    ...(f.token ? [["token endpoint", code(f.token)] as [string, string]] : []),
    ...(f.userinfo ? [["userinfo endpoint", code(f.userinfo)] as [string, string]] : []),
    ...(f.type === "oidc" && !f.authorization ? [["endpoints", "discovered from the issuer (`/.well-known/openid-configuration`)"] as [string, string]] : []),
    ...(f.scope ? [["scope", code(f.scope)] as [string, string]] : []),
    ["checks", f.checks ? f.checks.map(code).join(", ") : "the defaults (PKCE, and `nonce` for OpenID Connect)"],
  ];
  const callback = `https://app.example.com${NEXT_BASE_PATH}/callback/${f.id}`;
  const see = comment.see.filter((url) => /^https:\/\//.test(url));
  return [
    `# ${f.name}`,
    proseMarkdown(comment.text),
    `## Set-up {#setup}`,
    `\`\`\`ts\nimport ${f.factory} from "appauth/providers/${f.module}";\n\nconst config = { providers: [${f.factory}] };\n\`\`\``,
    `Listed bare, the provider reads its credentials from the environment:`,
    table(env, ["variable", "what it holds"]),
    `Pass options to override any default (\`${f.factory}({ clientId, clientSecret, authorization: { params: { … } } })\`);
\`authorization.params\` merge with the defaults key by key.`,
    `## Callback URL {#callback-url}`,
    `Register this redirect URI with ${f.name} (for the origin \`https://app.example.com\` and Next.js's
default basePath \`${NEXT_BASE_PATH}\`; elsewhere it is \`<origin><basePath>/callback/${f.id}\`,
and the basePath defaults to \`/auth\`):`,
    `\`\`\`text\n${callback}\n\`\`\``,
    f.formPost ? `${f.name} answers with \`response_mode=form_post\`: the callback arrives as a POST.` : "",
    `## Defaults {#defaults}`,
    table(defaults, ["setting", "value"]),
    see.length ? `## ${f.name}'s documentation {#provider-documentation}\n\n${see.map((url) => `- <${url}>`).join("\n")}` : "",
    `API: [appauth/providers/${f.module}](../api/providers-${f.module}.md).
Something refused? See [InvalidEndpoints](../troubleshooting.md#invalidendpoints),
[OAuthCallbackError](../troubleshooting.md#oauthcallbackerror) and
[OAuthAccountNotLinked](../troubleshooting.md#oauthaccountnotlinked).`,
  ]
    .filter(Boolean)
    .join("\n\n");
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
    return `| [${f.name}](${f.module}.md) | ${code(f.id)} | ${f.type} | ${firstLine.replace(/\|/g, "\\|")} |`;
  });
  const index: Page = {
    path: "providers/index.md",
    title: "Providers",
    section: "providers",
    inNav: true,
    body: [
      `# Providers`,
      `The catalog's ${all.length} OAuth 2 and OpenID Connect providers. Each page names the environment variables the
library reads for it, the callback URL to register, and its endpoints. Any other OpenID Provider works from its issuer
alone: \`{ id, name, type: "oidc", issuer, clientId, clientSecret }\`. Credentials, email and passkeys are
described under [Email](../concepts/email.md) and [Passkeys](../concepts/passkeys.md).`,
      ["| provider | id | type | notes |", "| --- | --- | --- | --- |", ...rows].join("\n"),
    ].join("\n\n"),
  };
  const pages = all.map(({ f, comment }): Page => ({
    path: providerPath(f.module),
    title: f.name,
    section: "providers",
    inNav: true,
    body: providerBody(f, comment),
  }));
  return [index, ...pages];
}
