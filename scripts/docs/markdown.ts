/**
 * Markdown to HTML for the docs site. Two rules on top of CommonMark: every heading gets an `id`
 * (its text, lowercased, so `## UntrustedHost` is `#untrustedhost`, the anchor the error messages
 * point at), and a relative link to a `.md` page is rewritten to its `.html` page, so the sources
 * read well on GitHub and the site links to itself.
 */
import MarkdownIt from "markdown-it";

/** `MissingAdapterMethods` → `missingadaptermethods`, `Getting started (Next.js)` → `getting-started-nextjs`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{Letter}\p{Number}\s_-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
}

/** `../concepts/sessions.md#jwt` → `../concepts/sessions.html#jwt`; absolute URLs are left alone. */
export function siteHref(href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) return href;
  return href.replace(/\.md(?=$|#)/, ".html");
}

function createRenderer(): ReturnType<typeof MarkdownIt> {
  // No raw HTML: what the comments of the sources say is shown as written (`<id>` is text, not a tag).
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.core.ruler.push("heading_ids", (state) => {
    const used = new Set<string>();
    const sections = (state.env as { sections?: Heading[] }).sections;
    state.tokens.forEach((token, index) => {
      if (token.type !== "heading_open") return;
      const text = state.tokens[index + 1]?.children?.map((child) => child.content).join("") ?? "";
      const base = slug(text) || "section";
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      token.attrSet("id", id);
      if (token.tag === "h2") sections?.push({ id, text });
    });
  });
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const href = token.attrGet("href");
    if (typeof href === "string") token.attrSet("href", siteHref(href));
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
}

const renderer = createRenderer();

export interface Heading {
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  /** The text of the first level-one heading (the page's title), or undefined when there is none. */
  title: string | undefined;
  html: string;
  /** The level-two headings, in order: the page's sections. */
  sections: Heading[];
}

export function renderMarkdown(source: string): RenderedMarkdown {
  const title = /^#\s+(.+)$/m.exec(source)?.[1]?.replace(/`/g, "").trim();
  const env = { sections: [] as Heading[] };
  return { title, html: renderer.render(source, env), sections: env.sections };
}

/** Inline Markdown (no wrapping paragraph), for table cells and one-line summaries. */
export function renderInline(source: string): string {
  return renderer.renderInline(source);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Markdown from the comments of the sources, made safe for VitePress, which compiles every page as
 * a Vue template: outside code, `<` starts no tag (`<id>` stays text) and `{{` no interpolation.
 * Autolinks (`<https://…>`) are kept.
 */
export function proseMarkdown(source: string): string {
  return source
    .split(/(^```[\s\S]*?^```$|`[^`\n]*`)/m)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/<(?!https:\/\/[^>\s]+>)/g, "&lt;").replace(/\{\{/g, "&#123;&#123;")))
    .join("");
}

/**
 * The opening `/** ... *\/` comment of a source file as Markdown, without its `@see` lines (returned
 * apart, for a list of links). Used for the provider and machine pages, whose sources open with one.
 */
export function leadingComment(source: string): { text: string; see: string[] } {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match) return { text: "", see: [] };
  const lines = match[1]!.split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
  const see = lines.filter((line) => line.startsWith("@see ")).map((line) => line.slice(5).trim());
  const text = lines
    .filter((line) => !line.startsWith("@"))
    .join("\n")
    .trim();
  return { text, see };
}
