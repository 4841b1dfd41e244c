/**
 * The codemod behind `npx appauth migrate`: rewrites one source file of a next-auth v5 / @auth/*
 * app so that it imports appauth instead, and says what it could not change. It reads the file with
 * the TypeScript compiler's parser and edits only syntax: the module specifiers of imports, exports,
 * `import()`, `require()`, `import("…")` types and `declare module`, and the names bound to what
 * they import that appauth spells differently, found by the binding they resolve to (so a string,
 * comment, JSX text, object key or shadowing local of the same name is left alone). Each edit is a
 * splice at the node's position, so everything else, formatting and comments included, stays as it was.
 */
import type * as TS from "typescript";
import { RENAMED, rewriteSpecifier } from "./specifiers.js";
import type { TypeScriptApi } from "./typescript.js";

/** What became of one file. */
export interface MigratedSource {
  text: string;
  /** Each specifier or identifier rewritten, as `old → new`. */
  changes: string[];
  /** What needs a person: `<specifier>: <why>`. */
  notes: string[];
  /** Set when the file does not parse (`line N: message`); `text` is then the source, unchanged. */
  syntaxError?: string;
}

export interface MigrateSourceOptions {
  ts: TypeScriptApi;
  /** The file's name; its extension chooses the syntax (TS, TSX, JS with JSX, .mts, .d.ts ...). Defaults to `module.ts`. */
  fileName?: string;
}

/** Only a file that names an Auth.js module can have something to change; the others are not parsed. */
const MENTIONS_AUTHJS = /next-auth|@auth\//;

/** Rewrites one file's text. Files that import nothing of Auth.js's come back unchanged. */
export function migrateSource(source: string, providers: ReadonlySet<string>, options: MigrateSourceOptions): MigratedSource {
  const unchanged: MigratedSource = { text: source, changes: [], notes: [] };
  if (!MENTIONS_AUTHJS.test(source)) return unchanged;
  const parsed = parse(source, options.fileName ?? "module.ts", options.ts);
  if ("syntaxError" in parsed) return { ...unchanged, syntaxError: parsed.syntaxError };
  const edit = new FileEdit(options.ts, parsed.file, parsed.checker);
  const notes: string[] = [];
  let namesAuthJs = false;
  const visit = (node: TS.Node): void => {
    const found = moduleSpecifierOf(options.ts, node);
    const rewrite = found && rewriteSpecifier(found.literal.text, providers);
    if (found && rewrite) {
      namesAuthJs = true;
      if ("note" in rewrite) notes.push(`${found.literal.text}: ${rewrite.note}`);
      else {
        // Types users augment live in the root module, whichever entry point re-exports them.
        edit.specifier(found.literal, found.augments && rewrite.to !== "appauth/react" ? "appauth" : rewrite.to);
        edit.importedNames(node);
      }
    }
    options.ts.forEachChild(node, visit);
  };
  visit(parsed.file);
  if (namesAuthJs && /\bNEXTAUTH_(?:SECRET|URL)\b/.test(source)) {
    notes.push("NEXTAUTH_SECRET / NEXTAUTH_URL: appauth reads AUTH_SECRET / AUTH_URL (or APPAUTH_*): rename the variables");
  }
  return { text: edit.apply(source), changes: edit.changes(), notes };
}

interface Parsed {
  file: TS.SourceFile;
  checker: TS.TypeChecker;
}

/**
 * Parses one file into a program of its own, with no library and no module resolution: the checker
 * is only asked which declaration a name in this file binds to, never about types.
 */
function parse(source: string, fileName: string, ts: TypeScriptApi): Parsed | { syntaxError: string } {
  // The extension picks the syntax; the folder would only be looked up, so the program sees one root file.
  const name = `/${fileName.split(/[\\/]/).pop()}`;
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
  const options: TS.CompilerOptions = { noLib: true, noResolve: true, types: [], allowJs: true, jsx: ts.JsxEmit.Preserve, noEmit: true };
  const host: TS.CompilerHost = {
    getSourceFile: (requested) => (requested === name ? file : undefined),
    getDefaultLibFileName: () => "/lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (path) => path,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (path) => path === name,
    readFile: (path) => (path === name ? source : undefined),
    directoryExists: () => false,
    getDirectories: () => [],
  };
  const program = ts.createProgram({ rootNames: [name], options, host });
  const [first] = program.getSyntacticDiagnostics(file);
  if (first) {
    const { line, character } = file.getLineAndCharacterOfPosition(first.start ?? 0);
    return { syntaxError: `line ${line + 1}, column ${character + 1}: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}` };
  }
  return { file, checker: program.getTypeChecker() };
}

interface FoundSpecifier {
  literal: TS.StringLiteralLike;
  /** `declare module "x"`: a module augmentation, which names where types are declared. */
  augments: boolean;
}

/** The module specifier `node` names a module with, if it is one of the places that do. */
function moduleSpecifierOf(ts: TypeScriptApi, node: TS.Node): FoundSpecifier | undefined {
  const found = (literal: TS.Node | undefined, augments = false): FoundSpecifier | undefined =>
    literal && ts.isStringLiteralLike(literal) ? { literal, augments } : undefined;
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return found(node.moduleSpecifier);
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) return found(node.moduleReference.expression);
  if (ts.isModuleDeclaration(node)) return found(node.name, true);
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) return found(node.argument.literal);
  if (ts.isCallExpression(node) && node.arguments.length >= 1) {
    const callee = node.expression;
    const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
    const isRequire = ts.isIdentifier(callee) && callee.text === "require";
    if (isImport || isRequire) return found(node.arguments[0]);
  }
  return undefined;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The edits planned for one file: splices at node positions, and the `old → new` list they make. */
class FileEdit {
  readonly #splices: Splice[] = [];
  readonly #changes = new Set<string>();
  #identifiers: TS.Identifier[] | undefined;

  constructor(
    private readonly ts: TypeScriptApi,
    private readonly file: TS.SourceFile,
    private readonly checker: TS.TypeChecker,
  ) {}

  changes(): string[] {
    return [...this.#changes];
  }

  specifier(literal: TS.StringLiteralLike, to: string): void {
    // Inside the quotes, so the quote style stays the file's.
    this.#splice(literal.getStart(this.file) + 1, literal.end - 1, to);
    this.#changes.add(`${literal.text} → ${to}`);
  }

  /** Renames what `node` (a statement naming an Auth.js module) binds or re-exports under a name appauth spells differently. */
  importedNames(node: TS.Node): void {
    const { ts } = this;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.name) this.#renameBinding(clause.name);
      if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        for (const element of clause.namedBindings.elements) this.#renameImported(element.propertyName, element.name, "as");
      }
    } else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      // A re-export keeps the name the file exports: `export { AppAuthConfig as NextAuthConfig } from "appauth/next"`.
      for (const element of node.exportClause.elements) {
        const imported = element.propertyName ?? element.name;
        const to = ts.isIdentifier(imported) ? RENAMED.get(imported.text) : undefined;
        if (to && ts.isIdentifier(imported)) this.#rename(imported, element.propertyName ? to : `${to} as ${imported.text}`);
      }
    } else if (ts.isImportEqualsDeclaration(node)) {
      this.#renameBinding(node.name);
    } else if (ts.isCallExpression(node)) {
      // `const NextAuth = require("next-auth")`, `const { SolidAuth } = await import("@auth/solid-start")`
      const value = ts.isAwaitExpression(node.parent) ? node.parent : node;
      const declaration = value.parent;
      if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== value) return;
      if (ts.isIdentifier(declaration.name)) this.#renameBinding(declaration.name);
      else if (ts.isObjectBindingPattern(declaration.name)) {
        for (const element of declaration.name.elements) {
          if (!element.dotDotDotToken && ts.isIdentifier(element.name)) this.#renameImported(element.propertyName, element.name, ":");
        }
      }
    }
  }

  /** Applies the planned splices to `source` (the text the file was parsed from). */
  apply(source: string): string {
    const splices = [...this.#splices].sort((a, b) => a.start - b.start);
    let text = "";
    let at = 0;
    for (const { start, end, text: replacement } of splices) {
      if (start < at) throw new Error(`overlapping edits at offset ${start}`);
      text += source.slice(at, start) + replacement;
      at = end;
    }
    return text + source.slice(at);
  }

  /**
   * A named import or destructured property: `property` is the name in the module when the file
   * renames it locally (then only that changes), else `local` is both, and the local binding is
   * renamed with its references; where the new name is taken in the file, the local keeps its name
   * through an alias (`AppAuthConfig as NextAuthConfig`, `{ ReactiveAuth: SolidAuth }`).
   */
  #renameImported(property: TS.PropertyName | TS.ModuleExportName | undefined, local: TS.Identifier, aliasWith: "as" | ":"): void {
    if (property) {
      const to = this.ts.isIdentifier(property) ? RENAMED.get(property.text) : undefined;
      if (to && this.ts.isIdentifier(property)) this.#rename(property, to);
      return;
    }
    const to = RENAMED.get(local.text);
    if (to && !this.#renameBinding(local)) this.#rename(local, aliasWith === "as" ? `${to} as ${local.text}` : `${to}: ${local.text}`);
  }

  /**
   * Renames the binding declared by `name`, and every reference that resolves to it, when appauth
   * spells it differently and the new name is free in the file. Returns whether it did.
   */
  #renameBinding(name: TS.Identifier): boolean {
    const { ts, checker } = this;
    const from = name.text;
    const to = RENAMED.get(from);
    const symbol = checker.getSymbolAtLocation(name);
    if (!to || !symbol || this.#names().some((identifier) => identifier.text === to)) return false;
    for (const identifier of this.#names()) {
      if (identifier.text !== from) continue;
      const parent = identifier.parent;
      if (ts.isShorthandPropertyAssignment(parent)) {
        // `{ NextAuth }` is a key as well as a reference: the key stays.
        if (checker.getShorthandAssignmentValueSymbol(parent) === symbol) this.#splice(identifier.getStart(this.file), identifier.end, `${from}: ${to}`);
      } else if (ts.isExportSpecifier(parent) && !parent.parent.parent.moduleSpecifier) {
        // `export { NextAuth }` exports a name other modules import: that name stays.
        const isLocal = parent.propertyName ? parent.propertyName === identifier : parent.name === identifier;
        if (isLocal && checker.getExportSpecifierLocalTargetSymbol(parent) === symbol) this.#rename(identifier, parent.propertyName ? to : `${to} as ${from}`);
      } else if (checker.getSymbolAtLocation(identifier) === symbol) {
        this.#rename(identifier, to);
      }
    }
    this.#changes.add(`${from} → ${to}`);
    return true;
  }

  #rename(identifier: TS.Identifier, text: string): void {
    this.#splice(identifier.getStart(this.file), identifier.end, text);
    const to = RENAMED.get(identifier.text);
    if (to) this.#changes.add(`${identifier.text} → ${to}`);
  }

  #splice(start: number, end: number, text: string): void {
    if (this.#splices.some((splice) => splice.start === start && splice.end === end)) return;
    this.#splices.push({ start, end, text });
  }

  /** Every identifier of the file, once (JSDoc and other comments are not part of the tree walked). */
  #names(): TS.Identifier[] {
    if (this.#identifiers) return this.#identifiers;
    const names: TS.Identifier[] = [];
    const visit = (node: TS.Node): void => {
      if (this.ts.isIdentifier(node)) names.push(node);
      this.ts.forEachChild(node, visit);
    };
    visit(this.file);
    this.#identifiers = names;
    return names;
  }
}
