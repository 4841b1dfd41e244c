/** The document every built-in page shares: head, inline stylesheet, optional logo, the card. */
import { html, safeImageUrl, trustedHtml, type SafeHtml } from "./html.js";
import { stylesheet } from "./theme.js";
import type { PageTheme } from "./types.js";

export interface DocumentOptions {
  title: string;
  theme: PageTheme;
  /** The card's content. */
  body: SafeHtml;
  /** Attributes of the `<main>` element beyond its class (already escaped markup). */
  mainAttributes?: SafeHtml;
  /** Extra CSS rules built from validated values only. */
  extraCss?: string;
  /** Centre the card's text (short message pages). */
  centered?: boolean;
}

/** A complete HTML document. */
export function renderDocument(options: DocumentOptions): string {
  const { title, theme, body } = options;
  const logo = safeImageUrl(theme.logo);
  const scheme =
    theme.colorScheme === "light" ? "light" : theme.colorScheme === "dark" ? "dark" : "light dark";
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${trustedHtml(stylesheet(theme, options.extraCss))}</style>
</head>
<body>
<div class="page">
${logo ? html`<img class="logo" src="${logo}" alt="">` : ""}
<main class="${options.centered ? "card centered" : "card"}"${options.mainAttributes ?? ""}>
${body}
</main>
</div>
</body>
</html>
`;
  return doc.value;
}
