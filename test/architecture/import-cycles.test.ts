/**
 * No import cycle in src/: every module can be read (and loaded) after the modules it imports, type
 * imports included, since a cycle of types is still a cycle of knowledge between the files. The graph
 * is built from each file's import and export declarations and `import("…")` types, relative
 * specifiers only (a package cannot import us back).
 *
 * One exception, of declarations only: `src/types.ts`, the public types users augment
 * (`declare module "appauth"`), names the provider and rate-limit option types it unites in
 * `ProviderConfig` and `AuthConfig`, and those name its resources (`User`, `Profile`, `Adapter`).
 * Its own imports are type imports, erased when compiled, so they are left out of the graph; the
 * test checks that they stay type imports.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Declaration hubs whose imports are all `import type` (checked below) and are left out of the graph. */
const TYPES_ONLY = new Set(["src/types.ts"]);

/** The modules of `dir` (repository-relative), each with the modules of the repository it imports. */
function moduleGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => join(dir, name).split("\\").join("/"));
  for (const file of files) {
    const imported = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true).importedFiles;
    const targets = imported
      .map((ref) => ref.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => {
        const base = relative(root, resolve(join(root, dirname(file)), specifier)).split("\\").join("/");
        const candidates = [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, `${base}/index.ts`];
        return candidates.find((candidate) => existsSync(join(root, candidate))) ?? base;
      });
    graph.set(file, TYPES_ONLY.has(file) ? [] : [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected groups of more than one module (or a module importing itself): each one a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1 || graph.get(node)!.includes(node)) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the module graph of src/", () => {
  it("finds a cycle, type imports and import() types included, and none in a chain", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts", "e.ts"]],
      ["e.ts", []],
      ["f.ts", ["f.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["f.ts"]]);
    const source = 'import type { A } from "./a.js";\nexport * from "./b.js";\ntype C = import("./c.js").C;\nimport x from "xstate";';
    expect(ts.preProcessFile(source, true, true).importedFiles.map((ref) => ref.fileName)).toEqual(["./a.js", "./b.js", "./c.js", "xstate"]);
  });

  it("leaves out only modules that import nothing but types", () => {
    for (const file of TYPES_ONLY) {
      const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.ES2022);
      const valueImports = source.statements.filter(
        (statement) =>
          (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) ||
          (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined && !statement.isTypeOnly),
      );
      expect(valueImports.map((statement) => statement.getText(source)), file).toEqual([]);
    }
  });

  it("has no import cycle", () => {
    const graph = moduleGraph("src");
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });
});
