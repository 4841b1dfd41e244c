/**
 * The pages of the docs site as the generator makes them (Markdown, for VitePress) and the sidebar
 * made from the pages that exist: hand-written guides and concepts, one page per catalog provider,
 * per machine, and per public entry point.
 */

/** Where a page sits in the sidebar. */
export type Section = "home" | "getting-started" | "concepts" | "troubleshooting" | "providers" | "machines" | "api";

export interface Page {
  /** The page's source path in the site, e.g. `providers/github.md` (built as `providers/github.html`). */
  path: string;
  title: string;
  /** The page's content, Markdown (HTML allowed). */
  body: string;
  section: Section;
  /** Listed under its section in the sidebar (the catalog's provider modules in the API reference are not). */
  inNav: boolean;
  /** Order within its section; ties are sorted by title. */
  order?: number;
}

export const SECTION_TITLES: Record<Section, string> = {
  home: "Overview",
  "getting-started": "Getting started",
  concepts: "Concepts",
  troubleshooting: "Troubleshooting",
  providers: "Providers",
  machines: "Flow diagrams",
  api: "API reference",
};

/** Sections whose pages are many: their sidebar group starts folded. */
const FOLDED = new Set<Section>(["providers", "api"]);

export interface SidebarItem {
  text: string;
  link?: string;
  items?: SidebarItem[];
  collapsed?: boolean;
}

/** `concepts/sessions.md` → `/concepts/sessions`, `providers/index.md` → `/providers/`. */
export function pageLink(path: string): string {
  return `/${path.replace(/\.md$/, "").replace(/(^|\/)index$/, "$1")}`;
}

/** The VitePress sidebar: a group per section, its index page as the group's link. */
export function sidebar(pages: Page[]): SidebarItem[] {
  const sections = Object.keys(SECTION_TITLES) as Section[];
  return sections.flatMap((section): SidebarItem[] => {
    const index = pages.find((page) => page.path === (section === "home" ? "index.md" : section === "troubleshooting" ? "troubleshooting.md" : `${section}/index.md`));
    const listed = pages
      .filter((page) => page.section === section && page.inNav && page !== index)
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.title.localeCompare(b.title));
    if (!index && listed.length === 0) return [];
    const group: SidebarItem = { text: SECTION_TITLES[section], ...(index ? { link: pageLink(index.path) } : {}) };
    if (listed.length) Object.assign(group, { items: listed.map((page) => ({ text: page.title, link: pageLink(page.path) })), collapsed: FOLDED.has(section) });
    return [group];
  });
}
