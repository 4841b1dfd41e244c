/**
 * The files the codemod reads, and every folder it did not look into, with why. Folders that never
 * hold source (installed packages, version control, framework caches) are skipped wherever they are.
 * `dist`, `build`, `out` and `coverage` are skipped only beside a package.json, where build and test
 * tools write them: a `src/build/` of hand-written code is read. Symbolic links are not followed.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** The file names the codemod reads: JavaScript and TypeScript in every module flavour, JSX included. */
export const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

const NEVER_SOURCE: ReadonlyMap<string, string> = new Map([
  ["node_modules", "installed packages"],
  [".git", "version control"],
  [".hg", "version control"],
  [".svn", "version control"],
  [".next", "Next.js build output"],
  [".turbo", "Turborepo cache"],
  [".vercel", "Vercel build output"],
  [".netlify", "Netlify build output"],
  [".output", "Nitro build output"],
  [".vinxi", "Vinxi build output"],
  [".nuxt", "Nuxt build output"],
  [".svelte-kit", "SvelteKit build output"],
  [".wrangler", "Wrangler build output"],
  [".cache", "tool cache"],
]);

const PACKAGE_OUTPUTS: ReadonlyMap<string, string> = new Map([
  ["dist", "build output beside package.json"],
  ["build", "build output beside package.json"],
  ["out", "build output beside package.json"],
  ["coverage", "coverage report beside package.json"],
]);

/** A folder (or link) the codemod did not read, relative to the walk's root as given. */
export interface Skipped {
  path: string;
  why: string;
}

export interface SourceFiles {
  /** Absolute paths, in a stable (sorted) order. */
  files: string[];
  skipped: Skipped[];
}

/** Walks `root`: every source file under it, and every folder it skipped. */
export async function findSourceFiles(root: string): Promise<SourceFiles> {
  const found: SourceFiles = { files: [], skipped: [] };
  await walk(root, "", found);
  return found;
}

async function walk(root: string, dir: string, found: SourceFiles): Promise<void> {
  const entries = (await readdir(join(root, dir), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const isPackageRoot = entries.some((entry) => entry.name === "package.json" && entry.isFile());
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      const why = NEVER_SOURCE.get(entry.name) ?? (isPackageRoot ? PACKAGE_OUTPUTS.get(entry.name) : undefined);
      if (why) found.skipped.push({ path: `${path}/`, why });
      else await walk(root, path, found);
    } else if (entry.isFile()) {
      if (SOURCE.test(entry.name)) found.files.push(join(root, path));
    } else if (entry.isSymbolicLink() && (SOURCE.test(entry.name) || (await isDirectory(join(root, path))))) {
      found.skipped.push({ path, why: "symbolic link, not followed" });
    }
  }
}

const isDirectory = (path: string): Promise<boolean> => stat(path).then((stats) => stats.isDirectory(), () => false);
