/**
 * The API reference: one page per public entry point of package.json's "exports", from the TSDoc
 * of the sources. TypeDoc reads the code (which exports an entry reaches, the comments, the types);
 * the pages are rendered here, into the site's own layout, so every anchor is one the link checker
 * can see.
 */
import { readFile, readdir } from "node:fs/promises";
import {
  Application,
  Comment,
  ReferenceReflection,
  ReferenceType,
  ReflectionKind,
  type CommentDisplayPart,
  type DeclarationReflection,
  type ProjectReflection,
  type Reflection,
  type SignatureReflection,
} from "typedoc";
import * as errors from "../../src/errors.js";
import { escapeHtml, leadingComment, renderInline, renderMarkdown } from "./markdown.js";
import type { Page } from "./layout.js";

export interface EntryPoint {
  /** The source file, relative to the repository's root (`src/jwt/index.ts`). */
  file: string;
  /** Every import path that reaches it (`appauth/providers/email`, `appauth/providers/nodemailer`). */
  importPaths: string[];
  /** Reached through a `*` export (one of many modules alike, such as the catalog's providers). */
  fromWildcard: boolean;
}

/** `appauth` → `api/appauth.html`, `appauth/providers/github` → `api/providers-github.html`. */
export function apiPath(importPath: string): string {
  const rest = importPath === "appauth" ? "appauth" : importPath.slice("appauth/".length).replace(/\//g, "-");
  return `api/${rest}.html`;
}

/** Files a `*` export reaches that are not entry points of their own: the catalog's index and helpers. */
const NOT_ENTRIES = new Set(["index", "shared"]);

/**
 * The public entry points, from package.json's "exports" (types path → source file). A wildcard
 * (`./providers/*`) stands for every module in its folder: the catalog's providers and the mail
 * services beside them.
 */
export async function entryPoints(exportsField: Record<string, unknown>, root: string): Promise<EntryPoint[]> {
  const byFile = new Map<string, { importPaths: string[]; fromWildcard: boolean }>();
  const add = (file: string, importPath: string, fromWildcard = false) => {
    const entry = byFile.get(file) ?? { importPaths: [], fromWildcard };
    byFile.set(file, { importPaths: [...entry.importPaths, importPath], fromWildcard: entry.fromWildcard && fromWildcard });
  };
  for (const [key, target] of Object.entries(exportsField)) {
    const types = typeof target === "object" && target !== null ? (target as { types?: unknown }).types : undefined;
    if (typeof types !== "string") continue;
    const file = types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts").replace(/\.d\.mts$/, ".mts");
    const importPath = key === "." ? "appauth" : `appauth/${key.slice(2)}`;
    if (!key.includes("*")) {
      add(file, importPath);
      continue;
    }
    const [before, after] = file.split("*") as [string, string];
    const folder = before.slice(0, before.lastIndexOf("/") + 1);
    const prefix = before.slice(folder.length);
    const names = (await readdir(`${root}/${folder}`))
      .filter((name) => name.startsWith(prefix) && name.endsWith(after))
      .map((name) => name.slice(prefix.length, name.length - after.length))
      .filter((name) => !NOT_ENTRIES.has(name) && !name.endsWith(".d"))
      .sort();
    for (const name of names) add(file.replace("*", name), importPath.replace("*", name), true);
  }
  return [...byFile].map(([file, entry]) => ({ file, ...entry }));
}

const KIND_ORDER: [ReflectionKind, string][] = [
  [ReflectionKind.Function, "function"],
  [ReflectionKind.Class, "class"],
  [ReflectionKind.Variable, "constant"],
  [ReflectionKind.Interface, "interface"],
  [ReflectionKind.TypeAlias, "type"],
  [ReflectionKind.Enum, "enum"],
  [ReflectionKind.Namespace, "namespace"],
  [ReflectionKind.Reference, "re-export"],
];

/** The error classes: each has a troubleshooting section, anchored by its name in lower case. */
const ERROR_CLASSES = new Set(
  Object.entries(errors)
    .filter(([, value]) => typeof value === "function" && (value === errors.AuthError || value.prototype instanceof errors.AuthError))
    .map(([name]) => name),
);

function kindRank(reflection: Reflection): number {
  const rank = KIND_ORDER.findIndex(([kind]) => reflection.kind === kind);
  return rank === -1 ? KIND_ORDER.length : rank;
}

function kindLabel(reflection: Reflection): string {
  return KIND_ORDER.find(([kind]) => reflection.kind === kind)?.[1] ?? ReflectionKind.singularString(reflection.kind).toLowerCase();
}

/** Renders the pages of one TypeDoc project, knowing where every top-level export lives. */
class ApiRenderer {
  /** Top-level export → its page and anchor, for `{@link}` and references. */
  private readonly anchors = new Map<Reflection, string>();

  constructor(private readonly modules: { entry: EntryPoint; module: DeclarationReflection }[]) {
    for (const { entry, module } of modules) {
      for (const child of module.children ?? []) this.anchors.set(child, `${apiPath(entry.importPaths[0]!)}#${child.name}`);
    }
  }

  /** An href from an API page to the export `target` (or its nearest top-level parent). */
  private hrefTo(target: Reflection): string | undefined {
    for (let r: Reflection | undefined = target; r; r = r.parent) {
      const anchor = this.anchors.get(r);
      if (anchor) return anchor.slice("api/".length);
    }
    return undefined;
  }

  private text(parts: readonly CommentDisplayPart[] | undefined): string {
    if (!parts) return "";
    return parts
      .map((part) => {
        if (part.kind !== "inline-tag") return part.text;
        const href = typeof part.target === "object" && "kind" in part.target ? this.hrefTo(part.target as Reflection) : undefined;
        const label = part.text || (typeof part.target === "string" ? part.target : "");
        if (typeof part.target === "string" && /^https:\/\//.test(part.target)) return `[${label}](${part.target})`;
        return href ? `[\`${label}\`](${href})` : `\`${label}\``;
      })
      .join("");
  }

  /** The comment of `reflection`, unless TypeDoc copied it from a base class or the module header. */
  private ownComment(reflection: DeclarationReflection): Comment | undefined {
    const comment = reflection.signatures?.[0]?.comment ?? reflection.comment;
    if (!comment) return undefined;
    const base = reflection.extendedTypes?.[0];
    const baseReflection = base instanceof ReferenceType ? base.reflection : undefined;
    const baseComment = (baseReflection as DeclarationReflection | undefined)?.comment;
    if (baseComment && Comment.combineDisplayParts(baseComment.summary) === Comment.combineDisplayParts(comment.summary)) return undefined;
    return comment;
  }

  private commentHtml(comment: Comment | undefined): string {
    if (!comment) return "";
    const out = [renderMarkdown(this.text(comment.summary)).html];
    for (const tag of comment.blockTags) {
      const content = this.text(tag.content).trim();
      if (tag.tag === "@example") out.push(`<p><strong>Example</strong></p>${renderMarkdown(content).html}`);
      else if (tag.tag === "@see") out.push(`<p>See: ${renderInline(/^https:\/\/\S+$/.test(content) ? `<${content}>` : content)}</p>`);
      else if (tag.tag === "@deprecated") out.push(`<p><strong>Deprecated.</strong> ${renderInline(content)}</p>`);
      else if (tag.tag === "@default" || tag.tag === "@defaultValue") out.push(`<p>Default: ${renderInline(content)}</p>`);
      else if (tag.tag === "@throws") out.push(`<p>Throws: ${renderInline(content)}</p>`);
    }
    return out.join("\n");
  }

  private signature(name: string, signature: SignatureReflection): string {
    const typeParams = signature.typeParameters?.length ? `<${signature.typeParameters.map((t) => t.name).join(", ")}>` : "";
    const params = (signature.parameters ?? []).map((p) => `${p.flags.isRest ? "..." : ""}${p.name}${p.flags.isOptional || p.defaultValue ? "?" : ""}: ${p.type?.toString() ?? "unknown"}`);
    const prefix = signature.kind === ReflectionKind.ConstructorSignature ? "new " : "";
    const text = `${prefix}${name}${typeParams}(${params.join(", ")}): ${signature.type?.toString() ?? "void"}`;
    const documented = (signature.parameters ?? []).filter((p) => p.comment);
    const table = documented.length
      ? `<table><tbody>${documented.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${renderInline(this.text(p.comment?.summary))}</td></tr>`).join("")}</tbody></table>`
      : "";
    return `<pre class="signature"><code>${escapeHtml(text)}</code></pre>${table}`;
  }

  private members(reflection: DeclarationReflection): string {
    const own = (reflection.children ?? []).filter((m) => !m.inheritedFrom && !m.flags.isPrivate && !m.flags.isProtected && !m.name.startsWith("#"));
    if (own.length === 0) return "";
    const rows = own.map((member) => {
      const signatures = member.signatures ?? [];
      const type = signatures.length
        ? signatures.map((s) => `(${(s.parameters ?? []).map((p) => `${p.name}: ${p.type?.toString() ?? "unknown"}`).join(", ")}) => ${s.type?.toString() ?? "void"}`).join(" | ")
        : (member.type?.toString() ?? "");
      const flags = [member.flags.isStatic ? "static " : "", member.flags.isReadonly ? "readonly " : ""].join("");
      const optional = member.flags.isOptional ? "?" : "";
      const comment = this.text((member.signatures?.[0]?.comment ?? member.comment)?.summary);
      return `<tr><td><code>${escapeHtml(`${flags}${member.name}${optional}`)}</code></td><td><code>${escapeHtml(type)}</code></td><td>${renderInline(comment)}</td></tr>`;
    });
    return `<table><thead><tr><th>member</th><th>type</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  private declaration(reflection: DeclarationReflection): string {
    const heading = `<h2 id="${escapeHtml(reflection.name)}">${escapeHtml(reflection.name)}<span class="kind">${kindLabel(reflection)}</span></h2>`;
    if (reflection instanceof ReferenceReflection) {
      const target = reflection.tryGetTargetReflectionDeep();
      const href = target ? this.hrefTo(target) : undefined;
      const name = target?.name ?? reflection.name;
      return `${heading}<p>The same as ${href ? `<a href="${escapeHtml(href)}"><code>${escapeHtml(name)}</code></a>` : `<code>${escapeHtml(name)}</code>`}.</p>`;
    }
    const parts = [heading, this.commentHtml(this.ownComment(reflection))];
    const extended = reflection.extendedTypes?.map((t) => {
      const href = t instanceof ReferenceType && t.reflection ? this.hrefTo(t.reflection) : undefined;
      const name = `<code>${escapeHtml(t.toString())}</code>`;
      return href ? `<a href="${escapeHtml(href)}">${name}</a>` : name;
    });
    if (extended?.length) parts.push(`<p>Extends ${extended.join(", ")}.</p>`);
    if (reflection.kind === ReflectionKind.Class && ERROR_CLASSES.has(reflection.name)) {
      const anchor = reflection.name.toLowerCase();
      parts.push(`<p>What it means and how to fix it: <a href="../troubleshooting.html#${anchor}">Troubleshooting</a>.</p>`);
    }
    if (reflection.kind === ReflectionKind.TypeAlias) {
      parts.push(`<pre class="signature"><code>${escapeHtml(`type ${reflection.name} = ${reflection.type?.toString() ?? "unknown"}`)}</code></pre>`);
    } else if (reflection.kind === ReflectionKind.Variable) {
      parts.push(`<pre class="signature"><code>${escapeHtml(`const ${reflection.name}: ${reflection.type?.toString() ?? "unknown"}`)}</code></pre>`);
    }
    for (const signature of reflection.signatures ?? []) parts.push(this.signature(reflection.name, signature));
    if (reflection.kind === ReflectionKind.Class || reflection.kind === ReflectionKind.Interface) parts.push(this.members(reflection));
    return parts.join("\n");
  }

  async page(entry: EntryPoint, module: DeclarationReflection, root: string): Promise<Page> {
    const [importPath, ...aliases] = entry.importPaths as [string, ...string[]];
    const children = [...(module.children ?? [])].sort((a, b) => kindRank(a) - kindRank(b) || a.name.localeCompare(b.name));
    const header = leadingComment(await readFile(`${root}/${entry.file}`, "utf8")).text;
    const toc = children.map((c) => `<a href="#${escapeHtml(c.name)}"><code>${escapeHtml(c.name)}</code></a>`).join(", ");
    const body = [
      `<h1>${escapeHtml(importPath)}</h1>`,
      `<pre><code class="language-ts">import { … } from "${escapeHtml(importPath)}";</code></pre>`,
      aliases.length ? `<p>Also imported as ${aliases.map((a) => `<code>${escapeHtml(a)}</code>`).join(", ")}.</p>` : "",
      header ? renderMarkdown(header).html : "",
      `<p>Source: <code>${escapeHtml(entry.file)}</code>. Exports: ${toc || "none"}.</p>`,
      ...children.map((child) => this.declaration(child)),
    ];
    return {
      path: apiPath(importPath),
      title: importPath,
      section: "api",
      // The catalog's providers and mail services are listed on the API index, not in the navigation.
      inNav: !entry.fromWildcard,
      order: importPath === "appauth" ? 1 : 10,
      body: body.join("\n"),
    };
  }
}

/** The module reflection TypeDoc made for `file`. */
function moduleFor(project: ProjectReflection, root: string, file: string): DeclarationReflection {
  const wanted = `${root}/${file}`;
  const found = project.children?.find((m) => m.sources?.some((s) => s.fullFileName === wanted));
  if (!found) throw new Error(`TypeDoc made no module for ${file}`);
  return found;
}

/** Converts the entry points with TypeDoc and renders an API page for each, plus the index. */
export async function apiPages(root: string): Promise<Page[]> {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, "utf8")) as { exports: Record<string, unknown> };
  const entries = await entryPoints(pkg.exports, root);
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((e) => `${root}/${e.file}`),
    tsconfig: `${root}/tsconfig.build.json`,
    // `npm run typecheck` checks the types; here only the comments and shapes are read.
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    logLevel: "Warn",
  });
  const project = await app.convert();
  if (!project) throw new Error("TypeDoc could not convert the entry points");
  const modules = entries.map((entry) => ({ entry, module: moduleFor(project, root, entry.file) }));
  const renderer = new ApiRenderer(modules);
  const pages = await Promise.all(modules.map(({ entry, module }) => renderer.page(entry, module, root)));
  const list = (filter: (p: Page) => boolean) =>
    pages
      .filter(filter)
      .map((p) => `<li><a href="${escapeHtml(p.path.slice("api/".length))}">${escapeHtml(p.title)}</a></li>`)
      .join("");
  const index: Page = {
    path: "api/index.html",
    title: "API reference",
    section: "api",
    inNav: true,
    order: 0,
    body: [
      `<h1>API reference</h1>`,
      `<p>Every public entry point of the package (<code>exports</code> in package.json), generated from the TSDoc of the sources.</p>`,
      `<ul>${list((p) => p.inNav)}</ul>`,
      `<h2 id="providers">Providers</h2>`,
      `<p>One module per catalog provider and mail service (see also <a href="../providers/index.html">Providers</a>).</p>`,
      `<ul>${list((p) => !p.inNav)}</ul>`,
    ].join("\n"),
  };
  return [index, ...pages];
}
