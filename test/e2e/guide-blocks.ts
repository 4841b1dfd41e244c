/**
 * The files of a getting-started guide, read from its code blocks: a block whose info string has
 * `title="<path>"` (```tsx title="app/layout.tsx") is that file of the reader's app, whole. A guide
 * test writes them into a fresh app, so what the page shows is what the test builds: the two
 * cannot drift. Blocks without a title (sketches, alternatives, shell sessions) are prose.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packAndServe, type FreshAppSpec, type ServedApp, type ServerCommand } from "./fresh-next/harness.js";

export interface GuideBlock {
  /** The info string's language (`ts`, `tsx`, `sh`). */
  lang: string;
  /** The `title` attribute: a path in the app, or a name such as `run` for a shell block. */
  title: string;
  code: string;
}

/** The guide `docs/<path>`'s titled code blocks, in order. */
export async function guideBlocks(path: string): Promise<GuideBlock[]> {
  const markdown = await readFile(fileURLToPath(new URL(`../../docs/${path}`, import.meta.url)), "utf8");
  const blocks: GuideBlock[] = [];
  const fence = /^```(\w*)[ \t]+([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const title = /\btitle="([^"]+)"/.exec(match[2]!)?.[1];
    if (title) blocks.push({ lang: match[1]!, title, code: match[3]! });
  }
  return blocks;
}

/** The block titled `title`; throws when the guide has none, naming it. */
export function block(blocks: GuideBlock[], title: string): GuideBlock {
  const found = blocks.find((b) => b.title === title);
  if (!found) throw new Error(`the guide has no code block titled "${title}"`);
  return found;
}

/** Writes every block whose title is a path (has a dot or a slash) under `dir`; the paths written. */
export async function writeGuideFiles(blocks: GuideBlock[], dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const { title, code } of blocks) {
    if (!/[./]/.test(title)) continue;
    const target = join(dir, title);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, code);
    written.push(title);
  }
  return written;
}

/** The package names an `npm install` line of a shell block installs (flags and comments left out). */
export function installedPackages(code: string): string[] {
  return code
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => /^npm install\b/.test(line))
    .flatMap((line) => line.split(/\s+/).slice(2).filter((word) => !word.startsWith("-")));
}

/**
 * A fresh app of `spec`'s starter files with the guide's files in place of the ones named in
 * `replaced` (the fresh-app test's own routes and libraries), built and served with `server` by
 * `packAndServe`; the template folder goes when the app is closed.
 */
export async function packAndServeGuide(blocks: GuideBlock[], spec: FreshAppSpec, server: ServerCommand, replaced: string[]): Promise<ServedApp> {
  const template = await mkdtemp(join(tmpdir(), `appauth-guide-${spec.name}-`));
  const removeTemplate = () => rm(template, { recursive: true, force: true });
  try {
    await cp(spec.template!, template, { recursive: true });
    for (const path of replaced) await rm(join(template, path), { recursive: true, force: true });
    await writeGuideFiles(blocks, template);
    const served = await packAndServe({ ...spec, name: `guide-${spec.name}`, template }, server);
    return {
      ...served,
      async close() {
        await served.close();
        await removeTemplate();
      },
    };
  } catch (error) {
    await removeTemplate();
    throw error;
  }
}
