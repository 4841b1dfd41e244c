import { describe, expect, it } from "vitest";
import { contrastRatio, parseColor, readableTextOn, relativeLuminance, toHex, type Rgb } from "../../../src/pages/color.js";
import { namedColors } from "../../../src/pages/named-colors.js";
import { DEFAULT_BRAND_COLOR, buttonRule, paletteFor, type Palette } from "../../../src/pages/theme.js";

const AA_TEXT = 4.5;
const AA_NON_TEXT = 3;
const SCHEMES = ["light", "dark"] as const;

function rgb(css: string): Rgb {
  const parsed = parseColor(css);
  if (!parsed) throw new Error(`not a colour: ${css}`);
  return parsed;
}

function ratio(a: string, b: string): number {
  return contrastRatio(rgb(a), rgb(b));
}

/** Every text colour of the pages, with the background it is drawn on. */
function textPairs(p: Palette): [string, string, string][] {
  return [
    ["body text on the card", p.text, p.card],
    ["body text on the page", p.text, p.page],
    ["secondary text on the card", p.muted, p.card],
    ["secondary text on the page", p.muted, p.page],
    ["input text", p.text, p.inputBg],
    ["placeholder text", p.placeholder, p.inputBg],
    ["links on the card", p.link, p.card],
    ["primary button text", p.accentText, p.accentBg],
    ["error message text", p.alertText, p.alertBg],
  ];
}

/** A spread of brand colours: a 6×6×6 grid over sRGB plus every named colour. */
const brandColors: string[] = (() => {
  const steps = [0, 51, 102, 153, 204, 255];
  const grid = steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => toHex({ r, g, b }))));
  return [...grid, ...namedColors.keys(), "#facc15", "#24292f", "#1a73e8", "#5865f2", "#ff4500", "#76b900"];
})();

describe("contrast (WCAG 2.x)", () => {
  it("computes the known ratios: black on white is 21:1, a colour on itself 1:1", () => {
    expect(ratio("#000", "#fff")).toBeCloseTo(21, 5);
    expect(ratio("#777", "#777")).toBe(1);
    expect(ratio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(relativeLuminance(rgb("#fff"))).toBeCloseTo(1, 10);
  });

  for (const scheme of SCHEMES) {
    describe(`the default ${scheme} palette`, () => {
      const palette = paletteFor({}, scheme);
      for (const [what, fg, bg] of textPairs(palette)) {
        it(`gives ${what} at least 4.5:1 (${fg} on ${bg})`, () => {
          expect(ratio(fg, bg)).toBeGreaterThanOrEqual(AA_TEXT);
        });
      }

      it("outlines inputs and the focus ring at least 3:1 against what surrounds them", () => {
        expect(ratio(palette.inputBorder, palette.inputBg)).toBeGreaterThanOrEqual(AA_NON_TEXT);
        expect(ratio(palette.inputBorder, palette.card)).toBeGreaterThanOrEqual(AA_NON_TEXT);
        expect(ratio(palette.focus, palette.card)).toBeGreaterThanOrEqual(AA_NON_TEXT);
        expect(ratio(palette.focus, palette.page)).toBeGreaterThanOrEqual(AA_NON_TEXT);
      });

      it("uses the default brand colour for primary buttons", () => {
        expect(palette.accentBg).toBe(DEFAULT_BRAND_COLOR);
      });
    });
  }

  it("picks white text for dark brand colours, near-black for light ones, and black where neither reaches 4.5:1", () => {
    expect(toHex(readableTextOn(rgb("#24292f")))).toBe("#ffffff");
    expect(toHex(readableTextOn(rgb("#facc15")))).toBe("#111827");
    expect(toHex(readableTextOn(rgb("#ffffff")))).toBe("#111827");
    // Mid-luminance: white gives ~4.0:1 and near-black ~4.3:1, so only pure black passes.
    const mid = rgb("#808080");
    expect(toHex(readableTextOn(mid))).toBe("#000000");
  });

  for (const scheme of SCHEMES) {
    it(`gives every brand colour readable button text and readable links in the ${scheme} scheme`, () => {
      const failures: string[] = [];
      for (const brandColor of brandColors) {
        const p = paletteFor({ brandColor }, scheme);
        if (p.accentBg !== toHex(rgb(brandColor))) failures.push(`${brandColor}: not used`);
        if (ratio(p.accentText, p.accentBg) < AA_TEXT) failures.push(`${brandColor}: button ${p.accentText}`);
        if (ratio(p.link, p.card) < AA_TEXT) failures.push(`${brandColor}: link ${p.link}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it("gives every provider button readable text, whatever its brand colour", () => {
    const failures: string[] = [];
    for (const brandColor of brandColors) {
      const rule = buttonRule(brandColor);
      const [, bg, fg] = /--btn-bg:(#[0-9a-f]{6});--btn-text:(#[0-9a-f]{6})/.exec(rule ?? "") ?? [];
      if (!bg || !fg || ratio(fg, bg) < AA_TEXT) failures.push(`${brandColor}: ${rule}`);
    }
    expect(failures).toEqual([]);
  });

  it("honours the theme's buttonText when it is readable on the brand colour, and overrides it when not", () => {
    expect(paletteFor({ brandColor: "#0f766e", buttonText: "#f0fdfa" }, "light").accentText).toBe("#f0fdfa");
    expect(paletteFor({ brandColor: "#facc15", buttonText: "#ffffff" }, "light").accentText).toBe("#111827");
    expect(paletteFor({ brandColor: "#0f766e", buttonText: "nonsense" }, "light").accentText).toBe("#ffffff");
  });

  it("lightens a dark brand colour for links in the dark scheme and darkens a light one in the light scheme", () => {
    const dark = paletteFor({ brandColor: "#1e1b4b" }, "dark");
    expect(relativeLuminance(rgb(dark.link))).toBeGreaterThan(relativeLuminance(rgb("#1e1b4b")));
    const light = paletteFor({ brandColor: "#fde047" }, "light");
    expect(relativeLuminance(rgb(light.link))).toBeLessThan(relativeLuminance(rgb("#fde047")));
  });
});

describe("parseColor", () => {
  it("accepts #rgb, #rrggbb, rgb(), hsl() and named colours", () => {
    expect(parseColor("#0a0")).toEqual({ r: 0, g: 170, b: 0 });
    expect(parseColor("#FF8800")).toEqual({ r: 255, g: 136, b: 0 });
    expect(parseColor("rgb(1, 2, 3)")).toEqual({ r: 1, g: 2, b: 3 });
    expect(parseColor("RGB(255 255 255)")).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseColor("hsl(120, 100%, 25%)")).toEqual({ r: 0, g: 128, b: 0 });
    expect(parseColor("hsl(240deg 100% 50%)")).toEqual({ r: 0, g: 0, b: 255 });
    expect(parseColor("CornflowerBlue")).toEqual({ r: 100, g: 149, b: 237 });
  });

  it("rejects everything else", () => {
    for (const value of [
      "#ff",
      "#ffff",
      "#fffffff",
      "rgb(1,2)",
      "rgb(1,2,3,4)",
      "rgb(-1, 0, 0)",
      "rgb(1.5, 0, 0)",
      "rgba(1, 2, 3, 1)",
      "hsl(361, 0%, 0%)",
      "hsl(0, 101%, 0%)",
      "hsla(0, 0%, 0%, 1)",
      "notacolor",
      "red blue",
      "red;",
      "inherit",
      "constructor",
      "toString",
      "__proto__",
      undefined,
      null,
      42,
      "#".padEnd(100, "f"),
    ]) {
      expect(parseColor(value), String(value)).toBeNull();
    }
  });
});
