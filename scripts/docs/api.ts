/**
 * The API reference: one page per public entry point of package.json's "exports", from the TSDoc
 * of the sources. TypeDoc reads the code (which exports an entry reaches, the comments, the types);
 * the pages are written here as Markdown for VitePress, each export under a heading anchored by its
 * name, so every anchor is one the link checker can see. Every member row without a description is
 * recorded: the docs test fails on one (the descriptions are written in the sources, as TSDoc).
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
import { escapeHtml, leadingComment, proseMarkdown, renderInline } from "./markdown.js";
import type { Page } from "./pages.js";

export interface EntryPoint {
  /** The source file, relative to the repository's root (`src/jwt/index.ts`). */
  file: string;
  /** Every import path that reaches it (`appauth/providers/email`, `appauth/providers/nodemailer`). */
  importPaths: string[];
  /** Reached through a `*` export (one of many modules alike, such as the catalog's providers). */
  fromWildcard: boolean;
}

/** `appauth` → `api/appauth.md`, `appauth/providers/github` → `api/providers-github.md` (built as `.html`). */
export function apiPath(importPath: string): string {
  const rest = importPath === "appauth" ? "appauth" : importPath.slice("appauth/".length).replace(/\//g, "-");
  return `api/${rest}.md`;
}

/** A row of the reference (a member of an exported interface, class or object type) with no description. */
export interface Undescribed {
  /** The page's import path, e.g. `appauth`. */
  entry: string;
  /** `AuthConfig.adapter`. */
  member: string;
  /** Where to write the comment: `src/types.ts:485`. */
  source: string;
  /** A member of a type the configuration reaches (`AuthConfig` and the types of its options, at any depth). */
  option: boolean;
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
  /** The configuration's types: `AuthConfig` and every declaration its options' types reach. */
  private readonly options: Set<Reflection>;
  /** Member rows rendered without a description, for the test that fails on one. */
  readonly undescribed: Undescribed[] = [];
  private entry = "";

  constructor(private readonly modules: { entry: EntryPoint; module: DeclarationReflection }[]) {
    for (const { entry, module } of modules) {
      for (const child of module.children ?? []) this.anchors.set(child, `${apiPath(entry.importPaths[0]!)}#${child.name}`);
    }
    const config = modules.flatMap(({ module }) => module.children ?? []).find((child) => child.name === "AuthConfig");
    this.options = reachable(config ? [config] : []);
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

  /** A comment as Markdown: the summary, then the block tags a reader needs. */
  private commentMarkdown(comment: Comment | undefined): string {
    if (!comment) return "";
    const out = [this.text(comment.summary).trim()];
    for (const tag of comment.blockTags) {
      const content = this.text(tag.content).trim();
      if (tag.tag === "@example") out.push(`**Example**\n\n${content}`);
      else if (tag.tag === "@see") out.push(`See: ${/^https:\/\/\S+$/.test(content) ? `<${content}>` : content}`);
      else if (tag.tag === "@deprecated") out.push(`**Deprecated.** ${content}`);
      else if (tag.tag === "@default" || tag.tag === "@defaultValue") out.push(`Default: ${content}`);
      else if (tag.tag === "@throws") out.push(`Throws: ${content}`);
    }
    return proseMarkdown(out.filter(Boolean).join("\n\n"));
  }

  /** A member's description for a table cell (HTML): its summary and default. */
  private cellHtml(comment: Comment | undefined): string {
    if (!comment) return "";
    const parts = [this.text(comment.summary).trim()];
    const deprecated = comment.blockTags.find((tag) => tag.tag === "@deprecated");
    if (deprecated) parts.push(`**Deprecated.** ${this.text(deprecated.content).trim()}`.trim());
    const byDefault = comment.blockTags.find((tag) => tag.tag === "@default" || tag.tag === "@defaultValue");
    if (byDefault) parts.push(`Default: ${this.text(byDefault.content).trim()}`);
    return parts.filter(Boolean).map((part) => renderInline(part.replace(/\s*\n\s*/g, " "))).join(" ");
  }

  private record(owner: DeclarationReflection, member: DeclarationReflection): void {
    const at = member.sources?.[0];
    this.undescribed.push({
      entry: this.entry,
      member: `${owner.name}.${member.name}`,
      source: at ? `${at.fileName}:${at.line}` : "unknown",
      option: this.options.has(owner),
    });
  }

  private signature(name: string, signature: SignatureReflection): string {
    const typeParams = signature.typeParameters?.length ? `<${signature.typeParameters.map((t) => t.name).join(", ")}>` : "";
    const params = (signature.parameters ?? []).map((p) => `${p.flags.isRest ? "..." : ""}${p.name}${p.flags.isOptional || p.defaultValue ? "?" : ""}: ${p.type?.toString() ?? "unknown"}`);
    const prefix = signature.kind === ReflectionKind.ConstructorSignature ? "new " : "";
    const text = `${prefix}${name}${typeParams}(${params.join(", ")}): ${signature.type?.toString() ?? "void"}`;
    const documented = (signature.parameters ?? []).filter((p) => p.comment);
    const table = documented.length
      ? `<table><tbody>${documented.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${this.cellHtml(p.comment)}</td></tr>`).join("")}</tbody></table>`
      : "";
    return `${fence(text)}\n\n${table}`;
  }

  private members(reflection: DeclarationReflection, owner = reflection): string {
    const own = (reflection.children ?? []).filter((m) => !m.inheritedFrom && !m.flags.isPrivate && !m.flags.isProtected && !m.name.startsWith("#"));
    if (own.length === 0) return "";
    const rows = own.map((member) => {
      const signatures = member.signatures ?? [];
      const type = signatures.length
        ? signatures.map((s) => `(${(s.parameters ?? []).map((p) => `${p.name}: ${p.type?.toString() ?? "unknown"}`).join(", ")}) => ${s.type?.toString() ?? "void"}`).join(" | ")
        : (member.type?.toString() ?? "");
      // A machine's or a library's inferred type can run to pages: its outline is what a reader needs.
      const flags = [member.flags.isStatic ? "static " : "", member.flags.isReadonly ? "readonly " : ""].join("");
      const optional = member.flags.isOptional ? "?" : "";
      // A member that overrides another (each error class's `static type`) has the overridden one's description.
      const overridden = member.overwrites instanceof ReferenceType ? (member.overwrites.reflection as DeclarationReflection | undefined) : undefined;
      const description = this.cellHtml(member.signatures?.[0]?.comment ?? member.comment ?? overridden?.signatures?.[0]?.comment ?? overridden?.comment);
      if (!description) this.record(owner, member);
      return `<tr><td><code>${escapeHtml(`${flags}${member.name}${optional}`)}</code></td><td><code>${escapeHtml(brief(type))}</code></td><td>${description}</td></tr>`;
    });
    return `<table class="members"><thead><tr><th>member</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  private declaration(reflection: DeclarationReflection): string {
    // A Markdown heading (it is in the page's outline) with the export's own name as its anchor.
    const heading = `## ${reflection.name} <Badge type="info" text="${kindLabel(reflection)}" /> {#${reflection.name}}`;
    if (reflection instanceof ReferenceReflection) {
      const target = reflection.tryGetTargetReflectionDeep();
      const href = target ? this.hrefTo(target) : undefined;
      const name = target?.name ?? reflection.name;
      return `${heading}\n\nThe same as ${href ? `[\`${name}\`](${href})` : `\`${name}\``}.`;
    }
    const parts = [heading, this.commentMarkdown(this.ownComment(reflection))];
    const extended = reflection.extendedTypes?.map((t) => {
      const href = t instanceof ReferenceType && t.reflection ? this.hrefTo(t.reflection) : undefined;
      return href ? `[\`${t.toString()}\`](${href})` : `\`${t.toString()}\``;
    });
    if (extended?.length) parts.push(`Extends ${extended.join(", ")}.`);
    if (reflection.kind === ReflectionKind.Class && ERROR_CLASSES.has(reflection.name)) {
      parts.push(`What it means and how to fix it: [Troubleshooting](../troubleshooting.md#${reflection.name.toLowerCase()}).`);
    }
    if (reflection.kind === ReflectionKind.TypeAlias) {
      parts.push(fence(`type ${reflection.name} = ${reflection.type?.toString() ?? "unknown"}`));
      // An object type's members are options like an interface's: each is a row with its description.
      const declaration = reflection.type?.type === "reflection" ? reflection.type.declaration : undefined;
      if (declaration?.children?.length) parts.push(this.members(declaration, reflection));
    } else if (reflection.kind === ReflectionKind.Variable) {
      parts.push(fence(`const ${reflection.name}: ${brief(reflection.type?.toString() ?? "unknown")}`));
    }
    for (const signature of reflection.signatures ?? []) parts.push(this.signature(reflection.name, signature));
    if (reflection.kind === ReflectionKind.Class || reflection.kind === ReflectionKind.Interface) parts.push(this.members(reflection));
    return parts.filter(Boolean).join("\n\n");
  }

  async page(entry: EntryPoint, module: DeclarationReflection, root: string): Promise<Page> {
    const [importPath, ...aliases] = entry.importPaths as [string, ...string[]];
    this.entry = importPath;
    const children = [...(module.children ?? [])].sort((a, b) => kindRank(a) - kindRank(b) || a.name.localeCompare(b.name));
    const header = leadingComment(await readFile(`${root}/${entry.file}`, "utf8")).text;
    const toc = children.map((c) => `[\`${c.name}\`](#${c.name})`).join(", ");
    const body = [
      `# ${importPath}`,
      fence(`import { … } from "${importPath}";`),
      aliases.length ? `Also imported as ${aliases.map((a) => `\`${a}\``).join(", ")}.` : "",
      proseMarkdown(header),
      `Source: \`${entry.file}\`. Exports: ${toc || "none"}.`,
      ...children.map((child) => this.declaration(child)),
    ].filter(Boolean);
    return {
      path: apiPath(importPath),
      title: importPath,
      section: "api",
      // The catalog's providers and mail services are listed on the API index, not in the navigation.
      inNav: !entry.fromWildcard,
      order: importPath === "appauth" ? 1 : 10,
      body: body.join("\n\n"),
    };
  }
}

/**
 * The declarations `roots` reach through their types: members' types, parameters and results of
 * signatures, type arguments, unions, intersections, arrays, base types and aliases, at any depth.
 */
function reachable(roots: DeclarationReflection[]): Set<Reflection> {
  const seen = new Set<Reflection>();
  const visitDeclaration = (declaration: Reflection | undefined): void => {
    if (!declaration || seen.has(declaration)) return;
    seen.add(declaration);
    const d = declaration as DeclarationReflection;
    visitType(d.type);
    for (const t of d.extendedTypes ?? []) visitType(t);
    for (const child of d.children ?? []) visitDeclaration(child);
    for (const signature of [...(d.signatures ?? []), ...(d.indexSignatures ?? [])]) {
      for (const parameter of signature.parameters ?? []) visitType(parameter.type);
      visitType(signature.type);
    }
  };
  const visitType = (type: unknown): void => {
    if (!type || typeof type !== "object") return;
    const t = type as Record<string, unknown> & { type?: string };
    if (t.type === "reference") visitDeclaration((type as ReferenceType).reflection);
    if (t.type === "reflection") visitDeclaration((t as unknown as { declaration: Reflection }).declaration);
    for (const key of ["types", "elements", "typeArguments"]) for (const inner of (t[key] as unknown[] | undefined) ?? []) visitType(inner);
    for (const key of ["elementType", "target", "objectType", "indexType", "checkType", "extendsType", "trueType", "falseType"]) visitType(t[key]);
  };
  for (const root of roots) visitDeclaration(root);
  return seen;
}

/** Types longer than this are shown by their outline (`StateMachine<OAuthContext, …>`). */
const LONGEST_TYPE = 240;

/** A type's text, or for a very long one its name and first type argument. */
export function brief(type: string): string {
  if (type.length <= LONGEST_TYPE) return type;
  const open = type.indexOf("<");
  if (open > 0 && open < 80) {
    let depth = 0;
    for (let i = open + 1; i < type.length; i++) {
      const c = type[i];
      if (c === "<" || c === "{" || c === "(" || c === "[") depth++;
      else if (c === ">" || c === "}" || c === ")" || c === "]") depth--;
      else if (c === "," && depth === 0 && i < LONGEST_TYPE) return `${type.slice(0, i)}, …>`;
    }
  }
  return `${type.slice(0, LONGEST_TYPE)}…`;
}

/** A TypeScript code block; a longer fence when the code holds backticks. */
function fence(code: string): string {
  const ticks = code.includes("```") ? "````" : "```";
  return `${ticks}ts\n${code}\n${ticks}`;
}

/** The module reflection TypeDoc made for `file`. */
function moduleFor(project: ProjectReflection, root: string, file: string): DeclarationReflection {
  const wanted = `${root}/${file}`;
  const found = project.children?.find((m) => m.sources?.some((s) => s.fullFileName === wanted));
  if (!found) throw new Error(`TypeDoc made no module for ${file}`);
  return found;
}

export interface ApiReference {
  pages: Page[];
  undescribed: Undescribed[];
}

/** Converts the entry points with TypeDoc and renders an API page for each, plus the index. */
export async function apiPages(root: string): Promise<ApiReference> {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, "utf8")) as { exports: Record<string, unknown> };
  const entries = await entryPoints(pkg.exports, root);
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((e) => `${root}/${e.file}`),
    tsconfig: `${root}/tsconfig.build.json`,
    // `npm run typecheck` checks the types; here only the comments and shapes are read.
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    // Sources are named by path and line (for the report of undescribed rows); no git remote is read.
    disableGit: true,
    sourceLinkTemplate: "{path}#L{line}",
    logLevel: "Warn",
  });
  const project = await app.convert();
  if (!project) throw new Error("TypeDoc could not convert the entry points");
  const modules = entries.map((entry) => ({ entry, module: moduleFor(project, root, entry.file) }));
  const renderer = new ApiRenderer(modules);
  const pages: Page[] = [];
  // One at a time: the renderer notes which page an undescribed row is on.
  for (const { entry, module } of modules) pages.push(await renderer.page(entry, module, root));
  const list = (filter: (p: Page) => boolean) =>
    pages
      .filter(filter)
      .map((p) => `- [${p.title}](${p.path.slice("api/".length)})`)
      .join("\n");
  const index: Page = {
    path: "api/index.md",
    title: "API reference",
    section: "api",
    inNav: true,
    order: 0,
    body: [
      `# API reference`,
      `Every public entry point of the package (\`exports\` in package.json), generated from the TSDoc of the sources.`,
      list((p) => p.inNav),
      `## Providers {#providers}`,
      `One module per catalog provider and mail service (see also [Providers](../providers/index.md)).`,
      list((p) => !p.inNav),
    ].join("\n\n"),
  };
  return { pages: [index, ...pages], undescribed: renderer.undescribed };
}
