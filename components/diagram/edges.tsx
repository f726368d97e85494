'use client';
// The diagram's edge: React Flow's smoothstep going down the picture, and an edge going back up it
// (a loop) drawn around the side of the cards (side-route.ts), its label beside the climb. Which
// one is decided from where the two cards are now, so dragging a card turns an edge into the other.
// Loops whose climbs overlap in height climb apart, the shorter nearer the cards, and loops meeting
// one card at one point meet it apart; a loop on one card met by other loops goes to its left.
// The edge keeps its accessible name either way: React Flow gives it to the <g> around what is drawn.
import { BaseEdge, SmoothStepEdge, useStore, type Edge, type EdgeProps, type InternalNode, type ReactFlowState } from '@xyflow/react';
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { endShifts, isBackEdge, levelStep, levels, routeBounds, selfLoopSide, sideRoute, union, type Box, type EndShift, type Side, type SideRoute, type Span } from './side-route';

/** the lane behind the postprocessor chain is no card: an edge may cross it */
const isCard = (n: InternalNode) => n.type !== 'lane' && !n.hidden && !!n.measured.width && !!n.measured.height;

const boxOf = (n: InternalNode): Box => ({ x: n.internals.positionAbsolute.x, y: n.internals.positionAbsolute.y, width: n.measured.width ?? 0, height: n.measured.height ?? 0 });

type Lookup = ReadonlyMap<string, InternalNode>;
type Ends = { id: string; source: string; target: string; label?: unknown };
const textOf = (e: Ends) => (typeof e.label === 'string' ? e.label : undefined);

/** the two cards' boxes of an edge that goes back up the picture, else null */
function backEnds(lookup: Lookup, e: Ends): { from: Box; to: Box } | null {
  const s = lookup.get(e.source);
  const t = lookup.get(e.target);
  if (!s || !t || !isCard(s) || !isCard(t)) return null;
  const from = boxOf(s);
  const to = e.source === e.target ? from : boxOf(t);
  return isBackEdge(from, to) ? { from, to } : null;
}

/** how far out edge `id` climbs among every back edge of `edges` (side-route.ts `levels`), in flow px, and where its ends meet their cards (`endShifts`) */
function placeOf(lookup: Lookup, edges: readonly Ends[], id: string): { out: number; shift?: EndShift; side?: Side } {
  const all = edges.flatMap((e) => {
    const ends = backEnds(lookup, e);
    return ends ? [{ e, ends }] : [];
  });
  // a loop on one card that goes left (selfLoopSide) is alone there: it takes no level on the right
  const isLeftLoop = (e: Ends) => e.source === e.target && selfLoopSide(e.source, all.map((b) => b.e)) === 'left';
  if (all.some(({ e }) => e.id === id && isLeftLoop(e))) return { out: 0, side: 'left' };
  const back: (Span & Ends)[] = [];
  const labels: (string | undefined)[] = [];
  const heights = new Map<string, number>();
  for (const { e, ends } of all) {
    if (isLeftLoop(e)) continue;
    const [a, b] = [ends.from.y + ends.from.height / 2, ends.to.y + ends.to.height / 2];
    back.push({ ...e, top: Math.min(a, b), foot: Math.max(a, b) });
    labels.push(textOf(e));
    heights.set(e.source, ends.from.height).set(e.target, ends.to.height);
  }
  if (back.length < 2) return { out: 0 };
  const level = levels(back);
  const shift = endShifts(back.map((e) => ({ id: e.id, source: e.source, target: e.target, level: level.get(e.id) ?? 0 })), (card) => heights.get(card) ?? 0).get(id);
  return { out: (level.get(id) ?? 0) * levelStep(labels), shift };
}

/** the route of edge `e` when it goes back up the picture, else null (drawn as a smoothstep); `edges`: all of them */
export function backRouteIn(lookup: Lookup, edges: readonly Ends[], e: Ends): SideRoute | null {
  const ends = backEnds(lookup, e);
  if (!ends) return null;
  const { from, to } = ends;
  const cards = [from, ...(to === from ? [] : [to])];
  for (const n of lookup.values()) if (n.id !== e.source && n.id !== e.target && isCard(n)) cards.push(boxOf(n));
  return sideRoute(from, to, cards, { self: e.source === e.target, label: textOf(e), ...placeOf(lookup, edges, e.id) });
}

/** the box around everything drawn: every node, and every edge's route around the side of the cards (null: nothing measured yet) */
export function drawnBounds(lookup: ReadonlyMap<string, InternalNode>, edges: readonly Edge[]): Box | null {
  const boxes: Box[] = [];
  for (const n of lookup.values()) if (!n.hidden && n.measured.width && n.measured.height) boxes.push(boxOf(n));
  for (const e of edges) {
    const route = backRouteIn(lookup, edges, e);
    if (route) boxes.push(routeBounds(route));
  }
  return boxes.length ? union(boxes) : null;
}

/** a route redraws its edge only when it moves (the store changes at every frame of a pan) */
const sameRoute = (a: SideRoute | null, b: SideRoute | null) => a === b || (!!a && !!b && a.path === b.path && a.label?.x === b.label?.x && a.label?.y === b.label?.y);

/** the label beside the climb: starting at its box's near side, so however wide the text, it grows away from the cards */
function SideLabel({ route, text }: { route: SideRoute; text: string }) {
  const ref = useRef<SVGTextElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (ref.current) setWidth(ref.current.getBBox().width);
  }, [text]);
  const box = route.label!;
  const padX = 4;
  // on the left side, its right end is at the box's right: beside the climb
  const x = route.side === 'right' ? box.x + padX : box.x + box.width - padX - width;
  return (
    <g className="react-flow__edge-textwrapper" transform={`translate(${x} ${box.y})`} visibility={width ? 'visible' : 'hidden'} data-side-label={route.side}>
      <rect className="react-flow__edge-textbg" x={-padX} y={0} width={width + 2 * padX} height={box.height} rx={2} ry={2} />
      <text ref={ref} className="react-flow__edge-text" y={box.height / 2} dy="0.3em">
        {text}
      </text>
    </g>
  );
}

function FlowEdge(props: EdgeProps) {
  const { id, source, target, label } = props;
  const text = typeof label === 'string' ? label : undefined;
  const route = useStore(useCallback((s: ReactFlowState) => backRouteIn(s.nodeLookup, s.edges, { id, source, target, label: text }), [id, source, target, text]), sameRoute);
  if (!route) return <SmoothStepEdge {...props} />;
  return (
    <>
      <BaseEdge id={props.id} path={route.path} markerEnd={props.markerEnd} style={props.style} interactionWidth={props.interactionWidth} />
      {text && route.label ? <SideLabel route={route} text={text} /> : null}
    </>
  );
}

export const edgeTypes = { flow: memo(FlowEdge) };
