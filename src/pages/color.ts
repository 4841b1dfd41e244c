/**
 * Colours that come from configuration (theme and provider brand colours) are parsed here before
 * they reach a stylesheet. Only a strict subset of CSS is accepted — `#rgb`, `#rrggbb`,
 * `rgb(r, g, b)`, `hsl(h, s%, l%)` and the named colours — and what is written to the page is the
 * parsed value re-serialised as `#rrggbb`, never the input. Contrast follows WCAG 2.x.
 */
import { namedColors } from "./named-colors.js";

/** A colour as 8-bit sRGB channels. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const BYTE = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const SEP = "(?:\\s*,\\s*|\\s+)";
const RGB = new RegExp(`^rgb\\(\\s*${BYTE}${SEP}${BYTE}${SEP}${BYTE}\\s*\\)$`, "i");
const PERCENT = "(100|[1-9]?\\d)%";
const HUE = "(360|3[0-5]\\d|[12]\\d\\d|[1-9]?\\d)(?:deg)?";
const HSL = new RegExp(`^hsl\\(\\s*${HUE}${SEP}${PERCENT}${SEP}${PERCENT}\\s*\\)$`, "i");

function fromHex(hex: string): Rgb {
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex;
  const n = Number.parseInt(full, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

function fromHsl(h: number, s: number, l: number): Rgb {
  // The CSS Color 4 conversion: each channel is a point on the hue wheel, scaled by s and l.
  const channel = (n: number): number => {
    const k = (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return { r: channel(0), g: channel(8), b: channel(4) };
}

/** Parses a colour in the accepted subset; `null` for anything else, including any other CSS. */
export function parseColor(value: unknown): Rgb | null {
  if (typeof value !== "string" || value.length > 40) return null;
  const text = value.trim();
  const hex = HEX.exec(text);
  if (hex) return fromHex(hex[1] as string);
  const rgb = RGB.exec(text);
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]) };
  const hsl = HSL.exec(text);
  if (hsl) return fromHsl(Number(hsl[1]), Number(hsl[2]) / 100, Number(hsl[3]) / 100);
  const named = namedColors.get(text.toLowerCase());
  return named === undefined ? null : fromHex(named);
}

/** `#rrggbb`, the only form in which a colour is written into a stylesheet. */
export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** Relative luminance (WCAG 2.x, sRGB), from 0 for black to 1 for white. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const linear = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The minimum contrast for normal text under WCAG 2.x level AA. */
export const MIN_TEXT_CONTRAST = 4.5;

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const NEAR_BLACK: Rgb = { r: 17, g: 24, b: 39 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };

/**
 * The text colour for a button filled with `background`: white or near-black, whichever contrasts
 * more. For mid-luminance colours neither reaches 4.5:1, but pure black always does there (any
 * colour has at least 4.58:1 against white or black), so it is the last resort.
 */
export function readableTextOn(background: Rgb): Rgb {
  const white = contrastRatio(WHITE, background);
  const dark = contrastRatio(NEAR_BLACK, background);
  const best = white >= dark ? WHITE : NEAR_BLACK;
  return Math.max(white, dark) >= MIN_TEXT_CONTRAST ? best : BLACK;
}

/**
 * The colours of a filled button: `preferredText` when it is a valid colour that reaches 4.5:1
 * against the background, else the computed `readableTextOn`. Returns `null` for an invalid
 * background, so the caller keeps its default.
 */
export function buttonColors(
  background: unknown,
  preferredText?: unknown,
): { background: string; text: string } | null {
  const bg = parseColor(background);
  if (!bg) return null;
  const wanted = parseColor(preferredText);
  const text = wanted && contrastRatio(wanted, bg) >= MIN_TEXT_CONTRAST ? wanted : readableTextOn(bg);
  return { background: toHex(bg), text: toHex(text) };
}

/**
 * `color` moved towards white or black (whichever direction gains contrast against `background`)
 * just far enough to reach `minimum`, so an accent keeps its hue but stays readable as text.
 */
export function withContrast(color: Rgb, background: Rgb, minimum = MIN_TEXT_CONTRAST): Rgb {
  if (contrastRatio(color, background) >= minimum) return color;
  const target = relativeLuminance(background) < 0.18 ? WHITE : BLACK;
  for (let step = 1; step <= 20; step++) {
    const t = step / 20;
    const mixed: Rgb = {
      r: Math.round(color.r + (target.r - color.r) * t),
      g: Math.round(color.g + (target.g - color.g) * t),
      b: Math.round(color.b + (target.b - color.b) * t),
    };
    if (contrastRatio(mixed, background) >= minimum) return mixed;
  }
  return target;
}
