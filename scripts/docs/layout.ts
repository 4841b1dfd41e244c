/**
 * The frame around every page of the docs site: a header, a navigation built from the pages that
 * exist, and the content. Links are relative, so the site works from any folder or `file://`.
 */
import { posix } from "node:path";
import { escapeHtml } from "./markdown.js";

/** Where a page sits in the navigation. */
export type Section = "home" | "getting-started" | "concepts" | "troubleshooting" | "providers" | "machines" | "api";

export interface Page {
  /** The page's path in the site, e.g. `providers/github.html`. */
  path: string;
  title: string;
  /** The page's content, HTML. */
  body: string;
  section: Section;
  /** Listed under its section in the navigation (the section's index pages and guides are; the 34 providers are not). */
  inNav: boolean;
  /** Order within its section; ties are sorted by title. */
  order?: number;
}

const SECTION_TITLES: Record<Section, string> = {
  home: "Overview",
  "getting-started": "Getting started",
  concepts: "Concepts",
  troubleshooting: "Troubleshooting",
  providers: "Providers",
  machines: "Flow diagrams",
  api: "API reference",
};

/** The link from the page at `from` to the site path `to` (both relative to the site's root). */
export function relativeHref(from: string, to: string): string {
  const [path, hash] = to.split("#") as [string, string | undefined];
  const target = posix.relative(posix.dirname(from), path) || posix.basename(path);
  return hash === undefined ? target : `${target}#${hash}`;
}

/** A section's own page: its index, which its heading links to (the home page and troubleshooting are one page each). */
function sectionIndex(section: Section, pages: Page[]): Page | undefined {
  const path = section === "home" ? "index.html" : section === "troubleshooting" ? "troubleshooting.html" : `${section}/index.html`;
  return pages.find((page) => page.path === path);
}

function navigation(current: Page, pages: Page[]): string {
  const link = (page: Page, label: string) => {
    const here = page.path === current.path ? ' aria-current="page"' : "";
    return `<a href="${escapeHtml(relativeHref(current.path, page.path))}"${here}>${escapeHtml(label)}</a>`;
  };
  const sections = Object.keys(SECTION_TITLES) as Section[];
  const items = sections.flatMap((section) => {
    const index = sectionIndex(section, pages);
    const listed = pages
      .filter((page) => page.section === section && page.inNav && page !== index)
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.title.localeCompare(b.title));
    if (!index && listed.length === 0) return [];
    const heading = index ? link(index, SECTION_TITLES[section]) : escapeHtml(SECTION_TITLES[section]);
    const children = listed.length ? `<ul>${listed.map((page) => `<li>${link(page, page.title)}</li>`).join("")}</ul>` : "";
    return [`<li><span class="nav-section">${heading}</span>${children}</li>`];
  });
  return `<nav aria-label="Documentation"><ul>${items.join("")}</ul></nav>`;
}

export function renderPage(page: Page, pages: Page[]): string {
  const css = relativeHref(page.path, "assets/style.css");
  const home = relativeHref(page.path, "index.html");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · appauth</title>
<link rel="stylesheet" href="${escapeHtml(css)}">
</head>
<body>
<header class="top"><a class="brand" href="${escapeHtml(home)}">appauth</a> <span>documentation</span></header>
<div class="frame">
${navigation(page, pages)}
<main>
${page.body}
</main>
</div>
</body>
</html>
`;
}

/** The site's only stylesheet: readable defaults, no web fonts, no CDN. */
export const STYLESHEET = `:root { color-scheme: light dark; --fg: #1c1e21; --bg: #fff; --muted: #5b6170; --line: #d8dbe2; --accent: #0f766e; --code: #f3f4f6; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e7ea; --bg: #16181d; --muted: #a0a6b3; --line: #343844; --accent: #5eead4; --code: #22252c; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header.top { padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; text-decoration: none; font-size: 1.15rem; }
header.top span { color: var(--muted); margin-left: .4rem; }
.frame { display: flex; gap: 2rem; max-width: 78rem; margin: 0 auto; padding: 1.5rem; }
nav { flex: 0 0 15rem; font-size: .93rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav ul ul { margin: .2rem 0 1rem .2rem; }
nav .nav-section { display: block; margin-top: .6rem; font-weight: 600; color: var(--muted); text-transform: uppercase; font-size: .78rem; letter-spacing: .04em; }
nav .nav-section a { color: var(--accent); }
nav a { text-decoration: none; display: block; padding: .1rem 0; }
nav a[aria-current="page"] { font-weight: 700; }
main { flex: 1; min-width: 0; }
h1, h2, h3 { line-height: 1.25; }
h2 { margin-top: 2.2rem; padding-top: .4rem; border-top: 1px solid var(--line); }
code { background: var(--code); padding: .1em .3em; border-radius: 3px; font-size: .9em; }
pre { background: var(--code); padding: .8rem 1rem; overflow-x: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
img.diagram { max-width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.kind { font-size: .75rem; color: var(--muted); font-weight: 400; margin-left: .4rem; }
.signature { font-family: ui-monospace, monospace; font-size: .88rem; }
nav.contents { font-size: .9rem; border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1rem; }
nav.contents ul { columns: 3 12rem; }
@media (max-width: 800px) { .frame { flex-direction: column; } nav { flex: none; } }
`;
