/**
 * The diagram layout engine is a development tool (`npm run visualize`, the docs site): the package
 * published to the registry ships none of it, and nothing it ships imports it or its layout library.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);

/** The files `npm pack` would put in the tarball, from the dist/ built now (no prepare script run). */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
  return pack!.files.map((f) => f.path);
}

describe("the published package", () => {
  it("holds the built library and none of the diagram layout engine", async () => {
    const files = await packedFiles();
    expect(files).toEqual(expect.arrayContaining(["dist/src/index.js", "dist/machines/index.js", "dist/src/testing/index.js"]));
    expect(files.filter((path) => /visuali[sz]e/i.test(path))).toEqual([]);

    const code = files.filter((path) => path.endsWith(".js"));
    const importers: string[] = [];
    for (const path of code) {
      const text = await readFile(new URL(path, root), "utf8");
      if (/from\s+["'][^"']*(?:\/visualize\/|elkjs)/.test(text) || /import\(\s*["'][^"']*(?:\/visualize\/|elkjs)/.test(text)) importers.push(path);
    }
    expect(importers).toEqual([]);
  });

  it("keeps the layout library out of what installing the package pulls in", async () => {
    const pkg = JSON.parse(await readFile(new URL("package.json", root), "utf8")) as Record<string, Record<string, string> | undefined>;
    expect(Object.keys(pkg.dependencies ?? {})).not.toContain("elkjs");
    expect(Object.keys(pkg.peerDependencies ?? {})).not.toContain("elkjs");
    expect(Object.keys(pkg.devDependencies ?? {})).toContain("elkjs");
  });
});
