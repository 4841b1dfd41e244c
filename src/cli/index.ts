/**
 * The commands of `npx appauth …` (bin.ts runs them). Node-only, never imported by the library.
 *
 *   appauth migrate [dir] [--dry-run]   rewrite a next-auth v5 / @auth/* app to import appauth
 *
 * `migrate` plans every file before it writes any, then writes all or nothing (write-all.ts). Exit
 * codes: 0 done, 1 done but something needs a person (a file it could not read or change), 2 a
 * command line it does not understand, 3 refused: nothing was written.
 */
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { catalog } from "../providers/catalog/index.js";
import { type MigratedSource, migrateSource } from "./migrate.js";
import { findSourceFiles } from "./source-files.js";
import { loadTypeScript, NO_TYPESCRIPT } from "./typescript.js";
import { type PlannedWrite, writeAll } from "./write-all.js";

const USAGE = "usage: appauth migrate [dir] [--dry-run]";

/** Exit codes of `appauth`. */
export const EXIT = { done: 0, needsAttention: 1, usage: 2, refused: 3 } as const;

export interface MigrateOptions {
  /** Print the plan (each file, each line it would change) and write nothing. */
  dryRun?: boolean;
  /** Where the report goes, line by line (stdout by default). */
  log?: (line: string) => void;
  /** Where a refusal goes, as one line (stderr by default). */
  error?: (line: string) => void;
}

// `ignoreBOM` keeps a byte-order mark in the text, so it is written back as it was.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Runs the codemod over `dir`; returns the exit code (see EXIT). */
export async function migrate(dir: string, options: MigrateOptions = {}): Promise<number> {
  const log = options.log ?? ((line: string) => console.log(line));
  const error = options.error ?? ((line: string) => console.error(line));
  const ts = loadTypeScript(dir);
  if (!ts) {
    error(NO_TYPESCRIPT);
    return EXIT.refused;
  }
  const providers = new Set(Object.keys(catalog));
  const { files, skipped } = await findSourceFiles(dir);
  for (const folder of skipped) log(`skipped ${folder.path} (${folder.why})`);
  const plan: PlannedWrite[] = [];
  const planLines: string[] = [];
  let needsAttention = 0;
  const untouched = (name: string, why: string) => {
    needsAttention++;
    log(`left untouched ${name}: ${why}`);
  };
  for (const file of files) {
    const name = relative(dir, file);
    const bytes = new Uint8Array(await readFile(file));
    let source: string;
    try {
      source = UTF8.decode(bytes);
    } catch {
      untouched(name, "not UTF-8 text, so not read");
      continue;
    }
    let result: MigratedSource;
    try {
      result = migrateSource(source, providers, { ts, fileName: file });
    } catch (failure) {
      // A construct the codemod does not foresee costs this file, not the run.
      untouched(name, `could not be planned (${(failure as Error).message})`);
      continue;
    }
    if (result.syntaxError) {
      untouched(name, `does not parse (${result.syntaxError})`);
      continue;
    }
    if (result.text !== source) {
      plan.push({ path: file, content: new TextEncoder().encode(result.text), original: bytes });
      planLines.push(`${options.dryRun ? "would change" : "changed"} ${name}: ${result.changes.join(", ")}`);
      if (options.dryRun) planLines.push(...changedLines(source, result.text));
    }
    for (const note of result.notes) {
      needsAttention++;
      log(`could not change ${name}: ${note}`);
    }
  }
  if (!options.dryRun && plan.length > 0) {
    const refusal = await writeAll(plan);
    if (refusal) {
      error(`appauth migrate: cannot write ${relative(dir, refusal.path)} (${refusal.reason}); nothing was changed.`);
      return EXIT.refused;
    }
  }
  for (const line of planLines) log(line);
  log(`${plan.length} file(s) ${options.dryRun ? "would change" : "changed"}; ${needsAttention} thing(s) to do by hand.`);
  if (plan.length > 0 && !options.dryRun) log("Next: npm uninstall next-auth @auth/core && npm install appauth. See MIGRATION.md.");
  return needsAttention > 0 ? EXIT.needsAttention : EXIT.done;
}

/** Each line the rewrite changes, before and after. Edits never add or remove a line, so lines pair up by number. */
function changedLines(before: string, after: string): string[] {
  const old = before.split("\n");
  const lines: string[] = [];
  for (const [index, line] of after.split("\n").entries()) {
    if (line === old[index]) continue;
    lines.push(`  ${index + 1} - ${old[index]?.replace(/\r$/, "")}`, `  ${index + 1} + ${line.replace(/\r$/, "")}`);
  }
  return lines;
}

/** The command line: `migrate [dir] [--dry-run]`; returns the exit code. Unknown flags are refused, never ignored. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "migrate") return usage(command === undefined ? undefined : `unknown command "${command}"`);
  let args: ReturnType<typeof parseMigrateArgs>;
  try {
    args = parseMigrateArgs(rest);
  } catch (error) {
    // parseArgs goes on to explain `--` for positionals that start with a dash: the first sentence is the news.
    return usage((error as Error).message.split(". ")[0]!);
  }
  if (args.values.help) {
    console.log(USAGE);
    return EXIT.done;
  }
  if (args.positionals.length > 1) return usage(`one folder at most, got ${args.positionals.length}`);
  try {
    return await migrate(resolve(args.positionals[0] ?? "."), { dryRun: args.values["dry-run"] === true });
  } catch (error) {
    // A folder it cannot read, say: nothing is written before every file is planned, so nothing was.
    console.error(`appauth migrate: ${(error as Error).message}; nothing was changed.`);
    return EXIT.refused;
  }
}

function parseMigrateArgs(args: string[]): { values: { "dry-run"?: boolean; help?: boolean }; positionals: string[] } {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
}

function usage(problem: string | undefined): number {
  if (problem) console.error(`appauth: ${problem}`);
  console.error(USAGE);
  return EXIT.usage;
}
