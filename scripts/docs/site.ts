/**
 * Builds the docs site: the hand-written pages of docs/ (whatever Markdown is there), a page per
 * catalog provider, a page per machine with its diagram, and the API reference, each in one layout
 * with a navigation made from the pages that exist.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { apiPages } from "./api.js";
import { STYLESHEET, renderPage, type Page, type Section } from "./layout.js";
import { machinePages } from "./machines.js";
import { escapeHtml, renderInline, renderMarkdown, type Heading } from "./markdown.js";
import { providerPages } from "./providers.js";

/** Where a hand-written page goes in the navigation; pages not named here follow, by title. */
const PAGE_ORDER: Record<string, number> = {
  "getting-started/next.md": 1,
  "getting-started/node.md": 2,
  "concepts/configuration.md": 1,
  "concepts/sessions.md": 2,
  "concepts/machines.md": 3,
  "concepts/adapters.md": 4,
  "concepts/oauth.md": 5,
  "concepts/email.md": 6,
  "concepts/passkeys.md": 7,
  "concepts/refresh.md": 8,
  "concepts/logout.md": 9,
  "concepts/testing.md": 10,
  "concepts/rate-limits.md": 11,
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

/** Pages this long get a list of their sections under the title (troubleshooting has dozens). */
const CONTENTS_FROM = 8;

function withContents(html: string, sections: Heading[]): string {
  if (sections.length < CONTENTS_FROM) return html;
  const list = sections.map((s) => `<li><a href="#${escapeHtml(s.id)}">${renderInline(s.text)}</a></li>`).join("");
  const contents = `<nav class="contents" aria-label="On this page"><ul>${list}</ul></nav>`;
  // Below the opening paragraph when there is one before the first section, else below the title.
  const title = html.indexOf("</h1>");
  const firstSection = html.indexOf("<h2");
  const paragraph = html.indexOf("</p>", title);
  const at = paragraph !== -1 && paragraph < firstSection ? paragraph + "</p>".length : title === -1 ? 0 : title + "</h1>".length;
  return `${html.slice(0, at)}\n${contents}${html.slice(at)}`;
}

async function handWrittenPages(root: string): Promise<Page[]> {
  const files = await markdownFiles(`${root}/docs`);
  return Promise.all(
    files.map(async (file): Promise<Page> => {
      const { title, html, sections } = renderMarkdown(await readFile(`${root}/docs/${file}`, "utf8"));
      if (!title) throw new Error(`docs/${file}: a page starts with a "# Title" heading`);
      return {
        path: file.replace(/\.md$/, ".html"),
        title: file === "index.md" ? "Overview" : title,
        section: sectionOf(file),
        inNav: true,
        order: PAGE_ORDER[file],
        body: withContents(html, sections),
      };
    }),
  );
}

/** What the site is made from: its pages, the code it documents, the diagrams, and the generator. */
const INPUTS = ["docs", "src", "machines", "integrations", "visualizations", "scripts/docs", "scripts/docs.ts", "package.json", "tsconfig.json", "tsconfig.build.json"];

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

export interface BuiltSite {
  dir: string;
  /** The paths of the pages written, relative to `dir`. */
  pages: string[];
}

/** Builds the site of the repository at `root` into `outDir` (emptied first). */
export async function buildSite(root: string, outDir: string): Promise<BuiltSite> {
  const digest = await siteDigest(root);
  const [written, providers, machines, api] = await Promise.all([handWrittenPages(root), providerPages(root), machinePages(root), apiPages(root)]);
  const pages = [...written, ...providers, ...machines.pages, ...api];
  const paths = new Set<string>();
  for (const page of pages) {
    if (paths.has(page.path)) throw new Error(`two pages would be written to ${page.path}`);
    paths.add(page.path);
  }
  await rm(outDir, { recursive: true, force: true });
  const write = async (path: string, contents: string) => {
    await mkdir(dirname(`${outDir}/${path}`), { recursive: true });
    await writeFile(`${outDir}/${path}`, contents);
  };
  await Promise.all(pages.map((page) => write(page.path, renderPage(page, pages))));
  await write("assets/style.css", STYLESHEET);
  for (const [path, source] of machines.assets) await copyFile(source, `${outDir}/${path}`);
  // Last: a build that stopped half-way has no stamp, so it is never taken for current.
  await write(STAMP, digest);
  return { dir: outDir, pages: [...paths].sort() };
}
