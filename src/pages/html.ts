/**
 * Building HTML safely. Every value that reaches a page goes through `escapeHtml`, either directly
 * or through the `html` tag, which escapes each interpolated value unless it is markup the tag
 * itself produced. Attribute values are always written in double quotes, so escaping the five
 * significant characters is enough for text and attributes alike.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for use in HTML text content or in a double-quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Markup that is already safe: produced by `html` or by `trustedHtml` from values we built. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A value the `html` tag accepts: text (escaped), markup, or a list of those; nothing renders as "". */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** Tagged template that escapes every interpolated value that is not already `SafeHtml`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/**
 * Marks text as markup without escaping it. Only for strings the pages build from validated
 * values (the stylesheet); never for anything a request or a configuration supplied as is.
 */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

// Browsers drop ASCII tab and newline anywhere in a URL and leading control characters and spaces,
// so a scheme is read only after doing the same.
function schemeOf(url: string): string | null {
  // eslint-disable-next-line no-control-regex
  const normalized = url.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+/, "");
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(normalized);
  return match ? (match[1] ?? "").toLowerCase() : null;
}

/**
 * A URL fit for `href` or a form's `action`: http(s) or relative. Anything else (`javascript:`,
 * `data:`, ...) becomes `fallback`. The result still has to be escaped, which `html` does.
 */
export function safeLinkUrl(url: string, fallback = "#"): string {
  const scheme = schemeOf(url);
  return scheme === null || scheme === "http" || scheme === "https" ? url : fallback;
}

/** A URL fit for an `<img src>`: `https:`, `http:` or a `data:image/` URI; otherwise `undefined`. */
export function safeImageUrl(url: string | undefined): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return undefined;
  const scheme = schemeOf(url);
  if (scheme === "https" || scheme === "http") return url;
  // eslint-disable-next-line no-control-regex
  if (scheme === "data" && /^data:image\//i.test(url.replace(/^[\u0000-\u0020]+/, ""))) return url;
  return undefined;
}
