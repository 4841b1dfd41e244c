/**
 * Text widths without a browser: a fixed advance width for each printable ASCII character, in
 * thousandths of an em, as DejaVu Sans sets them (the `system-ui` face on most Linux desktops, and
 * wider than Segoe UI, San Francisco or Roboto), so estimates err on the roomy side wherever the
 * SVG is opened. Anything outside ASCII gets a flat width.
 */

// Advance widths for the characters from " " (32) to "~" (126), in order.
const REGULAR = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space ! " # $ % & ' ( ) * + , - . /
  636, 636, 636, 636, 636, 636, 636, 636, 636, 636, // 0-9
  337, 337, 838, 838, 838, 531, 1000, // : ; < = > ? @
  684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, // A-M
  748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, // N-Z
  390, 337, 390, 838, 500, 500, // [ \ ] ^ _ `
  613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, // a-m
  634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, // n-z
  636, 337, 636, 838, // { | } ~
];

// The same for the semibold and bold weights (names, event names).
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
  696, 696, 696, 696, 696, 696, 696, 696, 696, 696,
  400, 400, 838, 838, 838, 580, 1000,
  774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995,
  837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725,
  457, 365, 457, 838, 500, 500,
  675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042,
  712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582,
  712, 365, 712, 838,
];

const OTHER_WIDTH = 700;
const WIDE_WIDTH = 1000;
/** A little headroom for hinting and rounding in the renderer. */
const SAFETY = 1.03;

export interface FontSpec {
  readonly size: number;
  /** Semibold or bold (font-weight 600 and up). */
  readonly bold?: boolean;
}

/** Estimated width in pixels of one line of `text` set in `font`. */
export function textWidth(text: string, font: FontSpec): number {
  const table = font.bold === true ? BOLD : REGULAR;
  let units = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 32 && code <= 126) units += table[code - 32] ?? OTHER_WIDTH;
    else units += isWide(code) ? WIDE_WIDTH : OTHER_WIDTH;
  }
  return (units / 1000) * font.size * SAFETY;
}

/** CJK ideographs, kana, hangul, full-width forms and emoji take a whole em. */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0x1f300 && code <= 0x1faff)
  );
}
