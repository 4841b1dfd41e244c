/**
 * `llms.txt` (https://llmstxt.org): the site's map for language models, a title, a summary and a
 * list of links per section, each to the Markdown of a page, which is published beside its HTML
 * (`/concepts/sessions.md`). `llms-full.txt` is every page's Markdown in one file.
 */
import { SECTION_TITLES, type Page, type Section } from "./pages.js";

const SUMMARY =
  "appauth adds sign-in and sessions to web applications (Next.js, Qwik City, SolidStart, any Request/Response server): " +
  "OAuth 2 and OpenID Connect providers, passwords, email links and passkeys, with every flow an explicit XState state machine. " +
  "Its routes, JSON and error codes are the ones Auth.js users know.";

/** A page's Markdown without the site's own markup (heading anchors, badges, tab groups, diagrams). */
export function plainMarkdown(page: Page): string {
  return page.body
    .replace(/ <Badge type="info" text="([^"]*)" \/>/g, " ($1)")
    .replace(/ \{#[^}\s]+\}$/gm, "")
    .replace(/^::: code-group\n\n|\n\n:::$/gm, "")
    .replace(/<Diagram src="([^"]+)" alt="([^"]*)" \/>/g, "![$2]($1)");
}

/** The opening sentence of a page, after its title, on one line. */
function summaryOf(page: Page): string {
  const paragraph = plainMarkdown(page)
    .replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "")
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block && !/^(#|```|\||-|<|!\[)/.test(block));
  // Links are shown as their text: a page's relative links do not resolve from llms.txt.
  const line = (paragraph ?? "").replace(/\s+/g, " ").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
  const sentence = /^(.*?\.)(?:\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}…` : sentence;
}

/** The files to add at the site's root: `llms.txt`, `llms-full.txt` and each page's Markdown. */
export function llmsFiles(pages: Page[]): Map<string, string> {
  const files = new Map<string, string>();
  const sections = Object.keys(SECTION_TITLES) as Section[];
  const listed = (section: Section) =>
    pages
      .filter((page) => page.section === section)
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.title.localeCompare(b.title))
      .map((page) => {
        const summary = summaryOf(page);
        return `- [${page.title}](/${page.path})${summary ? `: ${summary}` : ""}`;
      });
  const body = sections
    .map((section) => [section, listed(section)] as const)
    .filter(([, lines]) => lines.length)
    // The API reference comes last, as "Optional": a reader with little room can skip it.
    .map(([section, lines]) => `## ${section === "api" ? "Optional" : SECTION_TITLES[section]}\n\n${lines.join("\n")}`);
  files.set("llms.txt", `# appauth\n\n> ${SUMMARY}\n\nEvery link is the Markdown of a page of this site; llms-full.txt has them all in one file.\n\n${body.join("\n\n")}\n`);
  const full = pages.map((page) => `<!-- /${page.path} -->\n\n${plainMarkdown(page).trim()}\n`);
  files.set("llms-full.txt", `# appauth\n\n> ${SUMMARY}\n\n${full.join("\n")}`);
  for (const page of pages) files.set(page.path, `${plainMarkdown(page).trim()}\n`);
  return files;
}
