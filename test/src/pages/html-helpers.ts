/**
 * Just enough HTML reading for the page tests (no DOM library is installed). It relies on the
 * pages' own conventions: attribute values always in double quotes, no `>` inside a tag.
 */

export interface Element {
  tag: string;
  attrs: Record<string, string>;
  /** The tag as written, for "this attribute is absent" checks. */
  source: string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

export function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([^\s"'=<>/]+)(?:="([^"]*)")?/g)) {
    attrs[m[1] as string] = decode(m[2] ?? "");
  }
  return attrs;
}

/** Every opening tag `<tag ...>` in document order, with its attributes decoded. */
export function elements(html: string, tag: string): Element[] {
  const out: Element[] = [];
  for (const m of html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>`, "gi"))) {
    out.push({ tag, attrs: parseAttributes(m[1] ?? ""), source: m[0] });
  }
  return out;
}

/** Each `<form>` with its attributes and inner markup. */
export function forms(html: string): { attrs: Record<string, string>; inner: string }[] {
  return [...html.matchAll(/<form(\s[^>]*)?>([\s\S]*?)<\/form>/gi)].map((m) => ({
    attrs: parseAttributes(m[1] ?? ""),
    inner: m[2] ?? "",
  }));
}

/** The form whose action is `action`; fails the test when there is not exactly one. */
export function formPostingTo(html: string, action: string): { attrs: Record<string, string>; inner: string } {
  const found = forms(html).filter((f) => f.attrs["action"] === action);
  if (found.length !== 1) throw new Error(`expected one form posting to ${action}, found ${found.length}`);
  return found[0] as { attrs: Record<string, string>; inner: string };
}

/** The visible text of a fragment: tags removed, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

/** `label for` → label text, for every label. */
export function labels(html: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of html.matchAll(/<label\s+for="([^"]*)"[^>]*>([\s\S]*?)<\/label>/gi)) {
    map.set(decode(m[1] as string), textOf(m[2] as string));
  }
  return map;
}

/** The visible inputs (not hidden), in document order. */
export function visibleInputs(html: string): Element[] {
  return elements(html, "input").filter((e) => e.attrs["type"] !== "hidden");
}

/** The text of each `<button>`, in order. */
export function buttons(html: string): { attrs: Record<string, string>; text: string }[] {
  return [...html.matchAll(/<button(\s[^>]*)?>([\s\S]*?)<\/button>/gi)].map((m) => ({
    attrs: parseAttributes(m[1] ?? ""),
    text: textOf(m[2] ?? ""),
  }));
}

/** The content of the page's `<style>` element. */
export function styleOf(html: string): string {
  return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
}
