/**
 * The module graph of the entries that run on edge runtimes (`appauth`, `appauth/next/middleware`)
 * holds no Node built-in and no AsyncLocalStorage (issue 31): each entry of the BUILT package is
 * bundled with esbuild as an edge bundler resolves it, dynamic imports included, and the metafile's
 * imports are read. A Node-only entry (`appauth/adapters/redis`) is bundled the same way to show the
 * check sees a `node:` import when there is one.
 */
import { builtinModules } from "node:module";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { ROOT } from "./harness.js";

const NODE_BUILTINS = new Set(builtinModules);

interface EntryGraph {
  inputs: string[];
  /** `importer → node built-in` for every Node built-in reached. */
  nodeImports: string[];
  text: string;
}

async function graphOf(subpath: string): Promise<EntryGraph> {
  const exports = (await import(join(ROOT, "package.json"), { with: { type: "json" } })).default.exports as Record<string, { import: string }>;
  const entry = join(ROOT, exports[subpath]!.import);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: "esm",
    // Built-ins left external so they are listed, not refused: the test names each one.
    platform: "node",
    conditions: ["edge-light", "worker", "browser", "import"],
    mainFields: ["browser", "module", "main"],
    external: ["next", "next/*", "react", "ioredis"],
    metafile: true,
    logLevel: "silent",
  });
  const metafile: Metafile = result.metafile;
  const nodeImports = Object.entries(metafile.inputs).flatMap(([input, { imports }]) =>
    imports.filter(({ path }) => path.startsWith("node:") || NODE_BUILTINS.has(path)).map(({ path }) => `${input} → ${path}`),
  );
  return { inputs: Object.keys(metafile.inputs), nodeImports, text: result.outputFiles[0]!.text };
}

describe.skipIf(!existsSync(join(ROOT, "dist/src/index.js")))("the edge entries' module graph (built package)", () => {
  // Each with a module it must reach, so an entry that resolved to nothing cannot pass.
  it.each([
    [".", "dist/src/handler.js"],
    ["./next/middleware", "dist/src/server/session-read.js"],
  ])("%s imports no Node built-in and no AsyncLocalStorage, dynamic imports included", async (subpath, reached) => {
    const graph = await graphOf(subpath);
    expect(graph.inputs).toContain(reached);
    expect(graph.nodeImports).toEqual([]);
    expect(graph.text).not.toContain("AsyncLocalStorage");
  });

  it("sees the `node:` import of a Node-only entry (the Redis adapter's script hashing)", async () => {
    const graph = await graphOf("./adapters/redis");
    expect(graph.nodeImports).toEqual([expect.stringMatching(/dist\/src\/adapters\/redis\/scripts\.js → node:crypto$/)]);
  });
});
