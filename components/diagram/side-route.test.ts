// A back edge's route around the side of the cards: on the looping fixture (check → work, with work
// above check in one column) it leaves check's side, climbs beside the cards and enters work's side,
// never through a card, and its label is beside the climb, clear of every card.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import { layoutAll, sizeOf } from './layout';
import { endShifts, isBackEdge, labelSize, levelStep, levels, routeBounds, sideRoute, type Box } from './side-route';

const LOOP = path.resolve(import.meta.dirname, '../../bench/fixtures/loop_skill/skill.md');

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (p: { x: number; y: number }, b: Box) => p.x > b.x && p.x < b.x + b.width && p.y > b.y && p.y < b.y + b.height;

/** points every 2 px along a polyline */
function samples(points: readonly { x: number; y: number }[]): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 2));
    for (let k = 0; k <= n; k++) out.push({ x: a.x + ((b.x - a.x) * k) / n, y: a.y + ((b.y - a.y) * k) / n });
  }
  return out;
}

/** the looping fixture laid out as the diagram lays it out: each node's box, by id */
function loopBoxes(): { boxes: Map<string, Box>; label: string } {
  const diagram = analyzeBundle({ 'skill.md': readFileSync(LOOP, 'utf8') }).diagram!;
  const pos = layoutAll(diagram);
  const boxes = new Map(diagram.nodes.map((n) => [n.id, { ...pos.get(n.id)!, ...sizeOf(n) }]));
  const back = diagram.edges.find((e) => e.source === 'phase:check' && e.target === 'phase:work')!;
  return { boxes, label: back.label ?? '' };
}

test('the loop check → work goes around the side of the column: out of check, up beside the cards, into work, through no card', () => {
  const { boxes, label } = loopBoxes();
  assert.equal(label, 'next = work');
  const [work, check] = [boxes.get('phase:work')!, boxes.get('phase:check')!];
  // one column, work above check: a back edge
  assert.ok(Math.abs(work.x + work.width / 2 - (check.x + check.width / 2)) < 1, 'the two cards are in one column');
  assert.ok(isBackEdge(check, work));
  assert.ok(!isBackEdge(work, check), 'work → check goes down: a forward edge');
  const cards = [...boxes.values()];
  const route = sideRoute(check, work, cards, { label })!;
  assert.ok(route, 'a route around the side');
  // out of check's side at its middle, into work's side at its middle
  const [start, end] = [route.points[0], route.points.at(-1)!];
  assert.equal(start.x, check.x + check.width);
  assert.equal(start.y, check.y + check.height / 2);
  assert.equal(end.x, work.x + work.width);
  assert.equal(end.y, work.y + work.height / 2);
  // the climb is beside every card, and no point of the route is inside one
  const climbX = route.points[1].x;
  for (const c of cards) assert.ok(climbX >= c.x + c.width + 24 || c.y > check.y + check.height || c.y + c.height < work.y, 'the climb is clear of the cards beside it');
  for (const p of samples(route.points)) for (const [id, c] of boxes) assert.ok(!inside(p, c), `route point ${JSON.stringify(p)} inside ${id}`);
  // the label is on the climb's outer side, between its two ends, over no card
  const box = route.label!;
  assert.ok(box.x > climbX && box.y >= end.y && box.y + box.height <= start.y, JSON.stringify({ box, climbX }));
  assert.ok(box.width >= labelSize(label).width);
  for (const [id, c] of boxes) assert.ok(!overlaps(box, c), `label over ${id}`);
  // what Fit keeps in view holds the label
  const b = routeBounds(route);
  assert.ok(b.x + b.width >= box.x + box.width && b.y <= box.y);
});

test('a card beside the source on the right: the route goes around the left side; blocked both sides: no route', () => {
  const target = { x: 0, y: 0, width: 280, height: 100 };
  const source = { x: 0, y: 200, width: 280, height: 100 };
  const onRight = { x: 320, y: 190, width: 250, height: 120 };
  const left = sideRoute(source, target, [source, target, onRight], { label: 'next = a' })!;
  assert.equal(left.side, 'left');
  assert.ok(left.points[1].x < 0 && left.label!.x + left.label!.width < left.points[1].x);
  for (const p of samples(left.points)) for (const c of [source, target, onRight]) assert.ok(!inside(p, c));
  const onLeft = { x: -290, y: 190, width: 250, height: 120 };
  assert.equal(sideRoute(source, target, [source, target, onRight, onLeft]), null);
});

test('a phase that loops on itself leaves low on its side and comes back high', () => {
  const card = { x: 0, y: 0, width: 280, height: 100 };
  assert.ok(isBackEdge(card, card));
  const route = sideRoute(card, card, [card], { self: true, label: 'next = p' })!;
  assert.ok(route.points[0].y > route.points.at(-1)!.y);
  assert.ok(!overlaps(route.label!, card));
});

const mid = (x: Box) => x.y + x.height / 2;

/** cards a, b, c in one column, and the levels of c's two loops back to a and to b */
function loopsFromTheFoot() {
  const [a, b, c] = [0, 1, 2].map((i) => ({ x: 0, y: i * 150, width: 280, height: 100 }));
  const lv = levels([
    { id: 'c>a', top: mid(a), foot: mid(c) },
    { id: 'c>b', top: mid(b), foot: mid(c) },
  ]);
  return { a, b, c, cards: [a, b, c], lv };
}

test('two loops whose climbs overlap in height climb apart: the shorter inside, its label clear of the longer one', () => {
  // a, b, c in one column; c loops back to b and to a
  const { a, b, c, cards, lv } = loopsFromTheFoot();
  assert.deepEqual([lv.get('c>b'), lv.get('c>a')], [0, 1]);
  const step = levelStep(['next = a', 'next = b']);
  const inner = sideRoute(c, b, cards, { label: 'next = b', out: 0 })!;
  const outer = sideRoute(c, a, cards, { label: 'next = a', out: step })!;
  const [xi, xo] = [inner.points[1].x, outer.points[1].x];
  assert.ok(xo > xi, 'the longer loop climbs outside the shorter');
  assert.ok(inner.label!.x + inner.label!.width < xo, "the inner label ends before the outer climb");
  assert.ok(!overlaps(inner.label!, outer.label!), 'the labels apart');
  for (const r of [inner, outer]) for (const card of cards) assert.ok(!overlaps(r.label!, card));
  // a chain of overlaps: each takes a level past the ones it meets
  const chain = levels([
    { id: 'e0', top: 0, foot: 100 },
    { id: 'e1', top: 90, foot: 250 },
    { id: 'e2', top: 240, foot: 500 },
  ]);
  assert.ok(chain.get('e1')! > chain.get('e0')! && chain.get('e2')! > chain.get('e1')!, JSON.stringify([...chain]));
  assert.deepEqual(levels([{ id: 'x', top: 0, foot: 10 }, { id: 'y', top: 20, foot: 30 }]), new Map([['x', 0], ['y', 0]]));
});

/** whether a horizontal leg (`h`: two points) crosses or runs along a vertical climb (`v`: two points) */
function meets(h: readonly { x: number; y: number }[], v: readonly { x: number; y: number }[]): boolean {
  const [x0, x1] = [Math.min(h[0].x, h[1].x), Math.max(h[0].x, h[1].x)];
  const [y0, y1] = [Math.min(v[0].y, v[1].y), Math.max(v[0].y, v[1].y)];
  return v[0].x >= x0 && v[0].x <= x1 && h[0].y >= y0 && h[0].y <= y1;
}

test('two loops leaving one card leave it apart, and neither leg crosses the other climb', () => {
  // a, b, c in one column; c loops back to b and to a: both leave c's right side
  const { a, b, c, cards, lv } = loopsFromTheFoot();
  const shifts = endShifts(
    [
      { id: 'c>a', source: 'c', target: 'a', level: lv.get('c>a')! },
      { id: 'c>b', source: 'c', target: 'b', level: lv.get('c>b')! },
    ],
    () => 100,
  );
  const step = levelStep(['next = a', 'next = b']);
  const inner = sideRoute(c, b, cards, { label: 'next = b', out: 0, shift: shifts.get('c>b') })!;
  const outer = sideRoute(c, a, cards, { label: 'next = a', out: step, shift: shifts.get('c>a') })!;
  const [i0, o0] = [inner.points[0], outer.points[0]];
  assert.equal(i0.x, o0.x);
  assert.ok(Math.abs(i0.y - o0.y) >= 8, `their first stretches apart: ${i0.y} vs ${o0.y}`);
  for (const p of [i0, o0]) assert.ok(p.y > c.y && p.y < c.y + c.height, 'each leaves from the card');
  // the outer leaves below the inner: its leg passes under the inner climb, not through it
  assert.ok(!meets(outer.points.slice(0, 2), inner.points.slice(1, 3)), JSON.stringify({ inner: inner.points, outer: outer.points }));
  assert.ok(!meets(inner.points.slice(2, 4), outer.points.slice(1, 3)));
  // each still enters its own target at its middle
  assert.equal(inner.points.at(-1)!.y, mid(b));
  assert.equal(outer.points.at(-1)!.y, mid(a));
});

test('a loop leaving a card where another comes in: the two meet it apart, the one leaving above', () => {
  // c loops back to b, b loops back to a: both meet b's right side at its middle
  const { a, b, c, cards } = loopsFromTheFoot();
  const shifts = endShifts(
    [
      { id: 'c>b', source: 'c', target: 'b', level: 0 },
      { id: 'b>a', source: 'b', target: 'a', level: 1 },
    ],
    () => 100,
  );
  const step = levelStep(['next = a', 'next = b']);
  const up = sideRoute(b, a, cards, { out: step, shift: shifts.get('b>a') })!;
  const into = sideRoute(c, b, cards, { out: 0, shift: shifts.get('c>b') })!;
  assert.ok(up.points[0].y < into.points.at(-1)!.y, JSON.stringify({ up: up.points, into: into.points }));
  assert.ok(!meets(up.points.slice(0, 2), into.points.slice(1, 3)));
  assert.ok(!meets(into.points.slice(2, 4), up.points.slice(1, 3)));
  // a card met once keeps its end where it was
  assert.deepEqual(shifts.get('c>b')!.leave, 0);
  assert.deepEqual(shifts.get('b>a')!.enter, 0);
});
