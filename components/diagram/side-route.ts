// Where the diagram draws an edge back up the picture (a loop: `check: [work]` with work above
// check): React Flow's smoothstep leaves the source's foot and climbs straight up behind the cards
// into the target's head, its label hidden by a card. A back edge goes around the side instead: out
// of the source's side, up beside every card between the two, into the target's side, its label
// beside that climb, clear of every card. A loop on one card goes to the left when other loops meet
// that card on the right (selfLoopSide). Pure; no React.

export type Box = { x: number; y: number; width: number; height: number };
type Point = { x: number; y: number };
export type Side = 'left' | 'right';
export type SideRoute = { side: Side; points: Point[]; path: string; label: Box | null };

/** how far the climb keeps from the nearest card, in flow px */
export const SIDE_GAP = 32;
/** how far a horizontal leg keeps from a card it passes over or under */
const CLEARANCE = 6;
/** the radius of the route's corners */
const CORNER = 8;
/** the label's gap from the climb, and its box (the diagram's edge text: 10 px, padded 4 × 2) */
export const LABEL_GAP = 6;
const LABEL_HEIGHT = 18;
const CHAR_WIDTH = 6.2;
const LABEL_PAD_X = 4;

const right = (b: Box) => b.x + b.width;
const bottom = (b: Box) => b.y + b.height;

/** whether an edge goes back up the picture: its target is above its source (or level with it, or the same card) */
export function isBackEdge(source: Box, target: Box): boolean {
  return target.y <= source.y;
}

/** the box of an edge label of `text` as the diagram draws it (estimated: the text is measured only once drawn) */
export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil(text.length * CHAR_WIDTH) + 2 * LABEL_PAD_X, height: LABEL_HEIGHT };
}

/** an orthogonal polyline as an svg path, its corners rounded */
export function roundedPath(points: readonly Point[], radius = CORNER): string {
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(radius, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const into = towards(b, a, r);
    const out = towards(b, c, r);
    d += ` L ${into.x} ${into.y} Q ${b.x} ${b.y} ${out.x} ${out.y}`;
  }
  const last = points[points.length - 1];
  return `${d} L ${last.x} ${last.y}`;
}

/** the point `r` from `from` towards `to` */
function towards(from: Point, to: Point, r: number): Point {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  return { x: from.x + ((to.x - from.x) * r) / len, y: from.y + ((to.y - from.y) * r) / len };
}

/** whether a horizontal leg at `y` from `x0` to `x1` passes through a card (other than its own two ends' boxes) */
function legBlocked(y: number, x0: number, x1: number, cards: readonly Box[]): boolean {
  const [lo, hi] = x0 < x1 ? [x0, x1] : [x1, x0];
  return cards.some((c) => y > c.y - CLEARANCE && y < bottom(c) + CLEARANCE && right(c) > lo + 0.5 && c.x < hi - 0.5);
}

/**
 * The route of a back edge from `source` to `target` (`self`: the same card) around `side` of every
 * card `cards` holds between them, and its label's box; null when a leg would cross a card.
 */
function routeOn(side: Side, source: Box, target: Box, cards: readonly Box[], self: boolean, label: string | undefined, out: number, shift: EndShift): SideRoute | null {
  // a loop on one card leaves low and comes back high; else each end at the middle of its side
  const sy = source.y + source.height * (self ? 0.65 : 0.5) + shift.leave;
  const ty = target.y + target.height * (self ? 0.35 : 0.5) + shift.enter;
  const top = Math.min(sy, ty);
  const foot = Math.max(sy, ty);
  const size = label ? labelSize(label) : null;
  const mid = (sy + ty) / 2;
  // every card the climb (and its label) passes, level with it
  const span = { top: Math.min(top, size ? mid - size.height / 2 : top) - CLEARANCE, foot: Math.max(foot, size ? mid + size.height / 2 : foot) + CLEARANCE };
  const beside = cards.filter((c) => c.y < span.foot && bottom(c) > span.top);
  const sx = side === 'right' ? right(source) : source.x;
  const tx = side === 'right' ? right(target) : target.x;
  const x = side === 'right' ? Math.max(sx, tx, ...beside.map(right)) + SIDE_GAP + out : Math.min(sx, tx, ...beside.map((c) => c.x)) - SIDE_GAP - out;
  // the two legs out to the climb, past any other card at their height
  const others = cards.filter((c) => c !== source && c !== target);
  if (legBlocked(sy, sx, x, others) || legBlocked(ty, tx, x, others)) return null;
  const points = [
    { x: sx, y: sy },
    { x, y: sy },
    { x, y: ty },
    { x: tx, y: ty },
  ];
  const box = size ? { x: side === 'right' ? x + LABEL_GAP : x - LABEL_GAP - size.width, y: mid - size.height / 2, ...size } : null;
  return { side, points, path: roundedPath(points), label: box };
}

/**
 * A back edge's route around the side of the cards (the right side, else the left one when a leg
 * would cross a card on the right), or null when both would (the edge is then drawn as before).
 * `cards`: every card drawn, the two ends included.
 */
export function sideRoute(source: Box, target: Box, cards: readonly Box[], opts: { self?: boolean; label?: string; out?: number; shift?: EndShift; side?: Side } = {}): SideRoute | null {
  const self = opts.self ?? false;
  const out = opts.out ?? 0;
  const shift = opts.shift ?? NO_SHIFT;
  const first = opts.side ?? 'right';
  const other: Side = first === 'right' ? 'left' : 'right';
  return routeOn(first, source, target, cards, self, opts.label, out, shift) ?? routeOn(other, source, target, cards, self, opts.label, out, shift);
}

/**
 * The side a loop on one card is drawn on: the right, like every other loop, unless another loop
 * meets that card — those leave or enter its right side and go out past the self-loop's small
 * climb, across it and its label — then the left, which no loop uses while the right is free.
 */
export function selfLoopSide(card: string, back: readonly { source: string; target: string }[]): Side {
  return back.some((e) => e.source !== e.target && (e.source === card || e.target === card)) ? 'left' : 'right';
}

/** how far a back edge's two ends sit below their side's usual point, in flow px (negative: above) */
export type EndShift = { leave: number; enter: number };
const NO_SHIFT: EndShift = { leave: 0, enter: 0 };
/** the gap between two back edges' ends on one side of a card, in flow px */
export const END_GAP = 10;

/** a back edge as `endShifts` sees it: its two cards (by id), the card's height, and its level (`levels`) */
export type BackEnds = { id: string; source: string; target: string; level: number };

/**
 * Where each back edge meets its cards, so that two meeting one card at the same point (two loops
 * leaving it, or one leaving where another comes in) do not share their first or last stretch:
 * the ends at one point are spread END_GAP apart around it (closer on a short card). Ordered so
 * that no leg crosses another's climb: the ends that climb away above those that come up from
 * below; of those that climb away, the inner (lower level) above; of those that come up, the
 * outer above.
 */
export function endShifts(back: readonly BackEnds[], heightOf: (card: string) => number): Map<string, EndShift> {
  type End = { id: string; leaves: boolean; level: number };
  const points = new Map<string, { card: string; ends: End[] }>();
  const at = (card: string, where: string, end: End) => {
    const key = `${card}\u0000${where}`;
    const p = points.get(key) ?? { card, ends: [] };
    p.ends.push(end);
    points.set(key, p);
  };
  for (const e of back) {
    const self = e.source === e.target;
    at(e.source, self ? 'low' : 'mid', { id: e.id, leaves: true, level: e.level });
    at(e.target, self ? 'high' : 'mid', { id: e.id, leaves: false, level: e.level });
  }
  const shifts = new Map(back.map((e) => [e.id, { ...NO_SHIFT }]));
  for (const { card, ends } of points.values()) {
    if (ends.length < 2) continue;
    ends.sort((a, b) => (a.leaves === b.leaves ? (a.leaves ? a.level - b.level : b.level - a.level) : a.leaves ? -1 : 1));
    const gap = Math.min(END_GAP, heightOf(card) / 2 / ends.length);
    ends.forEach((end, i) => {
      const shift = shifts.get(end.id)!;
      shift[end.leaves ? 'leave' : 'enter'] = (i - (ends.length - 1) / 2) * gap;
    });
  }
  return shifts;
}

/** a back edge's vertical extent (its two ends' middles), for `levels` */
export type Span = { id: string; top: number; foot: number };

/**
 * How far out each back edge climbs, in levels (0: nearest the cards), so that two whose climbs
 * overlap in height never share one: the shorter inside, the longer around it. Shortest first, each
 * takes the level just past every overlapping one already placed.
 */
export function levels(spans: readonly Span[]): Map<string, number> {
  const order = [...spans].sort((a, b) => a.foot - a.top - (b.foot - b.top) || (a.id < b.id ? -1 : 1));
  const placed: (Span & { level: number })[] = [];
  for (const s of order) {
    const under = placed.filter((p) => p.top <= s.foot && s.top <= p.foot);
    placed.push({ ...s, level: under.length ? Math.max(...under.map((p) => p.level)) + 1 : 0 });
  }
  return new Map(placed.map((p) => [p.id, p.level]));
}

/** the distance between two levels' climbs: room for a label beside the inner one */
export function levelStep(labels: readonly (string | undefined)[]): number {
  return Math.max(0, ...labels.map((l) => (l ? labelSize(l).width : 0))) + 2 * LABEL_GAP + 8;
}

/** the box around a route and its label (what Fit must keep in view) */
export function routeBounds(route: SideRoute): Box {
  const xs = route.points.map((p) => p.x);
  const ys = route.points.map((p) => p.y);
  const box = { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
  return route.label ? union([box, route.label]) : box;
}

/** the box around boxes */
export function union(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map(right)) - x, height: Math.max(...boxes.map(bottom)) - y };
}
