/**
 * Builds the docs site with VitePress: the hand-written pages of docs/ (whatever Markdown is there)
 * and the generated ones (a page per catalog provider, a page per machine with its diagram, the API
 * reference) are written as Markdown into docs/.gen, the sidebar beside them; VitePress builds that
 * into the output folder (docs/.vitepress/config.ts, its theme in docs/.vitepress/theme); then
 * `llms.txt`, `llms-full.txt` and the Markdown of every page are added at the site's root.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { apiPages, type Undescribed } from "./api.js";
import { llmsFiles } from "./llms.js";
import { machinePages } from "./machines.js";
import { sidebar, type Page, type Section } from "./pages.js";
import { providerPages } from "./providers.js";
import { withPackageManagerTabs } from "./tabs.js";
/** Where a hand-written page goes in the navigation; pages not named here follow, by title. */
const PAGE_ORDER: Record<string, number> = {
  "getting-started/next.md": 1,
  "getting-started/node.md": 2,
  "concepts/configuration.md": 1,
  "concepts/sessions.md": 2,
  "concepts/machines.md": 3,
  "concepts/adapters.md": 4,
  "concepts/oauth.md": 5,
  "concepts/fapi.md": 5.5,
  "concepts/email.md": 6,
  "concepts/passkeys.md": 7,
  "concepts/refresh.md": 8,
  "concepts/logout.md": 9,
  "concepts/testing.md": 10,
  "concepts/rate-limits.md": 11,
  "concepts/dpop.md": 12,
};

function sectionOf(file: string): Section {
  if (file === "index.md") return "home";
  if (file === "troubleshooting.md") return "troubleshooting";
  const folder = file.split("/")[0];
  if (folder === "getting-started" || folder === "concepts") return folder;
  throw new Error(`docs/${file}: a page must be index.md, troubleshooting.md, or under getting-started/ or concepts/`);
}

async function markdownFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(`${dir}/${prefix}`, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      // docs/.site is the output; nothing hidden is a page.
      .filter((entry) => !entry.name.startsWith("."))
      .map((entry) =>
        entry.isDirectory()
          ? markdownFiles(dir, `${prefix}${entry.name}/`)
          : Promise.resolve(entry.name.endsWith(".md") ? [`${prefix}${entry.name}`] : []),
      ),
  );
  return nested.flat().sort();
}

async function handWrittenPages(root: string): Promise<Page[]> {
  const files = await markdownFiles(`${root}/docs`);
  return Promise.all(
    files.map(async (file): Promise<Page> => {
      const source = await readFile(`${root}/docs/${file}`, "utf8");
      const title = /^#\s+(.+)$/m.exec(source)?.[1]?.replace(/`/g, "").trim();
      if (!title) throw new Error(`docs/${file}: a page starts with a "# Title" heading`);
      return {
        path: file,
        title: file === "index.md" ? "Overview" : title,
        section: sectionOf(file),
        inNav: true,
        order: PAGE_ORDER[file],
        body: withPackageManagerTabs(source),
      };
    }),
  );
}

/** What the site is made from: its pages, the code it documents, the diagrams, and the generator. */
const INPUTS = [
  "docs",
  "docs/.vitepress/config.ts",
  "docs/.vitepress/theme",
  "src",
  "machines",
  "integrations",
  "visualizations",
  "scripts/docs",
  "scripts/docs.ts",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** The file written last into a built site: the digest of its inputs. */
const STAMP = ".stamp";

async function inputFiles(root: string, path: string): Promise<string[]> {
  const info = await stat(`${root}/${path}`).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) return [path];
  const entries = await readdir(`${root}/${path}`, { withFileTypes: true });
  const nested = await Promise.all(
    entries.filter((entry) => !entry.name.startsWith(".")).map((entry) => inputFiles(root, `${path}/${entry.name}`)),
  );
  return nested.flat();
}

/** A digest of every input of the site: equal digests build equal sites. */
export async function siteDigest(root: string): Promise<string> {
  const files = (await Promise.all(INPUTS.map((input) => inputFiles(root, input)))).flat().sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(`${file}\0`).update(await readFile(`${root}/${file}`)).update("\0");
  return hash.digest("hex");
}

/** Whether the site in `outDir` was built from the repository as it is now. */
export async function isSiteCurrent(root: string, outDir: string): Promise<boolean> {
  const stamp = await readFile(`${outDir}/${STAMP}`, "utf8").catch(() => undefined);
  return stamp !== undefined && stamp === (await siteDigest(root));
}

/** Where the generated Markdown goes (VitePress's `srcDir`, see docs/.vitepress/config.ts). */
export const GENERATED = "docs/.gen";

export interface GeneratedSources {
  pages: Page[];
  /** API reference rows (members of public interfaces, classes and object types) with no description. */
  undescribed: Undescribed[];
}

/** Writes every page as Markdown into `root`/docs/.gen (emptied first), with the sidebar and the diagrams. */
export async function generateSources(root: string): Promise<GeneratedSources> {
  const genDir = `${root}/${GENERATED}`;
  const [written, providers, machines, api] = await Promise.all([handWrittenPages(root), providerPages(root), machinePages(root), apiPages(root)]);
  const pages = [...written, ...providers, ...machines.pages, ...api.pages];
  const paths = new Set<string>();
  for (const page of pages) {
    if (paths.has(page.path)) throw new Error(`two pages would be written to ${page.path}`);
    paths.add(page.path);
  }
  await rm(genDir, { recursive: true, force: true });
  const write = async (path: string, contents: string) => {
    await mkdir(dirname(`${genDir}/${path}`), { recursive: true });
    await writeFile(`${genDir}/${path}`, contents);
  };
  await Promise.all(pages.map((page) => write(page.path, `---\ntitle: ${JSON.stringify(page.title)}\n---\n\n${page.body}\n`)));
  await write("sidebar.json", JSON.stringify(sidebar(pages), null, 1));
  for (const [path, source] of machines.assets) {
    await mkdir(dirname(`${genDir}/public/${path}`), { recursive: true });
    await copyFile(source, `${genDir}/public/${path}`);
  }
  return { pages, undescribed: api.undescribed };
}

export interface BuiltSite extends GeneratedSources {
  dir: string;
}

/** Builds the site of the repository at `root` into `outDir` (emptied first). */
export async function buildSite(root: string, outDir: string): Promise<BuiltSite> {
  const digest = await siteDigest(root);
  const generated = await generateSources(root);
  const { build } = await import("vitepress");
  await rm(outDir, { recursive: true, force: true });
  // Vue's production build, as `vitepress build` uses (under vitest NODE_ENV is "test").
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build(`${root}/docs`, { outDir });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  for (const [path, contents] of llmsFiles(generated.pages)) {
    await mkdir(dirname(`${outDir}/${path}`), { recursive: true });
    await writeFile(`${outDir}/${path}`, contents);
  }
  // Last: a build that stopped half-way has no stamp, so it is never taken for current.
  await writeFile(`${outDir}/${STAMP}`, digest);
  return { dir: outDir, ...generated };
}
