// Where the diagram's nodes go: dagre, top to bottom (phases from the entry,
// then the postprocessor chain down to the caller contract), each card given
// exactly the size its rows need. And stability: an edit that keeps the
// structure (the nodes, their rows, the edges) keeps every position; a change
// of structure is laid out afresh by dagre (so nothing overlaps) and shifted
// so the picture stays where it was, and a node the user dragged stays put.
// `arrange` lays everything out afresh. Pure; no React.
import dagre from '@dagrejs/dagre';
import type { DiagramModel, DiagramNode, PhaseDiagramNode } from '@/lib/skill/diagram';

export type Point = { x: number; y: number };
export type Size = { width: number; height: number };

export const PHASE_WIDTH = 280;
export const STEP_WIDTH = 250;

// the card's rows, in px, as SkillDiagram.module.css draws them (a card is given exactly this size)
const CHROME = 18; // padding and borders
const HEAD = 26;
const ROW = 18;
const SECTION_HEAD = 16;
const RUNG = 24;
const META = 24;
const PROBLEM = 22;
const SLACK = 4;
const BADGE_LINE = 22;

/**
 * Whether a phase card draws its badges (entry, terminal, unreachable, and `failed` where the last
 * run failed) on a line of their own under its name: when the head would not hold them beside it. An
 * estimate by characters (13 px bold for the name, 10.5 px for a badge, on the generous side: wrapping
 * a little early costs a line, cutting costs the name); before, the name gave way, and `summarize`
 * with two badges read "summ…".
 */
export function badgesBelow(n: PhaseDiagramNode, isFailed = false): boolean {
  const badges = [n.isEntry && 'entry', n.isTerminal && 'terminal', !n.isReachable && 'unreachable', isFailed && 'failed'].filter((b): b is string => !!b);
  if (!badges.length) return false;
  const room = PHASE_WIDTH - 22; // the card's padding and borders
  const kind = 44; // "PHASE" and the gap after it
  const width = kind + n.name.length * 8.5 + badges.reduce((w, b) => w + 6 + 14 + b.length * 6.5, 0);
  return width > room;
}

/**
 * The size a node is laid out at: its width by kind, its height from the rows it shows — not
 * counting the line that names a problem, so a problem coming and going moves nothing.
 */
export function layoutSizeOf(n: DiagramNode): Size {
  const problem = 0;
  if (n.kind === 'phase') {
    const rows = 2 + (n.tools.length ? 1 : 0);
    const pre = n.preprocessor.length ? SECTION_HEAD + n.preprocessor.length * ROW : 0;
    return { width: PHASE_WIDTH, height: CHROME + HEAD + (badgesBelow(n) ? BADGE_LINE : 0) + rows * ROW + pre + n.stages.length * RUNG + problem + SLACK };
  }
  if (n.kind === 'step') {
    const nested = n.steps?.length ? 4 + n.steps.length * ROW : 0;
    return { width: STEP_WIDTH, height: CHROME + HEAD + ROW + META + nested + problem + SLACK };
  }
  return { width: STEP_WIDTH, height: CHROME + HEAD + ROW + problem + SLACK };
}

/**
 * The size a card is drawn at: its layout size, its problem line, and the badge line the last run's
 * `failed` badge takes where it sends the badges under the name (both reach into the gap below: the
 * layout is the skill's, and a run failing moves no card)
 */
export function sizeOf(n: DiagramNode, isFailed = false): Size {
  const s = layoutSizeOf(n);
  const failedLine = n.kind === 'phase' && isFailed && badgesBelow(n, true) && !badgesBelow(n) ? BADGE_LINE : 0;
  return { width: s.width, height: s.height + failedLine + (n.problems.length ? PROBLEM : 0) };
}

/** What a layout depends on: the node ids and sizes, and the edges. Equal keys, equal pictures. */
export function structureKey(model: DiagramModel): string {
  const nodes = model.nodes.map((n) => {
    const s = layoutSizeOf(n);
    return `${n.id}:${s.height}`;
  });
  return `${nodes.join('|')}#${model.edges.map((e) => e.id).join('|')}`;
}

/** dagre's layout of the whole model: top-left corners, as React Flow positions nodes. */
export function layoutAll(model: DiagramModel): Map<string, Point> {
  const g = new dagre.graphlib.Graph();
  // ranksep leaves room for a card's problem line (PROBLEM px) and a failed phase's badge line
  // (BADGE_LINE px; sizeOf), which the layout does not count
  g.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 48, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const sizes = new Map<string, Size>();
  for (const n of model.nodes) {
    const s = layoutSizeOf(n);
    sizes.set(n.id, s);
    g.setNode(n.id, { width: s.width, height: s.height });
  }
  for (const e of model.edges) if (sizes.has(e.source) && sizes.has(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const out = new Map<string, Point>();
  for (const n of model.nodes) {
    const p = g.node(n.id) as { x: number; y: number } | undefined;
    const s = sizes.get(n.id)!;
    out.set(n.id, p ? { x: Math.round(p.x - s.width / 2), y: Math.round(p.y - s.height / 2) } : { x: 0, y: 0 });
  }
  return out;
}

/**
 * Positions for a model whose structure changed, given the positions drawn so far: dagre's
 * fresh layout, shifted so that the first node drawn before (in model order: the entry first)
 * stays where it was; nodes in `pinned` (dragged by the user) keep their place.
 */
export function stablePositions(model: DiagramModel, previous: ReadonlyMap<string, Point>, pinned: ReadonlySet<string> = new Set()): Map<string, Point> {
  const fresh = layoutAll(model);
  const anchor = model.nodes.find((n) => previous.has(n.id) && !pinned.has(n.id));
  const was = anchor ? previous.get(anchor.id)! : null;
  const would = anchor ? fresh.get(anchor.id)! : null;
  const d = was && would ? { x: was.x - would.x, y: was.y - would.y } : { x: 0, y: 0 };
  const out = new Map<string, Point>();
  for (const n of model.nodes) {
    const kept = pinned.has(n.id) ? previous.get(n.id) : undefined;
    const p = fresh.get(n.id)!;
    out.set(n.id, kept ?? { x: p.x + d.x, y: p.y + d.y });
  }
  return out;
}

/** The box around these nodes (for the postprocessor lane drawn behind its steps). */
export function boundsOf(ids: readonly string[], positions: ReadonlyMap<string, Point>, model: DiagramModel): { x: number; y: number; width: number; height: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of model.nodes) {
    if (!ids.includes(n.id)) continue;
    const p = positions.get(n.id);
    if (!p) continue;
    const s = sizeOf(n);
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + s.width);
    y1 = Math.max(y1, p.y + s.height);
  }
  return Number.isFinite(x0) ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}
