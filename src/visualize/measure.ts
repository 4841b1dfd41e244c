/**
 * How big things are drawn: fonts, line heights, padding, and from them the size of every state box
 * and transition label. The layout reserves exactly these sizes and the SVG writer draws into them,
 * so both read the numbers from here.
 */
import { transitionLabelParts } from "./model.js";
import type { VizState, VizTransition } from "./model.js";
import { textWidth } from "./text-width.js";
import type { FontSpec } from "./text-width.js";

export const FONTS = {
  title: { size: 20, bold: true },
  subtitle: { size: 11 },
  name: { size: 14, bold: true },
  detail: { size: 12 },
  label: { size: 12 },
} as const satisfies Record<string, FontSpec>;

export const LINE_HEIGHT = { name: 18, detail: 16, label: 15 } as const;

/** Inside a state box: text padding, the gap between name and details, the final state's inner border. */
export const BOX = { paddingX: 14, paddingTop: 11, paddingBottom: 10, gap: 5, minWidth: 96, finalInset: 4 } as const;
const COMPOSITE_PADDING = { x: 18, bottom: 18, belowHeader: 16 } as const;
export const LABEL_PADDING = { x: 6, y: 4 } as const;
/** Label parts longer than this many characters wrap after a comma or before `&&`/`||`. */
const LABEL_WRAP = 40;

/** Written at the top right of a parallel state. */
export const PARALLEL_TAG = "parallel";

/** One text line under a state's name: an `invoke: x` line, or an activity (`entry / a`). */
export interface DetailLine {
  readonly kind: "invoke" | "activity";
  readonly text: string;
}

export type LabelLineKind = "event" | "guard" | "actions";

export interface LabelLine {
  readonly kind: LabelLineKind;
  readonly text: string;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The lines a state shows under its name. */
export function detailLines(state: VizState): DetailLine[] {
  return [
    ...state.invokes.map((name) => ({ kind: "invoke" as const, text: `invoke: ${name}` })),
    ...state.activities.map((text) => ({ kind: "activity" as const, text })),
  ];
}

/** The box of a state without children: its text plus padding (and the final state's double border). */
export function leafSize(state: VizState): Size {
  const { width, height } = textBlock(state);
  const inset = state.kind === "final" ? BOX.finalInset : 0;
  return {
    width: Math.max(BOX.minWidth, Math.ceil(width + 2 * (BOX.paddingX + inset))),
    height: Math.ceil(BOX.paddingTop + height + BOX.paddingBottom + 2 * inset),
  };
}

/** The room a composite state keeps around its children, the header (name, details) on top. */
export function compositePadding(state: VizState): { top: number; side: number; bottom: number; minWidth: number } {
  const { width, height } = textBlock(state);
  // A parallel state's name shares its line with the tag at the right.
  const tag = state.kind === "parallel" ? BOX.paddingX + textWidth(PARALLEL_TAG, FONTS.subtitle) : 0;
  return {
    top: BOX.paddingTop + height + COMPOSITE_PADDING.belowHeader,
    side: COMPOSITE_PADDING.x,
    bottom: COMPOSITE_PADDING.bottom,
    minWidth: Math.ceil(Math.max(width, textWidth(state.name, FONTS.name) + tag) + 2 * BOX.paddingX),
  };
}

function textBlock(state: VizState): Size {
  const details = detailLines(state);
  const nameWidth = textWidth(state.name, FONTS.name);
  const detailWidth = Math.max(0, ...details.map((line) => textWidth(line.text, FONTS.detail)));
  const height = LINE_HEIGHT.name + (details.length > 0 ? BOX.gap + details.length * LINE_HEIGHT.detail : 0);
  return { width: Math.max(nameWidth, detailWidth), height };
}

/** A transition's label as lines (event, guard, actions; long parts wrapped) and its box, if it has one. */
export function transitionLabel(transition: VizTransition): (Size & { lines: LabelLine[] }) | undefined {
  const lines: LabelLine[] = [];
  for (const part of transitionLabelParts(transition)) {
    const kind: LabelLineKind = part.startsWith("[") ? "guard" : part.startsWith("/ ") ? "actions" : "event";
    for (const text of wrap(part, LABEL_WRAP)) lines.push({ kind, text });
  }
  if (lines.length === 0) return undefined;
  const textWidthMax = Math.max(...lines.map((line) => textWidth(line.text, labelFont(line.kind))));
  return {
    lines,
    width: Math.ceil(textWidthMax + 2 * LABEL_PADDING.x),
    height: lines.length * LINE_HEIGHT.label + 2 * LABEL_PADDING.y,
  };
}

/** Event names are set semibold, guards and actions regular. */
export function labelFont(kind: LabelLineKind): FontSpec {
  return kind === "event" ? { ...FONTS.label, bold: true } : FONTS.label;
}

/** Breaks a long label part after commas or before `&&`/`||`; a single long word stays whole. */
function wrap(text: string, limit: number): string[] {
  if (text.length <= limit) return [text];
  const words = text.split(/(?<=,) | (?=&&|\|\|)/);
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    const candidate = current === "" ? word : `${current} ${word}`;
    if (candidate.length > limit && current !== "") {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
}
