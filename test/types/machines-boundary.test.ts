/**
 * `appauth/machines` is the flows' definitions for a custom server: what its files import, types
 * included, must be public API. So a machine reaches into `src/` only for `src/types.ts` (the types
 * `appauth` itself exports); anything else there (the routing context, the cookie jar, the runtime)
 * is the library's inside, which an embedding server neither has nor should have to rebuild.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const machinesDir = join(root, "machines");

/** The only module of `src/` a machine may import: the public types. */
const PUBLIC_SRC = new Set(["src/types.ts"]);

/** Every module specifier of `source`: static imports and re-exports (`import type` too), and `import("…")` types. */
function specifiersOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** The repository path a relative specifier of `file` names (`.js` as the `.ts` it is compiled from). */
function resolved(file: string, specifier: string): string {
  return relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, ".ts").split("\\").join("/");
}

const machineFiles = readdirSync(machinesDir)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => join(machinesDir, name));

describe("the imports of appauth/machines", () => {
  it("finds every kind of import statement it is asked to judge", () => {
    const source = [
      'import { setup } from "xstate";',
      'import type { JWT } from "../src/types.js";',
      'import {\n  effect,\n  type FlowFailure,\n} from "./shared.js";',
      'export * from "./oauth.machine.js";',
      'export type { A } from "../src/request-context.js";',
      'type C = import("../src/cookies.js").CookieJar;',
      'import "./side-effect.js";',
    ].join("\n");
    expect(specifiersOf(source).sort()).toEqual(
      ["xstate", "../src/types.js", "./shared.js", "./oauth.machine.js", "../src/request-context.js", "../src/cookies.js", "./side-effect.js"].sort(),
    );
  });

  it("reach nothing in src/ but the public types", () => {
    expect(machineFiles.length).toBeGreaterThan(10);
    const internal: string[] = [];
    for (const file of machineFiles) {
      for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
        if (!specifier.startsWith(".")) continue;
        const target = resolved(file, specifier);
        if (target.startsWith("machines/") || PUBLIC_SRC.has(target)) continue;
        internal.push(`${relative(root, file)} imports ${target}`);
      }
    }
    expect(internal).toEqual([]);
  });

  it("import no package but xstate", () => {
    const packages = new Set<string>();
    for (const file of machineFiles) {
      for (const specifier of specifiersOf(readFileSync(file, "utf8"))) if (!specifier.startsWith(".")) packages.add(specifier);
    }
    expect([...packages]).toEqual(["xstate"]);
  });
});
