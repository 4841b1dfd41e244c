/**
 * The catalog's provider marks: original, deliberately plain glyphs drawn for appauth (a monogram
 * stroked on a small tile), not the providers' trademarked logos. Each mark is a self-contained
 * `data:image/svg+xml` URI: no external reference, no script, a few hundred bytes.
 */

export type TileShape = "rounded" | "circle" | "squircle";

export interface MarkOptions {
  /** The glyph's stroke colour (#rrggbb): usually the brand colour, darker when that is too light. */
  ink: string;
  /** The tile's fill (#rrggbb). Default white, so the mark stands out on the brand-coloured button. */
  tile?: string;
  shape?: TileShape;
  /** Stroke width of the glyph in the 24×24 grid. Default 2.4. */
  weight?: number;
}

const shapes: Record<TileShape, string> = {
  rounded: '<rect width="24" height="24" rx="6"/>',
  circle: '<circle cx="12" cy="12" r="12"/>',
  squircle: '<path d="M12 0C21 0 24 3 24 12s-3 12-12 12S0 21 0 12 3 0 12 0z"/>',
};

/**
 * Encodes an SVG document as a `data:` URI. Only what must be escaped in a URI (and in an HTML
 * attribute) is percent-encoded, so the result stays short and readable.
 */
export function svgDataUri(svg: string): string {
  const compact = svg.replace(/\s*\n\s*/g, " ").replace(/>\s+</g, "><").trim().replace(/"/g, "'");
  const encoded = compact.replace(/[%#<>?&[\]{}|\\^`\s]/g, (c) => (c === " " ? " " : encodeURIComponent(c)));
  return `data:image/svg+xml,${encoded}`;
}

/**
 * A glyph (path data in a 24×24 grid, stroked) on a tile. The glyph is kept inside the 5..19 box
 * so it reads at the 20px size of a sign-in button.
 */
export function mark(glyph: string, options: MarkOptions): string {
  const { ink, tile = "#ffffff", shape = "rounded", weight = 2.4 } = options;
  return svgDataUri(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">` +
      `<g fill="${tile}">${shapes[shape]}</g>` +
      `<path d="${glyph}" fill="none" stroke="${ink}" stroke-width="${weight}" stroke-linecap="round" stroke-linejoin="round"/>` +
      `</svg>`,
  );
}

/**
 * Monogram strokes, one letter each, drawn for this catalog on a 24×24 grid (x 6..18, y 6..18).
 * Letters that need it share a width so marks look alike across providers.
 */
export const glyphs = {
  A: "M7 18 12 6l5 12M8.8 14h6.4",
  B: "M8 12h4.6a3 3 0 0 0 0-6H8v12h5.2a3 3 0 0 0 0-6",
  C: "M16.9 8.6A6 6 0 1 0 16.9 15.4",
  D: "M8 6v12h3.5a6 6 0 0 0 0-12z",
  E: "M16 6H8v12h8M8 12h6",
  F: "M16 6H8v12M8 12h6",
  G: "M16.9 8.6A6 6 0 1 0 18 12h-5",
  H: "M8 6v12M16 6v12M8 12h8",
  I: "M9 6h6M12 6v12M9 18h6",
  K: "M8 6v12m8-12-8 7.2m3-2.6 5 7.4",
  L: "M8 6v12h8",
  M: "M6.5 18V6l5.5 7.5L17.5 6v12",
  N: "M8 18V6l8 12V6",
  O: "M12 6a6 6 0 1 0 0 12 6 6 0 0 0 0-12z",
  P: "M8 18V6h4.8a3.2 3.2 0 0 1 0 6.4H8",
  R: "M8 18V6h4.8a3.2 3.2 0 0 1 0 6.4H8m4.4 0L16 18",
  S: "M16 8.4C15.2 6.9 13.8 6 12 6 9.8 6 8.2 7.3 8.2 9s1.5 2.4 3.8 3c2.3.6 3.9 1.3 3.9 3s-1.7 3-3.9 3c-1.8 0-3.3-.8-4.1-2.3",
  T: "M6.5 6h11M12 6v12",
  W: "M5.5 6l2.7 12L12 8.5l3.8 9.5L18.5 6",
  X: "M7 6l10 12M17 6 7 18",
  Y: "M7 6l5 6.5L17 6M12 12.5V18",
  Z: "M7 6h10L7 18h10",
} as const;
