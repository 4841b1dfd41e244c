/**
 * The commands of `npx appauth` (bin.ts runs them). Node-only, never imported by the library.
 *
 *   appauth migrate [dir] [--dry-run]   rewrite a next-auth v5 / @auth/* app to import appauth
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { catalog } from "../providers/catalog/index.js";
import { migrateSource } from "./migrate.js";

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIPPED = new Set(["node_modules", ".next", ".git", "dist", "build", ".output", ".vinxi", "coverage"]);

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* sourceFiles(join(dir, entry.name));
    } else if (entry.isFile() && SOURCE.test(entry.name)) {
      yield join(dir, entry.name);
    }
  }
}

/** Runs the codemod over `dir`; returns the exit code (1 when something needs a person). */
export async function migrate(dir: string, options: { dryRun?: boolean; log?: (line: string) => void } = {}): Promise<number> {
  const log = options.log ?? ((line: string) => console.log(line));
  const providers = new Set(Object.keys(catalog));
  let changed = 0;
  let needsAttention = 0;
  for await (const file of sourceFiles(dir)) {
    const source = await readFile(file, "utf8");
    const result = migrateSource(source, providers);
    const name = relative(dir, file);
    if (result.text !== source) {
      changed++;
      if (!options.dryRun) await writeFile(file, result.text);
      log(`${options.dryRun ? "would change" : "changed"} ${name}: ${result.changes.join(", ")}`);
    }
    for (const note of result.notes) {
      needsAttention++;
      log(`could not change ${name}: ${note}`);
    }
  }
  log(`${changed} file(s) ${options.dryRun ? "would change" : "changed"}; ${needsAttention} thing(s) to do by hand.`);
  if (changed > 0 && !options.dryRun) log("Next: npm uninstall next-auth @auth/core && npm install appauth. See MIGRATION.md.");
  return needsAttention > 0 ? 1 : 0;
}

/** The command line: `migrate [dir] [--dry-run]`; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "migrate") {
    const dryRun = rest.includes("--dry-run");
    const dir = rest.find((arg) => !arg.startsWith("--")) ?? ".";
    return migrate(resolve(dir), { dryRun });
  }
  console.error("usage: appauth migrate [dir] [--dry-run]");
  return 2;
}
