// A loop from a card to itself, on a card other loops also leave or enter: it and its label keep
// clear of every other loop's legs, climbs and labels (they use the card's right side, it takes the
// left); alone on its card it stays on the right, as every loop does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InternalNode } from '@xyflow/react';
import { backRouteIn } from './edges';
import type { Box, SideRoute } from './side-route';

type P = { x: number; y: number };

/** React Flow's measured node, as the edge reads it */
const node = (id: string, b: Box) => [id, { id, type: 'phase', hidden: false, measured: { width: b.width, height: b.height }, internals: { positionAbsolute: { x: b.x, y: b.y } } } as unknown as InternalNode] as const;

/** cards a, b, c in one column, 150 px apart */
const column = () => new Map(['a', 'b', 'c'].map((id, i) => node(id, { x: 0, y: i * 150, width: 280, height: 100 })));

const edge = (source: string, target: string) => ({ id: `${source}>${target}`, source, target, label: `next = ${target}` });

/** the route's segments, as pairs of points */
const segments = (r: SideRoute): [P, P][] => r.points.slice(1).map((p, i) => [r.points[i], p]);

/** whether segment a–b (horizontal or vertical) touches box `x`, grown by `pad` */
function hits([a, b]: [P, P], x: Box, pad = 2): boolean {
  return Math.max(a.x, b.x) >= x.x - pad && Math.min(a.x, b.x) <= x.x + x.width + pad && Math.max(a.y, b.y) >= x.y - pad && Math.min(a.y, b.y) <= x.y + x.height + pad;
}

/** whether two axis-parallel segments cross or touch */
const meet = (s: [P, P], t: [P, P]) => hits(s, { x: Math.min(t[0].x, t[1].x), y: Math.min(t[0].y, t[1].y), width: Math.abs(t[1].x - t[0].x), height: Math.abs(t[1].y - t[0].y) }, 1);

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function assertClear(self: SideRoute, others: SideRoute[], cards: Box[]) {
  for (const o of others) {
    for (const s of segments(self)) for (const t of segments(o)) assert.ok(!meet(s, t), `the self-loop ${JSON.stringify(s)} meets ${JSON.stringify(t)}`);
    for (const t of segments(o)) assert.ok(!hits(t, self.label!), `a leg ${JSON.stringify(t)} runs over the self-loop's label ${JSON.stringify(self.label)}`);
    for (const s of segments(self)) assert.ok(!hits(s, o.label!), `the self-loop runs over a label ${JSON.stringify(o.label)}`);
    assert.ok(!overlaps(self.label!, o.label!), 'the labels apart');
  }
  for (const c of cards) assert.ok(!overlaps(self.label!, c), 'its label over no card');
}

test('a self-loop on a card two loops leave keeps clear of their legs and labels, and they of its', () => {
  const lookup = column();
  const edges = [edge('c', 'c'), edge('c', 'b'), edge('c', 'a')];
  const [self, ...others] = edges.map((e) => backRouteIn(lookup, edges, e)!);
  assert.ok(self.label && others.every((o) => o.label));
  assert.ok(self.points[0].y > self.points.at(-1)!.y, 'it still leaves low and comes back high');
  assertClear(self, others, [...lookup.values()].map((n) => ({ x: n.internals.positionAbsolute.x, y: n.internals.positionAbsolute.y, width: 280, height: 100 })));
});

test('a self-loop on a card a loop enters and another leaves keeps clear of both', () => {
  const lookup = column();
  const edges = [edge('c', 'b'), edge('b', 'b'), edge('b', 'a')];
  const routes = edges.map((e) => backRouteIn(lookup, edges, e)!);
  assertClear(routes[1], [routes[0], routes[2]], []);
});

test('a self-loop alone on its card stays on the right, beside its climb', () => {
  const lookup = column();
  const edges = [edge('b', 'b'), edge('c', 'c'), edge('c', 'a')];
  const alone = backRouteIn(lookup, edges, edges[0])!;
  assert.equal(alone.side, 'right');
  assert.equal(alone.label!.x, alone.points[1].x + 6);
});
