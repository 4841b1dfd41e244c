/**
 * The link checker of the built site: every internal link and image must reach a file of the site,
 * every `#anchor` an `id` on the target page, and every external link must be a well-formed https
 * URL (none is fetched: the check runs offline). An `id` used twice on one page is reported too,
 * since only the first could be reached.
 */
import { readFile, readdir } from "node:fs/promises";
import { posix } from "node:path";

export interface SiteIndex {
  /** Every file of the site, by path relative to its root. */
  files: Set<string>;
  /** The `id`s of each HTML page. */
  ids: Map<string, Set<string>>;
  /** The `href` and `src` values of each HTML page. */
  links: Map<string, string[]>;
  /** The `id`s each page uses more than once. */
  duplicateIds: Map<string, string[]>;
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(`${dir}/${prefix}`, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? listFiles(dir, `${prefix}${entry.name}/`) : Promise.resolve([`${prefix}${entry.name}`]))),
  );
  return nested.flat();
}

function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

export async function indexSite(dir: string): Promise<SiteIndex> {
  const files = new Set(await listFiles(dir));
  const ids = new Map<string, Set<string>>();
  const links = new Map<string, string[]>();
  const duplicateIds = new Map<string, string[]>();
  for (const file of files) {
    if (!file.endsWith(".html")) continue;
    const html = await readFile(`${dir}/${file}`, "utf8");
    const found = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => unescapeAttribute(m[1]!));
    const duplicates = found.filter((id, i) => found.indexOf(id) !== i);
    ids.set(file, new Set(found));
    links.set(file, [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => unescapeAttribute(m[1]!)));
    if (duplicates.length) duplicateIds.set(file, [...new Set(duplicates)]);
  }
  return { files, ids, links, duplicateIds };
}

/** What is wrong with one link of `page`, or undefined when it resolves. */
function problemWith(index: SiteIndex, page: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return "not a well-formed URL";
    }
    return url.protocol === "https:" && url.hostname.includes(".") ? undefined : "external links must be https URLs";
  }
  if (href === "") return "empty link";
  const [pathAndQuery, hash] = href.split("#", 2) as [string, string | undefined];
  const path = pathAndQuery.split("?")[0]!;
  // Root-relative links (VitePress writes `/concepts/sessions.html`) start at the site's root; a
  // folder's address is its index.html.
  const joined = path.startsWith("/") ? posix.normalize(`.${decodeURIComponent(path)}`) : posix.normalize(posix.join(posix.dirname(page), decodeURIComponent(path)));
  const target = path === "" ? page : joined.endsWith("/") || path.endsWith("/") ? `${joined.replace(/\/?$/, "/")}index.html`.replace(/^\.\//, "") : joined;
  if (target.startsWith("..")) return "points outside the site";
  if (!index.files.has(target)) return `no such page: ${target}`;
  if (hash === undefined || hash === "") return undefined;
  const ids = index.ids.get(target);
  if (!ids) return `${target} is not a page, it has no anchors`;
  return ids.has(decodeURIComponent(hash)) ? undefined : `${target} has no anchor #${hash}`;
}

/** Every broken link of the site in `dir`, as `page: link: reason` lines (none when all resolve). */
export async function checkLinks(dir: string): Promise<string[]> {
  const index = await indexSite(dir);
  const problems: string[] = [];
  for (const [page, ids] of index.duplicateIds) problems.push(...ids.map((id) => `${page}: #${id}: the id is used more than once on the page`));
  for (const [page, hrefs] of [...index.links].sort(([a], [b]) => a.localeCompare(b))) {
    for (const href of hrefs) {
      const problem = problemWith(index, page, href);
      if (problem) problems.push(`${page}: ${href}: ${problem}`);
    }
  }
  return problems;
}
