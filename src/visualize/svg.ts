/**
 * A machine as a standalone SVG: laid out by ELK (see layout.ts), drawn here with no external
 * references, no scripts and no browser, so the file is byte-identical for a given machine.
 */
import type { AnyStateMachine } from "xstate";
import { MARGIN, layoutMachine } from "./layout.js";
import type { Box, PlacedEdge, PlacedLabel, PlacedState, Point, Scene } from "./layout.js";
import { BOX, FONTS, LABEL_PADDING, LINE_HEIGHT, PARALLEL_TAG, labelFont } from "./measure.js";
import type { LabelLineKind } from "./measure.js";
import { machineGraph } from "./model.js";

/** The machine's definition drawn as a standalone SVG document, ending with a newline. */
export async function toSvg(machine: AnyStateMachine): Promise<string> {
  const scene = await layoutMachine(machineGraph(machine));
  return renderScene(scene);
}

const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const COLORS = {
  background: "#ffffff",
  title: "#0f172a",
  subtitle: "#64748b",
  text: "#0f172a",
  stateFill: "#ffffff",
  stateStroke: "#475569",
  compositeFill: ["#f8fafc", "#f1f5f9"],
  compositeStroke: "#94a3b8",
  finalFill: "#f1f5f9",
  finalStroke: "#1e293b",
  invoke: "#6d28d9",
  activity: "#475569",
  edge: "#64748b",
  errorEdge: "#b91c1c",
  initial: "#0f172a",
  event: "#0f172a",
  guard: "#9a3412",
  actions: "#1d4ed8",
  labelFill: "#ffffff",
} as const;

const LABEL_COLORS: Record<LabelLineKind, string> = {
  event: COLORS.event,
  guard: COLORS.guard,
  actions: COLORS.actions,
};

const RADIUS = { state: 10, composite: 12, label: 4, corner: 6 } as const;
const ARROW = { length: 9, halfWidth: 4 } as const;

/** Draws a laid-out scene (see `layoutMachine`) as a standalone SVG document. */
export function renderScene(scene: Scene): string {
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" ` +
      `viewBox="0 0 ${scene.width} ${scene.height}" font-family="${FONT_FAMILY}" role="img">`,
    `<title>${escapeXml(`${scene.title} state machine`)}</title>`,
    `<rect width="${scene.width}" height="${scene.height}" fill="${COLORS.background}"/>`,
    text({ x: MARGIN, y: MARGIN + 18 }, scene.title, { size: FONTS.title.size, weight: 700, fill: COLORS.title }),
    text({ x: MARGIN, y: MARGIN + 36 }, scene.subtitle, { size: FONTS.subtitle.size, fill: COLORS.subtitle }),
  );
  out.push(`<g stroke-linejoin="round">`);
  // Each state, arrow and label is a group named by data attributes (the state id; an arrow's source,
  // target and run-time event type), so a page can mark the path of an inspected run on the diagram.
  for (const state of scene.states) out.push(`<g data-state="${escapeXml(state.state.id)}">`, ...renderState(state), `</g>`);
  for (const marker of scene.initials) out.push(renderInitial(marker));
  out.push(`</g>`, `<g fill="none" stroke-linecap="round" stroke-linejoin="round">`);
  for (const edge of scene.edges) out.push(`<g ${edgeAttributes(edge)}>`, ...renderEdge(edge), `</g>`);
  out.push(`</g>`, `<g>`);
  for (const edge of scene.edges) {
    if (edge.label !== undefined) out.push(`<g ${edgeAttributes(edge)}>`, ...renderLabel(edge.label), `</g>`);
  }
  out.push(`</g>`, `</svg>`);
  return `${out.join("\n")}\n`;
}

/** `data-source`, `data-target` and `data-event-type` of a transition; `data-initial` for an initial arrow. */
function edgeAttributes(edge: PlacedEdge): string {
  const { transition } = edge;
  if ("initial" in transition) return `data-initial="${escapeXml(transition.initial)}"`;
  return (
    `data-source="${escapeXml(transition.source)}" data-target="${escapeXml(transition.target)}" ` +
    `data-event-type="${escapeXml(transition.eventType)}"`
  );
}

function renderState(placed: PlacedState): string[] {
  const { state } = placed;
  const composite = state.children.length > 0;
  const lines: string[] = [];
  if (composite) {
    const fill = COLORS.compositeFill[placed.depth % 2] ?? COLORS.compositeFill[0];
    // Regions of a parallel state get a dashed border, as in UML.
    const dashed = placed.region ? ` stroke-dasharray="6 4"` : "";
    lines.push(rect(placed, { rx: RADIUS.composite, fill, stroke: COLORS.compositeStroke, width: 1.5, extra: dashed }));
  } else if (state.kind === "final") {
    lines.push(rect(placed, { rx: RADIUS.state, fill: COLORS.finalFill, stroke: COLORS.finalStroke, width: 1.5 }));
    const inner = inset(placed, BOX.finalInset);
    lines.push(rect(inner, { rx: RADIUS.state - 3, fill: "none", stroke: COLORS.finalStroke, width: 1 }));
  } else {
    lines.push(rect(placed, { rx: RADIUS.state, fill: COLORS.stateFill, stroke: COLORS.stateStroke, width: 1.5 }));
  }

  // Composite states carry their text as a header at the top left; the others centre it.
  const anchor = composite ? "start" : "middle";
  const x = composite ? placed.x + BOX.paddingX : placed.x + placed.width / 2;
  const finalInset = state.kind === "final" ? BOX.finalInset : 0;
  let top = placed.y + BOX.paddingTop + finalInset;
  lines.push(text({ x, y: baseline(top, LINE_HEIGHT.name, FONTS.name.size) }, state.name, {
    size: FONTS.name.size,
    weight: 600,
    fill: COLORS.text,
    anchor,
  }));
  if (composite && state.kind === "parallel") {
    lines.push(text({ x: placed.x + placed.width - BOX.paddingX, y: baseline(top, LINE_HEIGHT.name, FONTS.subtitle.size) }, PARALLEL_TAG, {
      size: FONTS.subtitle.size,
      fill: COLORS.subtitle,
      anchor: "end",
      italic: true,
    }));
  }
  top += LINE_HEIGHT.name + (placed.details.length > 0 ? BOX.gap : 0);
  for (const detail of placed.details) {
    const fill = detail.kind === "invoke" ? COLORS.invoke : COLORS.activity;
    lines.push(text({ x, y: baseline(top, LINE_HEIGHT.detail, FONTS.detail.size) }, detail.text, {
      size: FONTS.detail.size,
      fill,
      anchor,
    }));
    top += LINE_HEIGHT.detail;
  }
  return lines;
}

function renderInitial(marker: Box): string {
  const cx = round(marker.x + marker.width / 2);
  const cy = round(marker.y + marker.height / 2);
  return `<circle cx="${cx}" cy="${cy}" r="6" fill="${COLORS.initial}"/>`;
}

function renderEdge(edge: PlacedEdge): string[] {
  if (edge.points.length < 2) return [];
  const color = edge.kind === "error" ? COLORS.errorEdge : COLORS.edge;
  const dash = edge.kind === "always" ? ` stroke-dasharray="5 4"` : edge.kind === "after" ? ` stroke-dasharray="2 3"` : "";
  const points = [...edge.points];
  const tip = points[points.length - 1] as Point;
  const before = points[points.length - 2] as Point;
  const direction = unit(before, tip);
  // Stop the line where the arrowhead begins, so its round cap does not poke through the tip.
  points[points.length - 1] = { x: tip.x - direction.x * (ARROW.length - 1), y: tip.y - direction.y * (ARROW.length - 1) };
  const path = roundedPath(points);
  const base = { x: tip.x - direction.x * ARROW.length, y: tip.y - direction.y * ARROW.length };
  const left = { x: base.x - direction.y * ARROW.halfWidth, y: base.y + direction.x * ARROW.halfWidth };
  const right = { x: base.x + direction.y * ARROW.halfWidth, y: base.y - direction.x * ARROW.halfWidth };
  return [
    `<path d="${path}" stroke="${color}" stroke-width="1.5"${dash}/>`,
    `<path d="M${pt(tip)} L${pt(left)} L${pt(right)} Z" fill="${color}" stroke="${color}" stroke-width="1"/>`,
  ];
}

function renderLabel(label: PlacedLabel): string[] {
  const lines = [rect(label, { rx: RADIUS.label, fill: COLORS.labelFill, stroke: "none", width: 0 })];
  let top = label.y + LABEL_PADDING.y;
  for (const line of label.lines) {
    // Centred: the edge runs through the middle of its label.
    lines.push(text({ x: label.x + label.width / 2, y: baseline(top, LINE_HEIGHT.label, FONTS.label.size) }, line.text, {
      size: FONTS.label.size,
      fill: LABEL_COLORS[line.kind],
      weight: labelFont(line.kind).bold === true ? 600 : undefined,
      anchor: "middle",
    }));
    top += LINE_HEIGHT.label;
  }
  return lines;
}

/** An orthogonal route with its corners rounded off. */
function roundedPath(points: readonly Point[]): string {
  const first = points[0] as Point;
  const parts = [`M${pt(first)}`];
  for (let i = 1; i < points.length - 1; i++) {
    const previous = points[i - 1] as Point;
    const corner = points[i] as Point;
    const next = points[i + 1] as Point;
    const r = Math.min(RADIUS.corner, distance(previous, corner) / 2, distance(corner, next) / 2);
    const into = unit(previous, corner);
    const out = unit(corner, next);
    parts.push(`L${pt({ x: corner.x - into.x * r, y: corner.y - into.y * r })}`);
    parts.push(`Q${pt(corner)} ${pt({ x: corner.x + out.x * r, y: corner.y + out.y * r })}`);
  }
  parts.push(`L${pt(points[points.length - 1] as Point)}`);
  return parts.join(" ");
}

function rect(
  box: Box,
  style: { rx: number; fill: string; stroke: string; width: number; extra?: string },
): string {
  const stroke = style.stroke === "none" ? "" : ` stroke="${style.stroke}" stroke-width="${style.width}"`;
  return (
    `<rect x="${round(box.x)}" y="${round(box.y)}" width="${round(box.width)}" height="${round(box.height)}" ` +
    `rx="${style.rx}" fill="${style.fill}"${stroke}${style.extra ?? ""}/>`
  );
}

function text(
  at: Point,
  content: string,
  style: { size: number; fill: string; weight?: number | undefined; anchor?: "start" | "middle" | "end"; italic?: boolean },
): string {
  const weight = style.weight === undefined ? "" : ` font-weight="${style.weight}"`;
  const anchor = style.anchor === undefined || style.anchor === "start" ? "" : ` text-anchor="${style.anchor}"`;
  const italic = style.italic === true ? ` font-style="italic"` : "";
  return (
    `<text x="${round(at.x)}" y="${round(at.y)}" font-size="${style.size}" fill="${style.fill}"${weight}${anchor}${italic}>` +
    `${escapeXml(content)}</text>`
  );
}

/** The baseline that centres a line of `size` text in a line box starting at `top`. */
function baseline(top: number, lineHeight: number, size: number): number {
  return top + lineHeight / 2 + size * 0.35;
}

function inset(box: Box, by: number): Box {
  return { x: box.x + by, y: box.y + by, width: box.width - 2 * by, height: box.height - 2 * by };
}

function unit(from: Point, to: Point): Point {
  const length = distance(from, to);
  return length === 0 ? { x: 0, y: 1 } : { x: (to.x - from.x) / length, y: (to.y - from.y) / length };
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

function pt(point: Point): string {
  return `${round(point.x)},${round(point.y)}`;
}

/** One decimal, no `-0`: the same number always prints the same way. */
function round(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/** Text and attribute values as XML character data. */
export function escapeXml(value: string): string {
  return value
    .replace(/\s+/g, " ")
    // Control characters are not allowed in XML 1.0 at all, escaped or not.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
