/**
 * The public surface: every entry point of package.json's "exports", read from its source with the
 * TypeScript compiler, against the list checked in beside this test (`exports.snapshot.txt`). Adding,
 * renaming or removing an export is a visible change to that file: `npx vitest run test/api -u`
 * rewrites it, and the diff is the API decision a reviewer reads.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { entryPoints, type EntryPoint } from "../../scripts/docs/api.js";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Sorts by name, case aside, the same on every machine (no locale). */
const order = (entry: string) => `${entry.replace(/^type /, "").toLowerCase()} ${entry}`;

/** Each name an entry point exports, `type ` before those that are types only. */
function exportsOf(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file}: not a module the compiler could read`);
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
    })
    .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

describe("the exports of every entry point", () => {
  let entries: EntryPoint[];
  let program: ts.Program;

  beforeAll(async () => {
    const pkg = JSON.parse(await readFile(`${root}/package.json`, "utf8")) as { exports: Record<string, unknown> };
    entries = await entryPoints(pkg.exports, root);
    program = ts.createProgram(
      entries.map((entry) => `${root}/${entry.file}`),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        jsx: ts.JsxEmit.ReactJSX,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        paths: { "next/server": [`${root}/node_modules/next/server.d.ts`], "next/headers": [`${root}/node_modules/next/headers.d.ts`], "next/navigation": [`${root}/node_modules/next/navigation.d.ts`] },
      },
    );
  }, 120_000);

  it("match the checked-in list", async () => {
    expect(entries.length).toBeGreaterThan(20);
    const listing = entries.flatMap((entry) => [`${entry.importPaths.join(", ")} (${entry.file})`, ...exportsOf(program, `${root}/${entry.file}`).map((name) => `  ${name}`), ""]);
    await expect(listing.join("\n")).toMatchFileSnapshot("exports.snapshot.txt");
  });

  it("keep library internals out of the root entry and the machines' entry", () => {
    const rootEntry = entries.find((entry) => entry.importPaths.includes("appauth"))!;
    const machines = entries.find((entry) => entry.importPaths.includes("appauth/machines"))!;
    const rootNames = exportsOf(program, `${root}/${rootEntry.file}`);
    const machineNames = exportsOf(program, `${root}/${machines.file}`);
    expect(rootNames).toContain("Auth");
    expect(rootNames.filter((name) => /^(type )?(Internal[A-Z]|is[A-Z]|troubleshooting|TROUBLESHOOTING|STORE_)/.test(name) || name === "errorCode" || name === "clientSafeErrorTypes")).toEqual([]);
    expect(machineNames).toContain("credentialsSignInMachine");
    expect(machineNames.filter((name) => /Context$/.test(name) || /^completion|^endedAs$/.test(name))).toEqual([]);
  });
});
