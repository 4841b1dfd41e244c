/**
 * The codemod reads files with the TypeScript compiler's parser. TypeScript is not a dependency of
 * appauth (an app that only signs people in should not install a compiler), so it is looked up when
 * the command runs: the migrated project's own copy first (the version its code is written for),
 * then whatever copy resolves from appauth itself (`npx -p typescript -p appauth ...`).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type ts from "typescript";

export type TypeScriptApi = typeof ts;

/** What to tell someone whose project has no TypeScript to lend the codemod. */
export const NO_TYPESCRIPT =
  "appauth migrate reads your files with the typescript package, which was not found: run it as `npx -p typescript -p appauth appauth migrate`, or install typescript in the project";

/** TypeScript as the project at `projectDir` resolves it, else as `fallbackFrom` does; `undefined` when neither has it. */
export function loadTypeScript(projectDir: string, fallbackFrom: string | URL = import.meta.url): TypeScriptApi | undefined {
  // createRequire wants a file in the folder to resolve from; it need not exist.
  for (const from of [join(projectDir, "package.json"), fallbackFrom]) {
    try {
      const api = createRequire(from)("typescript") as TypeScriptApi;
      if (typeof api.createSourceFile === "function") return api;
    } catch {
      // Not installed, or a copy that cannot be required here (TypeScript 7's native port is ESM,
      // without the compiler API): try the next one.
    }
  }
  return undefined;
}
