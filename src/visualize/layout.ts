/**
 * Places the machine graph with ELK's layered algorithm (top to bottom, nested states as compound
 * nodes, labels as obstacles) and returns plain geometry for the SVG writer. All coordinates are
 * absolute and rounded to a tenth, so a given machine always yields the same picture.
 */
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode, ElkPoint } from "elkjs/lib/elk-api.js";
import { FONTS, compositePadding, detailLines, leafSize, transitionLabel } from "./measure.js";
import type { DetailLine, LabelLine, Size } from "./measure.js";
import { descendants } from "./model.js";
import type { VizMachine, VizState, VizTransition, VizTransitionKind } from "./model.js";
import { textWidth } from "./text-width.js";

/** Space around the drawing, and above it for the title and subtitle. */
export const MARGIN = 24;
export const TITLE_HEIGHT = 56;
const SUBTITLE = "state machine · generated from its definition";
const INITIAL_SIZE = 14;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Box extends Point, Size {}

export interface PlacedState extends Box {
  readonly state: VizState;
  /** How many composite states enclose this one. */
  readonly depth: number;
  /** Whether this state is a region of a parallel state. */
  readonly region: boolean;
  readonly details: readonly DetailLine[];
}

export interface PlacedLabel extends Box {
  readonly lines: readonly LabelLine[];
}

export interface PlacedEdge {
  readonly kind: VizTransitionKind | "initial";
  /** The transition drawn, or, for the arrow from an initial dot, the id of the state it enters. */
  readonly transition: VizTransition | { readonly initial: string };
  /** From the source state to the target state: the arrowhead goes at the last point. */
  readonly points: readonly Point[];
  readonly label: PlacedLabel | undefined;
}

export interface Scene {
  readonly title: string;
  readonly subtitle: string;
  readonly width: number;
  readonly height: number;
  /** Outer states before the states they contain, so drawing in order layers them correctly. */
  readonly states: readonly PlacedState[];
  /** The dots that mark initial states, one per compound state (and the top level). */
  readonly initials: readonly Box[];
  /** In definition order, the arrows from initial dots first. */
  readonly edges: readonly PlacedEdge[];
}

/** Lays the graph out. About 200 ms for the first machine in a process (ELK warms up), tens of ms after. */
export async function layoutMachine(graph: VizMachine): Promise<Scene> {
  // elkjs is CommonJS: under NodeNext its typed default export is `module.exports.default`, which the
  // bundle sets to the constructor itself.
  const elk = new ELK.default();
  const builder = new ElkGraph(graph, { modelOrder: true });
  try {
    return builder.readScene(await elk.layout(builder.root));
  } catch {
    // ELK's model-order heuristics have been seen to throw on some nested cyclic graphs; a plainer
    // layout beats none.
    const plain = new ElkGraph(graph, { modelOrder: false });
    return plain.readScene(await elk.layout(plain.root));
  }
}

const ROOT = "root";
/** ELK ids never clash with each other, whatever the machine calls its states. */
const stateNodeId = (stateId: string): string => `state:${stateId}`;

/** The ELK input for one machine, and the bookkeeping to read ELK's answer back. */
class ElkGraph {
  readonly root: ElkNode;
  private readonly nodes = new Map<string, ElkNode>();
  private readonly parents = new Map<string, string>();
  private readonly states = new Map<string, VizState>();
  /** Document order of states, parents first: the order a flow is usually written in. */
  private readonly rank = new Map<string, number>();
  private readonly edges = new Map<
    string,
    { kind: PlacedEdge["kind"]; transition: PlacedEdge["transition"]; order: number; reversed: boolean; lines?: LabelLine[] }
  >();

  constructor(
    private readonly graph: VizMachine,
    options: { modelOrder: boolean },
  ) {
    this.root = { id: ROOT, layoutOptions: rootLayoutOptions(options), children: [], edges: [] };
    this.nodes.set(ROOT, this.root);
    const all = [graph.root, ...descendants(graph.root)];
    all.forEach((state, index) => this.rank.set(stateNodeId(state.id), index));

    const topLevel = graph.rootIsState ? [graph.root] : graph.root.children;
    this.addChildren(ROOT, topLevel, graph.rootIsState ? undefined : graph.root.initial);
    graph.transitions.forEach((transition, order) => {
      const label = transitionLabel(transition);
      this.addEdge(`edge:${order}`, {
        source: stateNodeId(transition.source),
        target: stateNodeId(transition.target),
        kind: transition.kind,
        transition,
        order,
        label,
      });
    });
  }

  private addChildren(parentId: string, children: readonly VizState[], initial: string | undefined): void {
    const parent = this.nodes.get(parentId) as ElkNode;
    parent.children ??= [];
    if (initial !== undefined) {
      const markerId = `initial:${parentId}`;
      this.rank.set(markerId, (this.rank.get(parentId) ?? -1) + 0.5);
      this.parents.set(markerId, parentId);
      parent.children.push({ id: markerId, width: INITIAL_SIZE, height: INITIAL_SIZE });
      this.addEdge(`${markerId}:edge`, { source: markerId, target: stateNodeId(initial), kind: "initial", transition: { initial }, order: -1 });
    }
    for (const child of children) {
      const id = stateNodeId(child.id);
      const node = this.stateNode(id, child);
      parent.children.push(node);
      this.nodes.set(id, node);
      this.states.set(id, child);
      this.parents.set(id, parentId);
      if (child.children.length > 0) this.addChildren(id, child.children, child.initial);
    }
  }

  private stateNode(id: string, state: VizState): ElkNode {
    if (state.children.length === 0) return { id, ...leafSize(state) };
    const { top, side, bottom, minWidth } = compositePadding(state);
    return {
      id,
      layoutOptions: {
        "elk.padding": `[top=${top},left=${side},bottom=${bottom},right=${side}]`,
        "elk.nodeSize.constraints": "MINIMUM_SIZE",
        "elk.nodeSize.minimum": `(${minWidth}, ${top + bottom})`,
      },
    };
  }

  private addEdge(
    id: string,
    edge: {
      source: string;
      target: string;
      kind: PlacedEdge["kind"];
      transition: PlacedEdge["transition"];
      order: number;
      label?: (Size & { lines: LabelLine[] }) | undefined;
    },
  ): void {
    // ELK breaks cycles with its own heuristics, which may put the initial state at the bottom.
    // Instead, an edge that goes back up the document order is handed to ELK reversed (and drawn
    // flipped), so ELK lays out an acyclic graph in the order the machine was written.
    const reversed = (this.rank.get(edge.source) ?? 0) > (this.rank.get(edge.target) ?? 0);
    const [from, to] = reversed ? [edge.target, edge.source] : [edge.source, edge.target];
    const elkEdge: ElkExtendedEdge = { id, sources: [from], targets: [to] };
    if (edge.label !== undefined) {
      const { width, height, lines } = edge.label;
      elkEdge.labels = [
        {
          id: `${id}:label`,
          text: lines.map((line) => line.text).join("\n"),
          width,
          height,
          layoutOptions: { "elk.edgeLabels.inline": "true" },
        },
      ];
    }
    const container = this.nodes.get(this.containerOf(edge.source, edge.target)) as ElkNode;
    container.edges ??= [];
    container.edges.push(elkEdge);
    this.edges.set(id, { kind: edge.kind, transition: edge.transition, order: edge.order, reversed, lines: edge.label?.lines });
  }

  /** ELK's rule: a self loop lives in the node's parent, an edge into a descendant in its ancestor. */
  private containerOf(source: string, target: string): string {
    if (source === target) return this.parents.get(source) ?? ROOT;
    const sourceChain = this.chain(source);
    const targetChain = this.chain(target);
    if (targetChain.includes(source)) return source;
    if (sourceChain.includes(target)) return target;
    const targetAncestors = new Set(targetChain.slice(1));
    return sourceChain.slice(1).find((id) => targetAncestors.has(id)) ?? ROOT;
  }

  /** The node and its ancestors, innermost first, ending with the root. */
  private chain(id: string): string[] {
    const result = [id];
    for (let parent = this.parents.get(id); parent !== undefined; parent = this.parents.get(parent)) result.push(parent);
    return result;
  }

  readScene(output: ElkNode): Scene {
    const states: PlacedState[] = [];
    const initials: Box[] = [];
    const edges: Array<PlacedEdge & { order: number }> = [];
    const visit = (node: ElkNode, depth: number): void => {
      const region = this.states.get(node.id)?.kind === "parallel";
      for (const child of node.children ?? []) {
        const box = toBox(child);
        const state = this.states.get(child.id);
        if (state === undefined) initials.push(box);
        else states.push({ ...box, state, depth, region, details: detailLines(state) });
        visit(child, depth + 1);
      }
      for (const edge of node.edges ?? []) edges.push(this.readEdge(edge));
    };
    visit(output, 0);
    // ELK hands edges back grouped by container; keep the definition's order instead.
    edges.sort((a, b) => a.order - b.order);

    // ELK may route an edge outside the graph's own bounds (one that leaves a compound state to enter
    // its child does), so the picture is framed around everything drawn, not around ELK's graph.
    const boxes = [...states, ...initials, ...edges.flatMap((e) => (e.label === undefined ? [] : [e.label]))];
    const points = [...boxes.flatMap((b) => [b, { x: b.x + b.width, y: b.y + b.height }]), ...edges.flatMap((e) => e.points)];
    const min = { x: Math.min(0, ...points.map((p) => p.x)), y: Math.min(0, ...points.map((p) => p.y)) };
    const max = { x: Math.max(0, ...points.map((p) => p.x)), y: Math.max(0, ...points.map((p) => p.y)) };
    const shift = { x: MARGIN - min.x, y: MARGIN + TITLE_HEIGHT - min.y };
    const headerWidth = Math.max(textWidth(this.graph.id, FONTS.title), textWidth(SUBTITLE, FONTS.subtitle));
    return {
      title: this.graph.id,
      subtitle: SUBTITLE,
      width: Math.ceil(Math.max(max.x - min.x, headerWidth) + 2 * MARGIN),
      height: Math.ceil(max.y - min.y + 2 * MARGIN + TITLE_HEIGHT),
      states: states.map((state) => ({ ...state, ...move(state, shift) })),
      initials: initials.map((box) => move(box, shift)),
      edges: edges.map(({ kind, transition, points: route, label }) => ({
        kind,
        transition,
        points: route.map((point) => movePoint(point, shift)),
        label: label === undefined ? undefined : { ...label, ...move(label, shift) },
      })),
    };
  }

  private readEdge(edge: ElkExtendedEdge): PlacedEdge & { order: number } {
    const info = this.edges.get(edge.id);
    if (info === undefined) throw new Error(`ELK returned an unknown edge ${edge.id}`);
    const points = dedupe(routePoints(edge).map((point) => ({ x: round(point.x), y: round(point.y) })));
    if (info.reversed) points.reverse();
    const elkLabel = edge.labels?.[0];
    const label = info.lines === undefined || elkLabel === undefined ? undefined : { ...toBox(elkLabel), lines: info.lines };
    return { kind: info.kind, transition: info.transition, order: info.order, points, label };
  }
}

function rootLayoutOptions(options: { modelOrder: boolean }): Record<string, string> {
  return {
    "elk.algorithm": "layered",
    "elk.direction": "DOWN",
    // One layout across all levels, so edges between nested states are routed too.
    "elk.hierarchyHandling": "INCLUDE_CHILDREN",
    "elk.edgeRouting": "ORTHOGONAL",
    "elk.edgeLabels.placement": "CENTER",
    "elk.layered.considerModelOrder.strategy": options.modelOrder ? "NODES_AND_EDGES" : "NONE",
    "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
    "elk.spacing.nodeNode": "36",
    "elk.spacing.edgeNode": "18",
    "elk.spacing.edgeEdge": "14",
    "elk.spacing.edgeLabel": "4",
    "elk.spacing.labelNode": "6",
    "elk.layered.spacing.nodeNodeBetweenLayers": "40",
    "elk.layered.spacing.edgeNodeBetweenLayers": "18",
    "elk.layered.spacing.edgeEdgeBetweenLayers": "12",
    "elk.padding": "[top=0,left=0,bottom=0,right=0]",
    // Absolute coordinates for everything, whatever node an edge or shape belongs to.
    "elk.json.shapeCoords": "ROOT",
    "elk.json.edgeCoords": "ROOT",
  };
}

/** The route of an edge: its sections chained start to end (an edge across hierarchy may have several). */
function routePoints(edge: ElkExtendedEdge): ElkPoint[] {
  const sections = edge.sections ?? [];
  const byId = new Map(sections.map((section) => [section.id, section]));
  let current = sections.find((section) => (section.incomingSections ?? []).length === 0) ?? sections[0];
  const points: ElkPoint[] = [];
  const seen = new Set<string>();
  while (current !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    const own = [current.startPoint, ...(current.bendPoints ?? []), current.endPoint];
    points.push(...(points.length > 0 ? own.slice(1) : own));
    const next = current.outgoingSections?.[0];
    current = next === undefined ? undefined : byId.get(next);
  }
  return points;
}

function dedupe(points: Point[]): Point[] {
  return points.filter((p, i) => i === 0 || p.x !== points[i - 1]?.x || p.y !== points[i - 1]?.y);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function movePoint(point: Point, by: Point): Point {
  return { x: round(point.x + by.x), y: round(point.y + by.y) };
}

function move(box: Box, by: Point): Box {
  return { ...movePoint(box, by), width: box.width, height: box.height };
}

function toBox(shape: { x?: number; y?: number; width?: number; height?: number }): Box {
  return { x: round(shape.x ?? 0), y: round(shape.y ?? 0), width: round(shape.width ?? 0), height: round(shape.height ?? 0) };
}
