/**
 * The Next.js, Qwik City and SolidStart examples share one stylesheet, examples/shared/demo.css:
 * each imports that file (none keeps a copy), so they look alike and cannot drift apart. The
 * examples' browser suites measure what it draws (contrast in both schemes, the header on a phone).
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const SHARED = join(EXAMPLES, "shared", "demo.css");
/** Each example's root, where its global stylesheet is imported. */
const ROOTS = { next: "next/app/layout.tsx", qwik: "qwik/src/root.tsx", "solid-start": "solid-start/src/app.tsx" } as const;
/** Build output and installed packages: not the examples' sources. */
const NOT_SOURCES = new Set(["node_modules", ".next", ".output", ".vinxi", "dist", "server", "tmp", ".data"]);

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (NOT_SOURCES.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

describe("the examples' shared stylesheet", () => {
  it.each(Object.entries(ROOTS))("%s imports examples/shared/demo.css from its root", async (_example, root) => {
    const source = await readFile(join(EXAMPLES, root), "utf8");
    const stylesheets = [...source.matchAll(/^import\s+"([^"]+\.css)";/gm)].map((match) => resolve(dirname(join(EXAMPLES, root)), match[1]!));
    expect(stylesheets).toEqual([SHARED]);
  });

  it("is the only stylesheet in the three examples' sources", async () => {
    const stylesheets: string[] = [];
    for (const example of [...Object.keys(ROOTS), "shared"]) {
      for (const file of await filesUnder(join(EXAMPLES, example))) if (file.endsWith(".css")) stylesheets.push(relative(EXAMPLES, file));
    }
    expect(stylesheets).toEqual(["shared/demo.css"]);
  });
});
