/**
 * The pages' look: two palettes (light, dark) whose every text/background pair meets WCAG AA, the
 * theme's brand colour folded in as the accent, and the one stylesheet all pages share. Colours
 * from the theme enter the CSS only as `#rrggbb` produced by `color.ts`.
 */
import { buttonColors, parseColor, toHex, withContrast, type Rgb } from "./color.js";
import type { PageTheme } from "./types.js";

/** The colours of one scheme, as CSS values. */
export interface Palette {
  page: string;
  card: string;
  cardBorder: string;
  text: string;
  muted: string;
  inputBg: string;
  inputBorder: string;
  placeholder: string;
  divider: string;
  focus: string;
  link: string;
  accentBg: string;
  accentText: string;
  buttonEdge: string;
  alertBg: string;
  alertBorder: string;
  alertText: string;
  danger: string;
  shadow: string;
}

/** The accent when the theme gives none (or gives an invalid one). */
export const DEFAULT_BRAND_COLOR = "#4f46e5";

const BASE: Record<"light" | "dark", Omit<Palette, "link" | "accentBg" | "accentText">> = {
  light: {
    page: "#f4f5f7",
    card: "#ffffff",
    cardBorder: "#e4e7ec",
    text: "#111827",
    muted: "#4b5563",
    inputBg: "#ffffff",
    inputBorder: "#8a919e",
    placeholder: "#6b7280",
    divider: "#e4e7ec",
    focus: "#111827",
    buttonEdge: "rgba(17, 24, 39, 0.12)",
    alertBg: "#fef2f2",
    alertBorder: "#fecaca",
    alertText: "#991b1b",
    danger: "#b91c1c",
    shadow: "0 1px 2px rgba(16, 24, 40, 0.05), 0 16px 40px -12px rgba(16, 24, 40, 0.14)",
  },
  dark: {
    page: "#0b0d11",
    card: "#161920",
    cardBorder: "#272b35",
    text: "#f3f4f6",
    muted: "#a7adb8",
    inputBg: "#0f1217",
    inputBorder: "#5f6673",
    placeholder: "#8d939e",
    divider: "#2a2f39",
    focus: "#f3f4f6",
    buttonEdge: "rgba(255, 255, 255, 0.14)",
    alertBg: "#2a1215",
    alertBorder: "#5f1f25",
    alertText: "#fecdd3",
    danger: "#fca5a5",
    shadow: "0 1px 2px rgba(0, 0, 0, 0.4), 0 16px 40px -12px rgba(0, 0, 0, 0.7)",
  },
};

/** The palette of one scheme with the theme's accent folded in. */
export function paletteFor(theme: Pick<PageTheme, "brandColor" | "buttonText">, scheme: "light" | "dark"): Palette {
  const base = BASE[scheme];
  const accent =
    buttonColors(theme.brandColor, theme.buttonText) ?? (buttonColors(DEFAULT_BRAND_COLOR, theme.buttonText) as {
      background: string;
      text: string;
    });
  const brand = parseColor(accent.background) as Rgb;
  const card = parseColor(base.card) as Rgb;
  return { ...base, link: toHex(withContrast(brand, card)), accentBg: accent.background, accentText: accent.text };
}

function variables(p: Palette): string {
  return [
    `--page:${p.page}`,
    `--card:${p.card}`,
    `--card-border:${p.cardBorder}`,
    `--text:${p.text}`,
    `--muted:${p.muted}`,
    `--input-bg:${p.inputBg}`,
    `--input-border:${p.inputBorder}`,
    `--placeholder:${p.placeholder}`,
    `--divider:${p.divider}`,
    `--focus:${p.focus}`,
    `--link:${p.link}`,
    `--accent-bg:${p.accentBg}`,
    `--accent-text:${p.accentText}`,
    `--button-edge:${p.buttonEdge}`,
    `--alert-bg:${p.alertBg}`,
    `--alert-border:${p.alertBorder}`,
    `--alert-text:${p.alertText}`,
    `--danger:${p.danger}`,
    `--shadow:${p.shadow}`,
  ].join(";");
}

function schemeRules(theme: PageTheme): string {
  const light = `color-scheme:light;${variables(paletteFor(theme, "light"))}`;
  const dark = `color-scheme:dark;${variables(paletteFor(theme, "dark"))}`;
  if (theme.colorScheme === "light") return `:root{${light}}`;
  if (theme.colorScheme === "dark") return `:root{${dark}}`;
  return `:root{${light}}@media (prefers-color-scheme:dark){:root{${dark}}}`;
}

/**
 * A filled button's colours as a CSS class body, or `null` when `background` is not a valid colour.
 * The hover tint moves away from the text colour, so hovering never lowers the contrast.
 */
export function buttonRule(background: unknown, text?: unknown): string | null {
  const colors = buttonColors(background, text);
  if (!colors) return null;
  const lightText = (parseColor(colors.text) as Rgb).r > 127;
  const hover = lightText ? "rgba(0, 0, 0, 0.12)" : "rgba(255, 255, 255, 0.22)";
  return `--btn-bg:${colors.background};--btn-text:${colors.text};--btn-hover:${hover}`;
}

const FONT =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif';

const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--page);color:var(--text);font-family:${FONT};font-size:15px;line-height:1.5;-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale}
.page{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:48px 16px}
.logo{display:block;max-width:200px;max-height:56px;margin:0 auto 28px;object-fit:contain}
.card{width:100%;max-width:400px;background:var(--card);border:1px solid var(--card-border);border-radius:16px;box-shadow:var(--shadow);padding:40px 36px}
.card.centered{text-align:center}
h1{margin:0 0 8px;font-size:24px;line-height:1.3;font-weight:650;letter-spacing:-0.015em;text-align:center}
.title{margin-bottom:28px}
.lead{margin:0 0 28px;color:var(--muted);text-align:center}
p{margin:0 0 16px}
.muted{color:var(--muted)}
.small{font-size:14px}
form{margin:0}
.stack>*+*{margin-top:12px}
.field{margin:0 0 16px}
label{display:block;margin:0 0 6px;font-size:14px;font-weight:600}
.input{display:block;width:100%;min-height:44px;margin:0;padding:10px 12px;border:1px solid var(--input-border);border-radius:10px;background:var(--input-bg);color:var(--text);font:inherit;font-size:16px;line-height:1.4;transition:border-color .15s,box-shadow .15s}
.input::placeholder{color:var(--placeholder);opacity:1}
.input:hover{border-color:var(--muted)}
.input:focus{border-color:var(--link);box-shadow:0 0 0 1px var(--link)}
.btn{--btn-bg:var(--accent-bg);--btn-text:var(--accent-text);--btn-hover:rgba(0,0,0,.12);display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;margin:0;padding:10px 16px;border:1px solid var(--button-edge);border-radius:10px;background-color:var(--btn-bg);color:var(--btn-text);font:inherit;font-weight:600;line-height:1.3;text-align:center;cursor:pointer;box-shadow:0 1px 2px rgba(16,24,40,.06);transition:background-color .15s,box-shadow .15s}
.btn:hover{background-image:linear-gradient(var(--btn-hover),var(--btn-hover))}
.btn:active{background-image:linear-gradient(var(--btn-hover),var(--btn-hover)),linear-gradient(var(--btn-hover),var(--btn-hover))}
.btn-logo{width:20px;height:20px;flex:none;object-fit:contain}
.field+.btn,.input+.btn{margin-top:20px}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
a.btn{text-decoration:none}
a{color:var(--link);font-weight:500;text-decoration:underline;text-decoration-thickness:1px;text-underline-offset:3px}
a:hover{text-decoration-thickness:2px}
a:focus-visible{border-radius:4px}
.divider{display:flex;align-items:center;gap:14px;margin:24px 0;color:var(--muted);font-size:13px;line-height:1;text-transform:uppercase;letter-spacing:.08em}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--divider)}
.alert{display:flex;gap:10px;align-items:flex-start;margin:0 0 24px;padding:12px 14px;border:1px solid var(--alert-border);border-radius:10px;background:var(--alert-bg);color:var(--alert-text);font-size:14px;line-height:1.45}
.alert p{margin:0}
.alert svg{width:20px;height:20px;flex:none;margin-top:0}
.alert-body{min-width:0}
.alert .code{margin-top:4px;opacity:1;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:13px;word-break:break-all}
.badge{display:flex;align-items:center;justify-content:center;width:56px;height:56px;margin:0 auto 20px;border-radius:50%;color:var(--link);background:color-mix(in srgb,var(--link) 12%,transparent)}
.badge.danger{color:var(--danger);background:color-mix(in srgb,var(--danger) 12%,transparent)}
.badge svg{width:28px;height:28px}
.email-line{margin:0 0 20px}
.email{display:inline-block;max-width:100%;padding:6px 12px;border-radius:999px;background:var(--page);border:1px solid var(--card-border);font-weight:600;word-break:break-all}
.actions{margin:28px 0 0}
.actions .btn+a{display:inline-block;margin-top:16px}
.centered p{text-align:center}
@media (max-width:480px){.page{padding:24px 12px;justify-content:flex-start}.card{padding:32px 20px;border-radius:14px}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;

/**
 * The stylesheet of a page: the scheme variables, the shared rules and `extraRules` (which the
 * caller builds from validated colours only).
 */
export function stylesheet(theme: PageTheme, extraRules = ""): string {
  return `${schemeRules(theme)}${BASE_CSS.replace(/\n/g, "")}${extraRules}`;
}
